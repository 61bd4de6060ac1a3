import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock, type Clock } from '@quarry/core';
import { LocalBlobStore } from './local-blob-store.js';
import { openSqlite, type SqliteDatabase } from './open-sqlite.js';
import { SqliteChangeHistory } from './sqlite-change-history.js';
import { defaultSqliteDocumentCacheOptions, SqliteDocumentCache, type SqliteDocumentCacheOptions } from './sqlite-document-cache.js';
import { defaultSqlitePageIndexOptions, SqlitePageIndex, type SqlitePageIndexOptions } from './sqlite-page-index.js';
import { SqliteJobStore } from './sqlite-job-store.js';
import { SqliteMonitorStore } from './sqlite-monitor-store.js';
import { SqliteLedger } from './sqlite-ledger.js';
import { defaultSqliteQueueOptions, SqliteQueue, type SqliteQueueOptions } from './sqlite-queue.js';
import { SqliteWebhookOutbox } from './sqlite-webhook-outbox.js';

export interface SqliteStorageOptions {
  /** Folder of the database file (`quarry.db`) and of the blobs (`blobs/`); created when missing. */
  dataDir: string;
  clock?: Clock;
  queue?: SqliteQueueOptions;
  pageIndex?: SqlitePageIndexOptions;
  documents?: SqliteDocumentCacheOptions;
}

/** Every embedded store, on one database connection (so a page, its charge and its queue ack share a transaction). */
export interface SqliteStorage {
  db: SqliteDatabase;
  jobs: SqliteJobStore;
  queue: SqliteQueue;
  ledger: SqliteLedger;
  documents: SqliteDocumentCache;
  pageIndex: SqlitePageIndex;
  changeHistory: SqliteChangeHistory;
  monitors: SqliteMonitorStore;
  outbox: SqliteWebhookOutbox;
  blobs: LocalBlobStore;
  /** Writes the page index's and the document cache's waiting rows and closes the database. The stores must not be used afterwards. */
  close(): void;
}

/** The embedded storage of `quarry serve`: `<dataDir>/quarry.db` and `<dataDir>/blobs/`. */
export function createSqliteStorage(options: SqliteStorageOptions): SqliteStorage {
  mkdirSync(options.dataDir, { recursive: true });
  const clock = options.clock ?? systemClock;
  const db = openSqlite(join(options.dataDir, 'quarry.db'));
  const pageIndex = new SqlitePageIndex(db, options.pageIndex ?? defaultSqlitePageIndexOptions);
  const documents = new SqliteDocumentCache(db, options.documents ?? defaultSqliteDocumentCacheOptions);
  const queue = new SqliteQueue(db, clock, options.queue ?? defaultSqliteQueueOptions);
  return {
    db,
    jobs: new SqliteJobStore(db, { queue, rideAlong: [documents] }),
    queue,
    ledger: new SqliteLedger(db, clock),
    documents,
    pageIndex,
    changeHistory: new SqliteChangeHistory(db),
    monitors: new SqliteMonitorStore(db),
    outbox: new SqliteWebhookOutbox(db, clock),
    blobs: new LocalBlobStore(join(options.dataDir, 'blobs')),
    close: () => {
      try {
        pageIndex.flush();
        documents.flush();
      } finally {
        db.close();
      }
    },
  };
}

import { systemClock, type Clock } from '@quarry/core';
import { openPostgres, type OpenPostgresOptions } from './open-postgres.js';
import type { PostgresDatabase } from './postgres-database.js';
import { PostgresChangeHistory } from './postgres-change-history.js';
import { PostgresDocumentCache } from './postgres-document-cache.js';
import { PostgresPageIndex } from './postgres-page-index.js';
import { PostgresJobStore } from './postgres-job-store.js';
import { PostgresLedger } from './postgres-ledger.js';
import { PostgresMonitorStore } from './postgres-monitor-store.js';
import { PostgresWebhookOutbox } from './postgres-webhook-outbox.js';

export interface PostgresStorageOptions extends OpenPostgresOptions {
  clock?: Clock;
}

/** Every state port of the distributed mode, on one connection pool (one schema). */
export interface PostgresStorage {
  db: PostgresDatabase;
  jobs: PostgresJobStore;
  ledger: PostgresLedger;
  documents: PostgresDocumentCache;
  pageIndex: PostgresPageIndex;
  changeHistory: PostgresChangeHistory;
  monitors: PostgresMonitorStore;
  outbox: PostgresWebhookOutbox;
  /** Closes the pool. The stores must not be used afterwards. */
  close(): Promise<void>;
}

/** Connects, applies the migrations, and builds the stores. */
export async function createPostgresStorage(options: PostgresStorageOptions): Promise<PostgresStorage> {
  const { clock = systemClock, ...databaseOptions } = options;
  const db = await openPostgres(databaseOptions);
  return {
    db,
    jobs: new PostgresJobStore(db),
    ledger: new PostgresLedger(db, clock),
    documents: new PostgresDocumentCache(db),
    pageIndex: new PostgresPageIndex(db),
    changeHistory: new PostgresChangeHistory(db),
    monitors: new PostgresMonitorStore(db),
    outbox: new PostgresWebhookOutbox(db, clock),
    close: () => db.close(),
  };
}

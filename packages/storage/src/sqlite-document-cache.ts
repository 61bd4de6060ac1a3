import type { CachedDocument, CachedDocumentEntry, DocumentCache } from '@quarry/core';
import type { SqliteDatabase } from './open-sqlite.js';
import { type PendingWrites, WriteBatch, type WriteBatchOptions } from './write-batch.js';

/** How the cache batches its writes (write-batch.ts). */
export type SqliteDocumentCacheOptions = WriteBatchOptions;

/**
 * A commit per stored page was ~0.45 s of the server's main thread over a cmake-doc crawl (1,948
 * pages), most of `put`: the same batches as the page index.
 */
export const defaultSqliteDocumentCacheOptions: SqliteDocumentCacheOptions = { batchSize: 50, flushMs: 250 };

type CacheRow = [key: string, url: string, teamId: string | null, document: string, storedAt: number, links: string | null];

/**
 * DocumentCache on SQLite (table of migration 4, links from 8): one row per key, the document as
 * JSON text. `put` serialises the entry at once and writes it in batches (write-batch.ts): every
 * read and `prune` of this object writes what waits first, so this process reads its own entries;
 * other processes see them within `flushMs`; a process killed meanwhile loses the entries of its
 * last `flushMs` (a cache: the next scrape of those pages fetches them). `flush()` writes at once
 * (`SqliteStorage.close` calls it).
 */
export class SqliteDocumentCache implements DocumentCache, PendingWrites {
  private readonly statements;
  private readonly batch: WriteBatch<CacheRow>;

  constructor(db: SqliteDatabase, options: SqliteDocumentCacheOptions = defaultSqliteDocumentCacheOptions) {
    this.statements = {
      put: db.prepare<[string, string, string | null, string, number, string | null]>(
        `INSERT INTO document_cache (key, url, team_id, document, stored_at, links) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET url = excluded.url, team_id = excluded.team_id, document = excluded.document,
           stored_at = excluded.stored_at, links = excluded.links`,
      ),
      prune: db.prepare<[number]>('DELETE FROM document_cache WHERE stored_at < ?'),
      get: db.prepare<[string, number], { document: string; stored_at: number; links: string | null }>(
        'SELECT document, stored_at, links FROM document_cache WHERE key = ? AND stored_at >= ?',
      ),
    };
    this.batch = new WriteBatch(
      db,
      (rows) => {
        for (const row of rows) this.statements.put.run(...row);
      },
      options,
    );
  }

  async put(entry: CachedDocumentEntry): Promise<void> {
    const links = entry.links ? JSON.stringify(entry.links) : null;
    this.batch.add(entry.key, [entry.key, entry.url, entry.teamId ?? null, JSON.stringify(entry.document), entry.storedAt, links]);
  }

  /** Writes the entries waiting, in one transaction (see the class comment). */
  flush(): void {
    this.batch.flush();
  }

  /**
   * Writes the entries waiting inside the caller's transaction (`SqliteJobStore` given this cache as
   * `rideAlong` does it in `finishItem`'s). A crawl page's entry is then written by the transaction
   * that stores the page, a few milliseconds after `put`, with no commit of its own: held for a batch
   * (up to 250 ms), each entry's JSON outlived two scavenges and was promoted, and the main heap's
   * old space grew by about the size of every document stored (issue 21d).
   */
  writeWithin(): (() => void) | undefined {
    return this.batch.writeWithin();
  }

  async get(key: string, maxAgeMs: number, now: number): Promise<CachedDocument | undefined> {
    if (maxAgeMs <= 0) return undefined;
    this.flush();
    const row = this.statements.get.get(key, now - maxAgeMs);
    if (!row) return undefined;
    return { document: JSON.parse(row.document), storedAt: row.stored_at, ...(row.links !== null ? { links: JSON.parse(row.links) as string[] } : {}) };
  }

  /** Deletes entries stored before `before`; returns how many. Not part of the port. */
  async prune(before: number): Promise<number> {
    this.flush();
    return this.statements.prune.run(before).changes;
  }
}

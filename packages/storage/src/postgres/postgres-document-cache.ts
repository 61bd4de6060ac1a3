import type { CachedDocumentEntry, DocumentCache, ScrapeDocument } from '@quarry/core';
import type { PostgresDatabase } from './postgres-database.js';

/** DocumentCache on PostgreSQL: one row per key, the document as JSON text. */
export class PostgresDocumentCache implements DocumentCache {
  constructor(private readonly db: PostgresDatabase) {}

  async put(entry: CachedDocumentEntry): Promise<void> {
    await this.db.execute(
      `INSERT INTO document_cache (key, url, team_id, document, stored_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (key) DO UPDATE SET url = excluded.url, team_id = excluded.team_id, document = excluded.document, stored_at = excluded.stored_at`,
      [entry.key, entry.url, entry.teamId ?? null, JSON.stringify(entry.document), entry.storedAt],
    );
  }

  async get(key: string, maxAgeMs: number, now: number): Promise<{ document: ScrapeDocument; storedAt: number } | undefined> {
    if (maxAgeMs <= 0) return undefined;
    const [row] = await this.db.query<{ document: string; stored_at: number }>('SELECT document, stored_at FROM document_cache WHERE key = $1 AND stored_at >= $2', [
      key,
      now - maxAgeMs,
    ]);
    return row ? { document: JSON.parse(row.document) as ScrapeDocument, storedAt: row.stored_at } : undefined;
  }

  /** Deletes entries stored before `before`; returns how many. Not part of the port. */
  async prune(before: number): Promise<number> {
    return this.db.execute('DELETE FROM document_cache WHERE stored_at < $1', [before]);
  }
}

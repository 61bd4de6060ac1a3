import type { CachedDocument, CachedDocumentEntry, DocumentCache } from '@quarry/core';
import type { PostgresDatabase } from './postgres-database.js';

/** DocumentCache on PostgreSQL: one row per key, the document and its links as JSON text. */
export class PostgresDocumentCache implements DocumentCache {
  constructor(private readonly db: PostgresDatabase) {}

  async put(entry: CachedDocumentEntry): Promise<void> {
    await this.db.execute(
      `INSERT INTO document_cache (key, url, team_id, document, stored_at, links) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (key) DO UPDATE SET url = excluded.url, team_id = excluded.team_id, document = excluded.document,
         stored_at = excluded.stored_at, links = excluded.links`,
      [entry.key, entry.url, entry.teamId ?? null, JSON.stringify(entry.document), entry.storedAt, entry.links ? JSON.stringify(entry.links) : null],
    );
  }

  async get(key: string, maxAgeMs: number, now: number): Promise<CachedDocument | undefined> {
    if (maxAgeMs <= 0) return undefined;
    const [row] = await this.db.query<{ document: string; stored_at: number; links: string | null }>(
      'SELECT document, stored_at, links FROM document_cache WHERE key = $1 AND stored_at >= $2',
      [key, now - maxAgeMs],
    );
    if (!row) return undefined;
    return { document: JSON.parse(row.document), storedAt: row.stored_at, ...(row.links !== null ? { links: JSON.parse(row.links) as string[] } : {}) };
  }

  /** Deletes entries stored before `before`; returns how many. Not part of the port. */
  async prune(before: number): Promise<number> {
    return this.db.execute('DELETE FROM document_cache WHERE stored_at < $1', [before]);
  }
}

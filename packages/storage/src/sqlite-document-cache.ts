import type { CachedDocument, CachedDocumentEntry, DocumentCache } from '@quarry/core';
import type { SqliteDatabase } from './open-sqlite.js';

/** DocumentCache on SQLite (table of migration 4, links from 8): one row per key, the document as JSON text. */
export class SqliteDocumentCache implements DocumentCache {
  private readonly statements;

  constructor(db: SqliteDatabase) {
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
  }

  async put(entry: CachedDocumentEntry): Promise<void> {
    this.statements.put.run(
      entry.key,
      entry.url,
      entry.teamId ?? null,
      JSON.stringify(entry.document),
      entry.storedAt,
      entry.links ? JSON.stringify(entry.links) : null,
    );
  }

  async get(key: string, maxAgeMs: number, now: number): Promise<CachedDocument | undefined> {
    if (maxAgeMs <= 0) return undefined;
    const row = this.statements.get.get(key, now - maxAgeMs);
    if (!row) return undefined;
    return { document: JSON.parse(row.document), storedAt: row.stored_at, ...(row.links !== null ? { links: JSON.parse(row.links) as string[] } : {}) };
  }

  /** Deletes entries stored before `before`; returns how many. Not part of the port. */
  async prune(before: number): Promise<number> {
    return this.statements.prune.run(before).changes;
  }
}

import type { IndexedPage, PageIndex, PageIndexHit, PageIndexQuery } from '@quarry/core';
import { maxIndexedChars, searchTerms, siteColumn } from '../search-terms.js';
import type { PostgresDatabase } from './postgres-database.js';

/**
 * PageIndex on PostgreSQL full-text search (migrations 5 and 7: one row per scope and URL): a generated tsvector (english
 * configuration; title weight A, description B, text C) with a GIN index, ranked by ts_rank, the
 * hit's description from ts_headline. Query words are ORed, as in the SQLite index.
 */
export class PostgresPageIndex implements PageIndex {
  constructor(private readonly db: PostgresDatabase) {}

  async add(page: IndexedPage): Promise<void> {
    await this.db.execute(
      `INSERT INTO page_index (scope, url, site, title, description, body, stored_at) VALUES ($7, $1, $2, $3, $4, $5, $6)
       ON CONFLICT (scope, url) DO UPDATE SET site = excluded.site, title = excluded.title, description = excluded.description,
         body = excluded.body, stored_at = excluded.stored_at`,
      [page.url, siteColumn(page.url), page.title, page.description, page.text.slice(0, maxIndexedChars), page.storedAt, page.scope],
    );
  }

  async remove(url: string, scope: string): Promise<void> {
    await this.db.execute('DELETE FROM page_index WHERE scope = $2 AND url = $1', [url, scope]);
  }

  async search(query: PageIndexQuery): Promise<PageIndexHit[]> {
    const terms = searchTerms(query.query);
    if (terms.length === 0) return [];
    const rows = await this.db.query<{ url: string; title: string; description: string; stored_at: number; snippet: string }>(
      `SELECT p.url, p.title, p.description, p.stored_at,
         ts_headline('english', p.body, q, 'MaxFragments=1, MaxWords=32, MinWords=12, StartSel="", StopSel=""') AS snippet
       FROM page_index p, to_tsquery('english', $1) q
       WHERE p.words @@ q AND p.scope = $6 AND p.stored_at >= $2 AND p.stored_at <= $3
         AND ($4::text IS NULL OR p.site = $4 OR p.site LIKE '%.' || $4)
       ORDER BY ts_rank(p.words, q) DESC, p.stored_at DESC
       LIMIT $5`,
      [terms.join(' | '), query.since ?? 0, query.until ?? Number.MAX_SAFE_INTEGER, query.site ?? null, query.limit, query.scope],
    );
    return rows.map((row) => ({ url: row.url, title: row.title, snippet: row.snippet.trim() || row.description, storedAt: row.stored_at }));
  }

  async pagesOf(site: string, limit: number, scope: string): Promise<Array<{ url: string; title: string; description: string }>> {
    return this.db.query(
      `SELECT url, title, description FROM page_index WHERE scope = $3 AND (site = $1 OR site LIKE '%.' || $1) ORDER BY stored_at DESC, url LIMIT $2`,
      [site, limit, scope],
    );
  }
}

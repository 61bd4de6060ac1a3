import type { IndexedPage, PageIndex, PageIndexHit, PageIndexQuery } from '@quarry/core';
import type { SqliteDatabase } from './open-sqlite.js';
import { maxIndexedChars, searchTerms, siteColumn } from './search-terms.js';

/**
 * PageIndex on SQLite FTS5 (migrations 8 and 9): an external-content FTS5 table over `page_index`
 * (one row per scope and URL), kept in step by triggers, with the porter stemmer. Ranking is BM25 with the title weighing 5, the
 * description 2 and the text 1; the description of a hit is FTS5's snippet() of the best column.
 * Query words are ORed: pages with more of them, and rarer ones, rank first.
 */
export class SqlitePageIndex implements PageIndex {
  private readonly statements;

  constructor(db: SqliteDatabase) {
    this.statements = {
      add: db.prepare<[string, string, string, string, string, string, number]>(
        `INSERT INTO page_index (scope, url, site, title, description, body, stored_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (scope, url) DO UPDATE SET site = excluded.site, title = excluded.title, description = excluded.description,
           body = excluded.body, stored_at = excluded.stored_at`,
      ),
      remove: db.prepare<[string, string]>('DELETE FROM page_index WHERE scope = ? AND url = ?'),
      search: db.prepare<[string, string, number, number, string | null, string | null, string | null, number], SearchRow>(
        `SELECT p.url, p.title, p.description, p.stored_at, snippet(page_index_fts, -1, '', '', '…', 32) AS snippet
         FROM page_index_fts JOIN page_index p ON p.seq = page_index_fts.rowid
         WHERE page_index_fts MATCH ? AND p.scope = ? AND p.stored_at >= ? AND p.stored_at <= ?
           AND (? IS NULL OR p.site = ? OR p.site LIKE '%.' || ?)
         ORDER BY bm25(page_index_fts, 5.0, 2.0, 1.0), p.stored_at DESC
         LIMIT ?`,
      ),
      pagesOf: db.prepare<[string, string, string, number], { url: string; title: string; description: string }>(
        `SELECT url, title, description FROM page_index WHERE scope = ? AND (site = ? OR site LIKE '%.' || ?) ORDER BY stored_at DESC, seq DESC LIMIT ?`,
      ),
    };
  }

  async add(page: IndexedPage): Promise<void> {
    this.statements.add.run(page.scope, page.url, siteColumn(page.url), page.title, page.description, page.text.slice(0, maxIndexedChars), page.storedAt);
  }

  async remove(url: string, scope: string): Promise<void> {
    this.statements.remove.run(scope, url);
  }

  async search(query: PageIndexQuery): Promise<PageIndexHit[]> {
    const terms = searchTerms(query.query);
    if (terms.length === 0) return [];
    const match = terms.map((term) => `"${term}"`).join(' OR ');
    const site = query.site ?? null;
    const rows = this.statements.search.all(match, query.scope, query.since ?? 0, query.until ?? Number.MAX_SAFE_INTEGER, site, site, site, query.limit);
    return rows.map((row) => ({ url: row.url, title: row.title, snippet: row.snippet.trim() || row.description, storedAt: row.stored_at }));
  }

  async pagesOf(site: string, limit: number, scope: string): Promise<Array<{ url: string; title: string; description: string }>> {
    return this.statements.pagesOf.all(scope, site, site, limit);
  }
}

interface SearchRow {
  url: string;
  title: string;
  description: string;
  stored_at: number;
  snippet: string;
}

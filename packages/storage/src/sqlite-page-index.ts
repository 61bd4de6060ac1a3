import type { IndexedPage, PageIndex, PageIndexHit, PageIndexQuery } from '@quarry/core';
import type { SqliteDatabase } from './open-sqlite.js';
import { maxIndexedChars, searchTerms, siteColumn } from './search-terms.js';
import { WriteBatch, type WriteBatchOptions } from './write-batch.js';

/** How the index batches its writes (write-batch.ts). */
export type SqlitePageIndexOptions = WriteBatchOptions;

/**
 * FTS5 writes the terms it gathered as a new segment at the end of each statement that may roll
 * back alone (an upsert does: a statement savepoint) and at each commit: on cmake-doc pages, 50
 * pages in one transaction cost ~0.35 ms each against ~0.8-1.2 ms one by one (the server's main
 * thread spent ~0.5 ms per crawled page here). A batch is one statement (task 22e): one segment per
 * batch, not one per page.
 */
export const defaultSqlitePageIndexOptions: SqlitePageIndexOptions = { batchSize: 50, flushMs: 250 };

/**
 * PageIndex on SQLite FTS5 (migrations 8 and 9): an external-content FTS5 table over `page_index`
 * (one row per scope and URL), kept in step by triggers, with the porter stemmer. Ranking is BM25 with the title weighing 5, the
 * description 2 and the text 1; the description of a hit is FTS5's snippet() of the best column.
 * Query words are ORed: pages with more of them, and rarer ones, rank first.
 *
 * `add` writes in batches (write-batch.ts): a page added is held until `batchSize` pages wait or
 * `flushMs` has passed. Every read and `remove` of this object writes what waits first, so this
 * process always sees its own pages; other processes see them within `flushMs`. `flush()` writes
 * at once (`SqliteStorage.close` calls it). A process killed meanwhile loses the index entries of
 * its last `flushMs` (the index is derived data: the pages themselves are in the jobs' results,
 * and a scrape adds them again).
 */
export class SqlitePageIndex implements PageIndex {
  private readonly statements;
  private readonly batch: WriteBatch<IndexedPage>;

  constructor(db: SqliteDatabase, options: SqlitePageIndexOptions = defaultSqlitePageIndexOptions) {
    this.statements = {
      // A whole batch in one statement: the rows as a JSON array of [scope, url, site, title, description, body, storedAt].
      addAll: db.prepare<[string]>(
        `INSERT INTO page_index (scope, url, site, title, description, body, stored_at)
         SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6 FROM json_each(?) WHERE true
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
    this.batch = new WriteBatch(db, (pages) => this.statements.addAll.run(JSON.stringify(pages.map(indexRow))), options);
  }

  async add(page: IndexedPage): Promise<void> {
    this.batch.add(`${page.scope}\n${page.url}`, page);
  }

  /** Writes the pages waiting, in one transaction (see the class comment). */
  flush(): void {
    this.batch.flush();
  }

  async remove(url: string, scope: string): Promise<void> {
    this.flush();
    this.statements.remove.run(scope, url);
  }

  async search(query: PageIndexQuery): Promise<PageIndexHit[]> {
    this.flush();
    const terms = searchTerms(query.query);
    if (terms.length === 0) return [];
    const match = terms.map((term) => `"${term}"`).join(' OR ');
    const site = query.site ?? null;
    const rows = this.statements.search.all(match, query.scope, query.since ?? 0, query.until ?? Number.MAX_SAFE_INTEGER, site, site, site, query.limit);
    return rows.map((row) => ({ url: row.url, title: row.title, snippet: row.snippet.trim() || row.description, storedAt: row.stored_at }));
  }

  async pagesOf(site: string, limit: number, scope: string): Promise<Array<{ url: string; title: string; description: string }>> {
    this.flush();
    return this.statements.pagesOf.all(scope, site, site, limit);
  }
}

/**
 * A page as a row of the batch statement. Bound through JSON, a string keeps the bytes it had bound
 * alone (a lone surrogate too: both write it as ED A0 80), and a storedAt stays an integer.
 */
function indexRow(page: IndexedPage): [string, string, string, string, string, string, number] {
  return [page.scope, page.url, siteColumn(page.url), page.title, page.description, page.text.slice(0, maxIndexedChars), page.storedAt];
}

interface SearchRow {
  url: string;
  title: string;
  description: string;
  stored_at: number;
  snippet: string;
}

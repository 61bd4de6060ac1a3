/**
 * The PageIndex port: a full-text index of the pages this instance has stored, for the embedded
 * search provider (`IndexSearch`, core/src/search/index-search.ts) and map's known links. One entry
 * per scope and URL: adding a URL again to a scope replaces its entry. A scope is the team that
 * stored the page (pages are per team by default), or '' when the operator shares the index
 * across teams (QUARRY_SHARED_INDEX) and for library use; no query reads another scope.
 *
 * Implementations: `SqlitePageIndex` (FTS5, BM25) and `PostgresPageIndex` (tsvector, ts_rank) in
 * storage. All pass `describePageIndex` from core/src/ports/testing/page-index-suite.ts.
 */
export interface IndexedPage {
  /** Whose page: the team that stored it, '' when shared (see `storeScope`). */
  scope: string;
  /** The page's URL (its final URL after redirects). */
  url: string;
  title: string;
  description: string;
  /** The page's text (its markdown). */
  text: string;
  /** Epoch ms when the page was stored. */
  storedAt: number;
}

export interface PageIndexQuery {
  /** Only pages of this scope. */
  scope: string;
  /** Words to look for; every word counts, pages with more of them (and rarer ones) rank first. */
  query: string;
  limit: number;
  /** Only pages stored at or after this time (epoch ms). */
  since?: number;
  /** Only pages stored at or before this time (epoch ms). */
  until?: number;
  /** Only pages on this site: the host (without `www.`) or one of its subdomains. */
  site?: string;
}

export interface PageIndexHit {
  url: string;
  title: string;
  /** A snippet of the text around the matched words (the description when the text has none). */
  snippet: string;
  storedAt: number;
}

export interface PageIndex {
  /**
   * Adds or replaces the entry of `page.url` in `page.scope`. Idempotent. An index may write in
   * batches (`SqlitePageIndex`): the same object's reads see the page at once, other processes
   * once its batch is written.
   */
  add(page: IndexedPage): Promise<void>;
  /** Removes the entry of `url` in `scope` (a page that now fails); nothing when absent. */
  remove(url: string, scope: string): Promise<void>;
  /**
   * Pages matching the query's words, best first (BM25 or an equivalent). A query with no word
   * answers nothing. Never throws on odd input (quotes, operators): words are taken literally.
   */
  search(query: PageIndexQuery): Promise<PageIndexHit[]>;
  /** Pages of a site (host without `www.`, and its subdomains) in `scope`, newest first: map's known links. */
  pagesOf(site: string, limit: number, scope: string): Promise<Array<{ url: string; title: string; description: string }>>;
}

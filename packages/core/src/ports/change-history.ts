/**
 * The ChangeHistory port: what a team saw of a URL last time, for the changeTracking format.
 * Histories are per team and per tag: a snapshot recorded under one tag is never the previous
 * scrape of another tag.
 *
 * Implementations: `SqliteChangeHistory`, `PostgresChangeHistory` (storage), `MemoryChangeHistory`
 * (core, library use). All pass `describeChangeHistory` from core/src/ports/testing/change-history-suite.ts.
 */
export interface PageSnapshot {
  teamId: string;
  /** The changeTracking tag, or null for the default history. */
  tag: string | null;
  /** The normalized URL (`cacheUrlKey`), so `http://www.a.com/x/` and `https://a.com/x` are one page. */
  urlKey: string;
  /** The URL as scraped. */
  url: string;
  /** Site of the URL (host without `www.`), for the pages of a site's previous crawl. */
  site: string;
  scrapedAt: number;
  statusCode: number;
  markdown: string;
  /** Fields compared by the json mode (from structured data or an LLM). */
  fields?: Record<string, unknown>;
  /** The crawl (or batch) the scrape belonged to. */
  jobId?: string;
}

export interface ChangeHistory {
  /** The newest snapshot of the URL for the team and tag, or undefined (never seen). */
  latest(teamId: string, tag: string | null, urlKey: string): Promise<PageSnapshot | undefined>;
  /**
   * Records a snapshot. One snapshot is kept per (team, tag, URL, job): recording the same page
   * again in the same job (or again outside any job) replaces it.
   */
  record(snapshot: PageSnapshot): Promise<void>;
  /**
   * The URLs recorded by the newest job other than `exceptJobId` that recorded pages of `site` for
   * the team and tag: the pages of the site's previous crawl. Empty when there was none.
   */
  previousJobUrls(teamId: string, tag: string | null, site: string, exceptJobId: string): Promise<string[]>;
}

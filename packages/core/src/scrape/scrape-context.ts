/** Who and what a scrape is for: passed down the scrape pipeline to every document stage. */
export interface ScrapeContext {
  signal?: AbortSignal;
  /** Id for metadata.scrapeId; a new one when absent. */
  scrapeId?: string;
  /** The team the scrape is for (histories, token usage); absent for library use. */
  teamId?: string;
  /** The crawl or batch the scrape belongs to (change histories remember a crawl's pages). */
  jobId?: string;
  /** `hidden`: a page the crawl did not reach but its previous crawl did (changeTracking says so). */
  visibility?: 'visible' | 'hidden';
  /** A browser page stays open for interact under the team and scrapeId (POST /scrape asks). */
  keepPage?: boolean;
}

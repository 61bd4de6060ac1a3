import type { CrawlOptions } from '../options/crawl-options.js';
import type { ScrapeOptions } from '../options/scrape-options.js';

/**
 * What a job record keeps of its request: the internal options (already validated and defaulted),
 * so workers never re-parse, plus the API version and webhook for the server.
 */
export interface CrawlJobRequest {
  version: 'v1' | 'v2';
  options: CrawlOptions;
  webhook?: unknown;
  /** v2 `prompt` and the options the model generated from it (merged under the explicit ones into `options`). */
  prompt?: { text: string; generated: Record<string, unknown> };
}

export interface BatchJobRequest {
  version: 'v1' | 'v2';
  options: ScrapeOptions;
  maxConcurrency?: number;
  webhook?: unknown;
}

/** The message key of a crawl's kickoff (robots.txt, start page, sitemaps). */
export const kickoffKey = '~kickoff';

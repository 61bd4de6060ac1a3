/**
 * The document a scrape returns: the API's shape (field names as Firecrawl spells them).
 * Only the formats that were asked for are present.
 */
export interface DocumentMetadata {
  title?: string;
  description?: string;
  language?: string;
  /** The URL as requested, verbatim (not normalised). */
  sourceURL: string;
  /** The final URL after redirects. */
  url: string;
  statusCode: number;
  contentType?: string;
  favicon?: string;
  scrapeId: string;
  /** Set when the page failed (HTTP error status, blocked, ...). */
  error?: string;
  /** PDF page count. */
  numPages?: number;
  creditsUsed: number;
  /** The pool the page came through; v1 answers show `enhanced` by its v1 name, `stealth`. */
  proxyUsed: 'basic' | 'enhanced' | 'stealth';
  cacheState?: 'hit' | 'miss';
  cachedAt?: string;
  /** Which engine produced the page (`http`, `browser`, `pdf`...). */
  engine: string;
  /** og*, dc*, article* fields and every `<meta name|property|itemprop>` under its raw name. */
  [key: string]: unknown;
}

export interface ActionsResult {
  screenshots: string[];
  scrapes: Array<{ url: string; html: string }>;
  javascriptReturns: Array<{ type: string; value: unknown }>;
  pdfs: string[];
}

export interface ScrapeDocument {
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  images?: string[];
  screenshot?: string;
  summary?: string;
  json?: unknown;
  extract?: unknown;
  changeTracking?: Record<string, unknown>;
  branding?: Record<string, unknown>;
  actions?: ActionsResult;
  warning?: string;
  metadata: DocumentMetadata;
}

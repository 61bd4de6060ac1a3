import type { ScrapeDocument } from '../document.js';

/**
 * The DocumentCache port: scraped documents by cache key, for `maxAge` (serve a recent copy instead
 * of fetching again) and later changeTracking and the search index. The key is computed by the
 * caller from the URL and the options that change the result; the cache does not interpret it.
 *
 * Implementations: `SqliteDocumentCache` (storage). All pass `describeDocumentCache` from
 * core/src/ports/testing/document-cache-suite.ts.
 */
export interface CachedDocumentEntry {
  key: string;
  url: string;
  /** The team that stored it, when the entry must not be shared across teams. */
  teamId?: string;
  document: ScrapeDocument;
  storedAt: number;
  /** Every link of the raw page, when known: a crawl that reads the cache follows them. */
  links?: string[];
}

export interface DocumentCache {
  /**
   * Stores the document (as it is now) under its key, replacing an older entry with the same key.
   * A cache may write in batches (`SqliteDocumentCache`): the same object's reads see the entry at
   * once, other processes once its batch is written.
   */
  put(entry: CachedDocumentEntry): Promise<void>;
  /**
   * The entry stored under `key` at most `maxAgeMs` before `now` (`storedAt >= now - maxAgeMs`), or
   * undefined (none, or too old). A `maxAgeMs` of 0 or less never hits.
   */
  get(key: string, maxAgeMs: number, now: number): Promise<CachedDocument | undefined>;
}

export interface CachedDocument {
  document: ScrapeDocument;
  storedAt: number;
  /** The links stored with the entry (absent when none were). */
  links?: string[];
}

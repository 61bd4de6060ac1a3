import type { ScrapeDocument } from '../document.js';
import type { ScrapeOptions } from '../options/scrape-options.js';

/**
 * When the cache may answer a scrape, and when a scrape's result may be kept.
 *
 * | rule                                                          | read | store |
 * |---------------------------------------------------------------|------|-------|
 * | `maxAge` is 0                                                 | no   | yes   |
 * | `storeInCache: false`                                         | yes  | no    |
 * | actions, or custom headers (cookies, auth: private content)   | no   | no    |
 * | zero data retention                                           | no   | no    |
 * | changeTracking asked (it compares with a fresh page)          | no   | yes   |
 * | the enhanced (stealth) proxy asked: the caller wants a fresh    | no   | yes   |
 * | fetch through it; later basic scrapes may use its result       |      |       |
 * | the page answered an error status (>= 400)                    | -    | no    |
 */
export function canReadCache(options: ScrapeOptions): boolean {
  return options.maxAge > 0 && isShareable(options) && options.proxy !== 'enhanced' && !options.formats.some((format) => format.type === 'changeTracking');
}

export function canStore(options: ScrapeOptions): boolean {
  return options.storeInCache && isShareable(options);
}

export function isStorableDocument(document: ScrapeDocument): boolean {
  return document.metadata.statusCode < 400 && document.metadata.error === undefined;
}

function isShareable(options: ScrapeOptions): boolean {
  return options.actions.length === 0 && Object.keys(options.headers).length === 0 && !options.zeroDataRetention;
}

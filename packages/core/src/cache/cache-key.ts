import { createHash } from 'node:crypto';
import type { FormatSpec } from '../options/formats.js';
import type { ScrapeOptions } from '../options/scrape-options.js';

/**
 * Cache keys: the normalized URL plus every option that changes what a scrape returns.
 *
 * The URL is normalized as Firecrawl's index does, so that spellings of one page share an entry:
 * https, no fragment, no default port, no `www.`, no trailing `/index.html|.php|.htm|.shtml|.xml`,
 * no trailing slash. The query is kept as written.
 */
const indexSuffix = /\/index\.(?:html?|php|shtml|xml)$/i;

export function cacheUrlKey(input: string): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return input.trim();
  }
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  const port = url.port && !(url.protocol === 'https:' && url.port === '443') && !(url.protocol === 'http:' && url.port === '80') ? `:${url.port}` : '';
  const path = url.pathname.replace(indexSuffix, '/').replace(/\/+$/, '');
  return `https://${host}${port}${path}${url.search}`;
}

/** The site of a URL for histories and the index: its host without `www.`. */
export function siteOf(input: string): string {
  try {
    return new URL(input).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return '';
  }
}

/**
 * The cache key of a scrape: a sha256 of the normalized URL and the output-shaping options. The
 * changeTracking format is left out (it is computed fresh, never read from the cache); so are the
 * options that never change the page (timeout, skipTlsVerification, storeInCache, maxAge) and the
 * proxy (the page is the same through any pool: an enhanced scrape is never read from the cache but
 * stores what later basic scrapes may use).
 */
export function cacheKeyOf(url: string, options: ScrapeOptions): string {
  const shape = {
    url: cacheUrlKey(url),
    formats: options.formats
      .filter((format) => format.type !== 'changeTracking')
      .map(formatShape)
      .sort(),
    onlyMainContent: options.onlyMainContent,
    includeTags: [...options.includeTags].sort(),
    excludeTags: [...options.excludeTags].sort(),
    waitFor: options.waitFor,
    mobile: options.mobile,
    location: options.location ? { country: options.location.country, languages: options.location.languages ?? [] } : null,
    removeBase64Images: options.removeBase64Images,
    blockAds: options.blockAds,
    parsePdf: options.parsePdf,
    pdfMaxPages: options.pdfMaxPages ?? null,
  };
  return createHash('sha256').update(JSON.stringify(shape)).digest('hex');
}

/** A format as a stable string: its type and options, keys sorted. */
function formatShape(format: FormatSpec): string {
  return JSON.stringify(format, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : value,
  );
}

import type { Fetcher } from '../ports/fetcher.js';
import { gunzipIfNeeded, parseSitemap } from './sitemap-parser.js';

/**
 * Finds and reads a site's sitemaps: `Sitemap:` lines of robots.txt, `sitemap.xml` under the start
 * path and at the origin (or the start URL itself when it is a sitemap). Sitemap indexes are
 * followed recursively; gzip and plain-text sitemaps are read. Caps bound the work: documents
 * fetched, URLs returned. A sitemap that fails to load or parse is skipped.
 */
export const sitemapLimits = { maxDocuments: 20, maxUrls: 100_000, timeoutMs: 15_000 } as const;

export interface SitemapDiscoveryInput {
  startUrl: URL;
  robotsSitemaps: string[];
  fetcher: Fetcher;
  maxUrls?: number;
  signal?: AbortSignal;
}

export async function discoverSitemapUrls(input: SitemapDiscoveryInput): Promise<string[]> {
  const maxUrls = Math.min(input.maxUrls ?? sitemapLimits.maxUrls, sitemapLimits.maxUrls);
  const candidates = sitemapCandidates(input.startUrl, input.robotsSitemaps);
  const visited = new Set<string>();
  const urls: string[] = [];
  const seenUrls = new Set<string>();
  let fetched = 0;
  const pending = [...candidates];
  while (pending.length > 0 && fetched < sitemapLimits.maxDocuments && urls.length < maxUrls) {
    if (input.signal?.aborted) break;
    const batch = pending.splice(0, Math.min(4, sitemapLimits.maxDocuments - fetched));
    const results = await Promise.all(
      batch.map(async (location) => {
        if (visited.has(location)) return undefined;
        visited.add(location);
        fetched++;
        try {
          const response = await input.fetcher.fetch({
            url: new URL(location),
            timeoutMs: sitemapLimits.timeoutMs,
            ...(input.signal ? { signal: input.signal } : {}),
          });
          if (response.status < 200 || response.status >= 300) return undefined;
          const body = await gunzipIfNeeded(response.body);
          return parseSitemap(body, response.headers.get('content-type'));
        } catch {
          return undefined;
        }
      }),
    );
    for (const parsed of results) {
      if (!parsed) continue;
      for (const nested of parsed.sitemaps) if (!visited.has(nested)) pending.push(nested);
      for (const entry of parsed.urls) {
        if (urls.length >= maxUrls) break;
        if (seenUrls.has(entry.url)) continue;
        seenUrls.add(entry.url);
        urls.push(entry.url);
      }
    }
  }
  return urls;
}

export function sitemapCandidates(startUrl: URL, robotsSitemaps: string[]): string[] {
  const out: string[] = [];
  const add = (location: string) => {
    if (!out.includes(location)) out.push(location);
  };
  if (/\.xml(\.gz)?$/i.test(startUrl.pathname)) add(startUrl.href);
  for (const location of robotsSitemaps) add(location);
  const path = startUrl.pathname.replace(/\/+$/, '');
  if (path !== '' && !/\.xml(\.gz)?$/i.test(path)) add(new URL(`${path}/sitemap.xml`, startUrl.origin).href);
  add(new URL('/sitemap.xml', startUrl.origin).href);
  return out;
}

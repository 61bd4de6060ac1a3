import { decodeBody } from '../html/decode-body.js';
import { TargetError, TimeoutError } from '../errors.js';
import type { MapOptions } from '../options/map-options.js';
import type { Clock } from '../ports/clock.js';
import type { Fetcher } from '../ports/fetcher.js';
import type { HtmlTransformer } from '../ports/html-transformer.js';
import { contentKindOf } from '../scrape/content-kind.js';
import { parseTargetUrl } from '../scrape/target-url.js';
import { registrableDomain } from './crawl-rules.js';
import { skippedFileExtensions } from './frontier-filter.js';
import { RobotsCache } from './robots-cache.js';
import { rankBySearch } from './map-search.js';
import { discoverSitemapUrls } from './sitemap-discovery.js';
import { isSpaRoute, normalizeMapUrl, scopeSiteOf, scopePortOf } from './url-normalize.js';

/**
 * Map: the URLs of a site, fast. Unlike self-hosted Firecrawl (which returns only sitemap links,
 * often just the start URL), Quarry merges the sitemap with a breadth-first walk of the site's own
 * pages inside the time and limit budget, and keeps each fetched page's title and description so
 * `search` can rank by words of the path, title and description.
 *
 *   start URL -> robots.txt Sitemap: lines + sitemap.xml (indexes, gzip, text)   [unless skip]
 *             -> BFS over pages of the site (links only, no markdown)            [unless only]
 *             -> scope (same site / subdomains / below path) -> normalise, dedupe -> rank -> limit
 */
import type { MapLink } from './map-link.js';
export type { MapLink };

export interface MapDeps {
  fetcher: Fetcher;
  transformer: HtmlTransformer;
  clock: Clock;
  robotsTokens: string[];
  /** Links this instance already knows for the site (the index), when one exists. */
  knownLinks?: (startUrl: URL) => Promise<MapLink[]>;
  /** Stored pages of the site matching `search` by their words (the index), best first. */
  searchKnown?: (startUrl: URL, query: string, limit: number) => Promise<MapLink[]>;
}

/** Budgets of the breadth-first part. */
export const mapBudget = { maxPages: 200, concurrency: 8, defaultTimeMs: 20_000, pageTimeoutMs: 10_000 } as const;

export async function mapSite(deps: MapDeps, url: string, options: MapOptions, context: { signal?: AbortSignal } = {}): Promise<MapLink[]> {
  const start = parseTargetUrl(url);
  const startedAt = deps.clock.now();
  const deadline = startedAt + (options.timeoutMs ?? mapBudget.defaultTimeMs);
  const discoveryDeadline = startedAt + (options.timeoutMs ?? mapBudget.defaultTimeMs) * 0.8;
  const controller = new AbortController();
  const onAbort = () => controller.abort(context.signal?.reason);
  context.signal?.addEventListener('abort', onAbort, { once: true });
  const guard =
    options.timeoutMs !== undefined
      ? deps.clock.sleep(options.timeoutMs, controller.signal).then(
          () => 'timeout' as const,
          () => 'aborted' as const,
        )
      : undefined;

  const inScope = scopeFilter(start, options);
  const links = new Map<string, MapLink>();
  const add = (raw: string, details: Omit<MapLink, 'url'> = {}) => {
    const normalized = normalizeForMap(raw, options);
    if (!normalized || !inScope(normalized)) return undefined;
    const existing = links.get(normalized);
    if (existing) {
      if (details.title && !existing.title) Object.assign(existing, details);
      return existing;
    }
    const link: MapLink = { url: normalized, ...details };
    links.set(normalized, link);
    return link;
  };

  // sitemap "only": exactly the sitemap's URLs (the start URL too when the sitemap lists it), nothing
  // the walk or the index found.
  const isSitemapOnly = options.sitemap === 'only';
  let startFailure: TargetError | undefined;
  const work = (async () => {
    if (!isSitemapOnly) add(start.href);
    if (!isSitemapOnly && options.useIndex && deps.knownLinks) for (const { url: known, ...details } of await deps.knownLinks(start)) add(known, details);
    if (options.sitemap !== 'skip') {
      const robots = await new RobotsCache(deps.fetcher, deps.clock, deps.robotsTokens, 5_000).rulesFor(start);
      const sitemapUrls = await discoverSitemapUrls({
        startUrl: start,
        robotsSitemaps: robots.sitemaps,
        fetcher: deps.fetcher,
        maxUrls: Math.max(options.limit * 2, 1_000),
        signal: controller.signal,
      });
      for (const entry of sitemapUrls) add(entry);
    }
    if (!isSitemapOnly) {
      startFailure = await walkSite(deps, start, options, { add, links, deadline: discoveryDeadline, signal: controller.signal });
    }
  })();

  try {
    const outcome = guard ? await Promise.race([work.then(() => 'done' as const), guard]) : (await work, 'done' as const);
    // Work that ended past the allowed time expired too, whichever callback the event loop ran
    // first (a 1 ms timeout against two fetches from 127.0.0.1 on a busy machine).
    if (outcome === 'timeout' || (guard && deps.clock.now() >= deadline)) throw new TimeoutError('Map timed out');
  } finally {
    controller.abort();
    context.signal?.removeEventListener('abort', onAbort);
  }
  // The start URL refused (a private address after a redirect, a name that does not resolve, a
  // closed port): say so instead of answering the start URL (and what the index once knew).
  if (startFailure) throw startFailure;
  let result = [...links.values()];
  if (options.search) {
    // Pages the index knows to contain the words come first, in its order; then the rest by URL words.
    const known = options.useIndex && deps.searchKnown ? await deps.searchKnown(start, options.search, options.limit) : [];
    const first = new Map<string, MapLink>();
    for (const link of known) {
      const normalized = normalizeForMap(link.url, options);
      if (!normalized || !inScope(normalized) || first.has(normalized)) continue;
      if (isSitemapOnly && !links.has(normalized)) continue;
      first.set(normalized, { ...links.get(normalized), ...link, url: normalized });
    }
    result = [
      ...first.values(),
      ...rankBySearch(
        result.filter((link) => !first.has(link.url)),
        options.search,
      ),
    ];
  }
  return result.slice(0, options.limit);
}

/** Failures of the start page that mean the site itself cannot be reached or may not be fetched. */
const startRefusalKinds: ReadonlySet<string> = new Set(['ssrf', 'dns', 'connection-refused']);

/**
 * Breadth-first over the site's HTML pages, collecting links and each page's title and
 * description. Returns the start page's own failure when it was refused or unreachable.
 */
async function walkSite(
  deps: MapDeps,
  start: URL,
  options: MapOptions,
  state: { add: (url: string, details?: Omit<MapLink, 'url'>) => MapLink | undefined; links: Map<string, MapLink>; deadline: number; signal: AbortSignal },
): Promise<TargetError | undefined> {
  let startFailure: TargetError | undefined;
  const queue: string[] = [start.href];
  const visited = new Set<string>([pageKey(start.href)]);
  let fetched = 0;
  const maxPages = Math.min(mapBudget.maxPages, options.limit);
  const next = async (): Promise<void> => {
    while (queue.length > 0 && fetched < maxPages && state.links.size < options.limit * 2) {
      if (state.signal.aborted || deps.clock.now() >= state.deadline) return;
      const pageUrl = queue.shift()!;
      fetched++;
      try {
        const response = await deps.fetcher.fetch({
          url: new URL(pageUrl),
          timeoutMs: Math.max(1, Math.min(mapBudget.pageTimeoutMs, state.deadline - deps.clock.now())),
          signal: state.signal,
        });
        const contentType = response.headers.get('content-type');
        if (response.status >= 400 || contentKindOf(contentType, response.body) !== 'html') continue;
        const output = await deps.transformer.transform({
          html: decodeBody(response.body, contentType).text,
          url: response.url.href,
          onlyMainContent: false,
          includeTags: [],
          excludeTags: [],
          removeBase64Images: true,
          want: { markdown: false, html: false, links: true, images: false },
        });
        const title = typeof output.metadata.title === 'string' ? output.metadata.title : undefined;
        const description = typeof output.metadata.description === 'string' ? output.metadata.description : undefined;
        state.add(pageUrl, { ...(title ? { title } : {}), ...(description ? { description } : {}) });
        if (response.url.href !== pageUrl) state.add(response.url.href, { ...(title ? { title } : {}), ...(description ? { description } : {}) });
        for (const link of output.links ?? []) {
          const added = state.add(link);
          if (!added) continue;
          const key = pageKey(added.url);
          if (!visited.has(key) && !isSkippedFile(added.url)) {
            visited.add(key);
            queue.push(added.url);
          }
        }
      } catch (error) {
        // A page that fails is skipped: map reports what it could reach, unless the start is refused.
        if (pageUrl === start.href && error instanceof TargetError && startRefusalKinds.has(error.kind)) startFailure = error;
      }
    }
  };
  await Promise.all(Array.from({ length: mapBudget.concurrency }, () => next()));
  return startFailure;
}

function normalizeForMap(raw: string, options: MapOptions): string | null {
  const normalized = normalizeMapUrl(raw, { ignoreQueryParameters: options.ignoreQueryParameters });
  if (!normalized) return null;
  const hashAt = normalized.indexOf('#');
  if (hashAt >= 0 && !isSpaRoute(normalized.slice(hashAt + 1))) return normalized.slice(0, hashAt);
  return normalized;
}

function scopeFilter(start: URL, options: MapOptions): (url: string) => boolean {
  // Same site is the host without `www.` and a non-default port, as a crawl judges it (`scopeSiteOf`).
  const startSite = scopeSiteOf(start);
  const startPort = scopePortOf(start);
  const startDomain = registrableDomain(start.hostname);
  const startPath = start.pathname.replace(/\/+$/, '');
  return (raw) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return false;
    }
    const sameSite = scopeSiteOf(url) === startSite;
    if (!sameSite) {
      if (!options.includeSubdomains || startDomain === null || scopePortOf(url) !== startPort || registrableDomain(url.hostname) !== startDomain) return false;
    }
    if (options.filterByPath && startPath !== '' && !url.pathname.startsWith(startPath)) return false;
    return true;
  };
}

function pageKey(url: string): string {
  return url.replace(/^https?:\/\/(www\.)?/, '').replace(/\/$/, '');
}

function isSkippedFile(url: string): boolean {
  const path = new URL(url).pathname.toLowerCase();
  const dot = path.lastIndexOf('.');
  return dot > path.lastIndexOf('/') && skippedFileExtensions.has(path.slice(dot));
}

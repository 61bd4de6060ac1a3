import { ValidationError } from '../errors.js';

/** Path segments that do not count towards depth: `/docs/index.html` is as deep as `/docs`. */
const depthlessSegments = new Set(['', 'index.html', 'index.php']);

/**
 * Depth of a URL = its non-empty path segments, not counting `index.html` / `index.php`
 * (Firecrawl's `getURLDepth`). `/` -> 0, `/a/b/` -> 2, `/a/index.html` -> 1. Segments are split on
 * `/` of the percent-encoded path, so `%2F` does not add depth. Query and fragment never count.
 */
export function pathDepth(url: URL): number {
  let depth = 0;
  for (const segment of url.pathname.split('/')) {
    if (!depthlessSegments.has(segment)) depth += 1;
  }
  return depth;
}

/**
 * The largest path depth a crawl admits. v1 `maxDepth` is relative to the start URL, so the
 * effective limit is `maxDepth + pathDepth(start)` (a crawl from `/docs/api` with `maxDepth: 1`
 * admits `/docs/api/x` but not `/docs/api/x/y`). Without `maxDepth` (v2 has none) there is no limit.
 */
export function effectiveMaxDepth(startUrl: URL, maxDepth: number | undefined): number {
  return maxDepth === undefined ? Number.POSITIVE_INFINITY : maxDepth + pathDepth(startUrl);
}

/**
 * v1 request check: a start URL deeper than `maxDepth` is refused with
 * `ValidationError('URL depth exceeds the specified maxDepth')` on field `url` (as Firecrawl, which
 * answers 400). Equal or shallower is accepted. Does nothing when `maxDepth` is undefined.
 */
export function checkStartDepth(startUrl: URL, maxDepth: number | undefined): void {
  if (maxDepth === undefined) return;
  if (pathDepth(startUrl) > maxDepth) {
    throw new ValidationError([{ field: 'url', message: 'URL depth exceeds the specified maxDepth' }]);
  }
}

/**
 * Discovery depth of a link found on a page at `pageDiscoveryDepth` (hop count from the start;
 * seeds - the start URL and sitemap URLs - are found "on" depth -1 and so sit at 0).
 */
export function linkDiscoveryDepth(pageDiscoveryDepth: number): number {
  return pageDiscoveryDepth + 1;
}

/**
 * Whether a page at `pageDiscoveryDepth` may enqueue anything: with `maxDiscoveryDepth` set, a
 * page at depth >= maxDiscoveryDepth enqueues nothing (0 -> start page and sitemap URLs only;
 * 1 -> plus the links found on those). A crawl loop can skip link extraction when this is false.
 */
export function canEnqueueFrom(pageDiscoveryDepth: number, maxDiscoveryDepth: number | undefined): boolean {
  return maxDiscoveryDepth === undefined || pageDiscoveryDepth < maxDiscoveryDepth;
}

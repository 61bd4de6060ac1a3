/**
 * The crawl frontier's decision: may this discovered URL be enqueued, and if not, why.
 *
 * Firecrawl runs two filters per link and reports the first failing check; the order below is
 * theirs, so the reason (and its message) matches:
 *
 * ```
 * parse ─ scheme ─ page in crawl? ─┬─ internal (host minus www == page's) ─ anchor ─ exclude(path) ─ robots ─┐
 *                                   └─ other host ─ social ─ excluded domain ─ allowExternalLinks | subdomain ─┤
 *   ┌───────────────────────────────────────────────────────────────────────────────────────────────────────┘
 *   └─ discovery depth ─ path depth ─ exclude(text) ─ include(text) ─ backward ─ robots ─ file type ─> enqueue
 * ```
 * (`filterURL` is the first row, `filterLinks` the second; "text" is the path, or the full URL with
 * `regexOnFullURL`.) Deduplication and `limit` are the crawl loop's: it gets the key here.
 */
import { registrableDomain, type CrawlRules } from './crawl-rules.js';
import { canEnqueueFrom, pathDepth } from './url-depth.js';
import { dedupKey, isSpaRoute, scopeSiteOf, scopePortOf } from './url-normalize.js';

export type DenialReason = 'depth' | 'excluded' | 'not-included' | 'robots' | 'file-type' | 'unparseable' | 'backward' | 'social' | 'external' | 'anchor';

/** Firecrawl's denial strings, used as the per-page error of a refused start page or redirect. */
export const denialMessages: Record<DenialReason, string> = {
  depth: 'URL exceeds maximum crawl depth',
  excluded: 'URL matches exclude pattern',
  'not-included': 'URL does not match required include pattern',
  robots: 'URL blocked by robots.txt',
  'file-type': 'URL points to a file type that is not crawled',
  unparseable: 'URL could not be parsed',
  backward: 'URL cannot be crawled unless crawlEntireDomain is set to true',
  social: 'URL is a social media or email link',
  external: 'External URL not allowed',
  anchor: 'URL contains section anchor (#)',
};

/**
 * External URLs containing any of these strings anywhere (host, path or query, as Firecrawl
 * checks) are refused as social/email: `https://blog.example/github.com-tips` is refused too.
 */
export const socialAndEmailMarkers: readonly string[] = [
  'facebook.com',
  'twitter.com',
  'linkedin.com',
  'instagram.com',
  'pinterest.com',
  'mailto:',
  'github.com',
  'calendly.com',
  'discord.gg',
  'discord.com',
];

/** Path endings (case-insensitive) never crawled. `.pdf`, `.docx` and `.xml` ARE crawled. */
export const skippedFileExtensions: ReadonlySet<string> = new Set([
  '.png',
  '.jpg',
  '.jpeg',
  '.gif',
  '.css',
  '.js',
  '.ico',
  '.svg',
  '.tiff',
  '.zip',
  '.exe',
  '.dmg',
  '.mp4',
  '.mp3',
  '.wav',
  '.pptx',
  '.xlsx',
  '.avi',
  '.flv',
  '.woff',
  '.ttf',
  '.woff2',
  '.webp',
  '.inc',
]);

/** Where a link was found. */
export interface LinkContext {
  /** URL of the page the link was found on (final URL after redirects); for seeds, the start URL. */
  pageUrl: URL;
  /** Discovery depth of that page, or -1 for seeds (start URL, sitemap URLs), which then sit at 0. */
  discoveryDepth: number;
  /**
   * robots.txt verdict for a URL on any host; omitted = everything allowed (`ignoreRobotsTxt`).
   * Called at most once per decision, only for URLs that passed the checks before it.
   */
  isAllowedByRobots?: (url: URL) => boolean;
}

/** Where a redirect happened. */
export interface RedirectContext {
  /** The URL that was requested and answered with the redirect chain. */
  sourceUrl: URL;
  /** Discovery depth of the page being fetched (kept for the redirect target). */
  discoveryDepth: number;
  isAllowedByRobots?: (url: URL) => boolean;
}

export type LinkDecision = { enqueue: true; url: URL; key: string; discoveryDepth: number } | { enqueue: false; reason: DenialReason; url?: URL };

const webProtocols = new Set(['http:', 'https:']);

/**
 * Decides whether a link found on a page is enqueued. Pure and total: never throws; every refusal
 * carries its reason. On `enqueue: true` the URL is normalized (non-route fragment dropped), `key`
 * is its visited-set key ({@link dedupKey}) and `discoveryDepth` is the page's + 1.
 *
 * Semantics beyond Firecrawl's, chosen where theirs was weak (each is tested):
 * - Non-http(s) schemes are refused: `mailto:` as `social`, others (`tel:`, `ftp:`...) as `external`.
 * - Links found on a page outside the crawl (an external page admitted by allowExternalLinks) are
 *   all refused as `external`: external links are followed one hop (later Firecrawl does the same).
 * - Seeds get the same checks as links (sitemap URLs on other hosts are refused).
 */
export function decideLink(rules: CrawlRules, link: string, context: LinkContext): LinkDecision {
  const url = parseLink(link.trim(), context.pageUrl);
  if (url === undefined) return { enqueue: false, reason: 'unparseable' };
  const href = url.href;
  if (!webProtocols.has(url.protocol)) return refuseScheme(href, url);
  const hasAnchor = hasSectionAnchor(href);
  if (hasAnchor) url.hash = '';

  const pageSite = pageSiteOf(context.pageUrl);
  if (!isInCrawl(rules, pageSite, context.pageUrl)) return { enqueue: false, reason: 'external', url };

  const isInternal = scopeSiteOf(url) === pageSite;
  if (isInternal) {
    if (hasAnchor) return { enqueue: false, reason: 'anchor', url };
    if (rules.excludes.matchesAny(url.pathname)) return { enqueue: false, reason: 'excluded', url };
    if (context.isAllowedByRobots && !context.isAllowedByRobots(url)) return { enqueue: false, reason: 'robots', url };
  } else {
    const refusal = checkOtherHost(rules, url, href, () => true);
    if (refusal) return { enqueue: false, reason: refusal, url };
  }

  if (!canEnqueueFrom(context.discoveryDepth, rules.maxDiscoveryDepth)) return { enqueue: false, reason: 'depth', url };
  // Without a path depth limit (v2 has none) the path is not split to count its segments.
  if (rules.maxPathDepth !== Number.POSITIVE_INFINITY && pathDepth(url) > rules.maxPathDepth) return { enqueue: false, reason: 'depth', url };
  const text = rules.regexOnFullURL ? url.href : url.pathname;
  const excludeAlreadyChecked = isInternal && !rules.regexOnFullURL;
  if (!excludeAlreadyChecked && rules.excludes.matchesAny(text)) return { enqueue: false, reason: 'excluded', url };
  if (!rules.includes.isEmpty && !rules.includes.matchesAny(text)) return { enqueue: false, reason: 'not-included', url };
  if (!rules.crawlEntireDomain && !url.pathname.startsWith(rules.startPath)) {
    return { enqueue: false, reason: 'backward', url };
  }
  if (!isInternal && context.isAllowedByRobots && !context.isAllowedByRobots(url)) {
    return { enqueue: false, reason: 'robots', url };
  }
  if (isSkippedFile(url.pathname)) return { enqueue: false, reason: 'file-type', url };
  return { enqueue: true, url, key: dedupKey(url, rules.keyOptions), discoveryDepth: context.discoveryDepth + 1 };
}

/**
 * Re-checks a redirect target (the final URL of a fetched page, not the crawl's start page: a
 * start page redirecting to another host re-bases the crawl instead, see `compileCrawlRules`).
 *
 * Host rules are judged against the crawl's start (Firecrawl's `filterURL` with the crawl origin);
 * then exclude, include and robots apply. Not applied, on purpose: anchors (a final URL's fragment is
 * dropped), discovery and path depth, the backward-link check (a site redirecting `/` to `/intro`
 * must stay crawlable) and file types (the response is already here; its content type decides).
 * An external target is admitted with allowExternalLinks (non-homepage) when the source was in the
 * crawl or the redirect stays within the source's registrable domain (`a.com/x` -> `www.a.com/x`).
 */
export function decideRedirect(rules: CrawlRules, finalUrl: URL, context: RedirectContext): LinkDecision {
  const url = new URL(finalUrl.href);
  const href = url.href;
  if (!webProtocols.has(url.protocol)) return refuseScheme(href, url);
  if (!isSpaRoute(url.hash)) url.hash = '';

  const isInternal = scopeSiteOf(url) === rules.startSite;
  if (isInternal) {
    if (rules.excludes.matchesAny(url.pathname)) return { enqueue: false, reason: 'excluded', url };
  } else {
    const source = context.sourceUrl;
    const sourceSite = scopeSiteOf(source);
    const isSourceRelated = () =>
      isInCrawl(rules, sourceSite, source) ||
      scopeSiteOf(url) === sourceSite ||
      sameDomain(registrableDomain(url.hostname), registrableDomain(source.hostname));
    const refusal = checkOtherHost(rules, url, href, isSourceRelated);
    if (refusal) return { enqueue: false, reason: refusal, url };
  }
  const text = rules.regexOnFullURL ? url.href : url.pathname;
  const excludeAlreadyChecked = isInternal && !rules.regexOnFullURL;
  if (!excludeAlreadyChecked && rules.excludes.matchesAny(text)) return { enqueue: false, reason: 'excluded', url };
  if (!rules.includes.isEmpty && !rules.includes.matchesAny(text)) return { enqueue: false, reason: 'not-included', url };
  if (context.isAllowedByRobots && !context.isAllowedByRobots(url)) return { enqueue: false, reason: 'robots', url };
  return { enqueue: true, url, key: dedupKey(url, rules.keyOptions), discoveryDepth: context.discoveryDepth };
}

/**
 * `link` resolved against the page, or undefined when it does not parse. A link that starts with
 * `http://` or `https://` (a page's links arrive absolute, as `URL.href` spells them: see
 * `extractLinks`) cannot depend on its base, so it is parsed alone: node's `new URL(input, base)`
 * turns the base into a string and parses it again for every link, ~a third of the parse.
 */
function parseLink(link: string, pageUrl: URL): URL | undefined {
  try {
    // One construct site for both (its type feedback then covers the relative links met later).
    return new URL(link, link.startsWith('http://') || link.startsWith('https://') ? undefined : pageUrl);
  } catch {
    return undefined;
  }
}

/** The last page's `scopeSiteOf`: a page's links are decided one after another with one context. */
let lastPage: { url: URL; href: string; site: string } | undefined;

/** `scopeSiteOf(pageUrl)`, computed once per page rather than once per link (checked against its href, as a URL can change). */
function pageSiteOf(pageUrl: URL): string {
  const href = pageUrl.href;
  if (lastPage?.url !== pageUrl || lastPage.href !== href) lastPage = { url: pageUrl, href, site: scopeSiteOf(pageUrl) };
  return lastPage.site;
}

/** True when `href` has a fragment that is an in-page anchor rather than an SPA route (Firecrawl's `noSections`). */
function hasSectionAnchor(href: string): boolean {
  const at = href.indexOf('#');
  if (at < 0) return false;
  const next = href.indexOf('#', at + 1);
  return !isSpaRoute(href.slice(at + 1, next < 0 ? undefined : next));
}

function refuseScheme(href: string, url: URL): LinkDecision {
  return { enqueue: false, reason: href.startsWith('mailto:') ? 'social' : 'external', url };
}

/** A page is in the crawl when it is on the start site, or on a sibling host (same port) with allowSubdomains. */
function isInCrawl(rules: CrawlRules, site: string, url: URL): boolean {
  if (site === rules.startSite) return true;
  return isSubdomainOfStart(rules, url);
}

/** allowSubdomains admits a host of the start's registrable domain on the start's port (see `scopeSiteOf`). */
function isSubdomainOfStart(rules: CrawlRules, url: URL): boolean {
  return rules.allowSubdomains && scopePortOf(url) === rules.startPort && sameDomain(registrableDomain(url.hostname), rules.startDomain);
}

function sameDomain(a: string | null, b: string | null): boolean {
  return a !== null && a === b;
}

/**
 * Firecrawl's external branch of `filterURL`. `isSourceInCrawl` says whether the page the link came
 * from may hand out external links (always true for links, since out-of-crawl pages are refused earlier).
 */
function checkOtherHost(rules: CrawlRules, url: URL, href: string, isSourceInCrawl: () => boolean): DenialReason | undefined {
  if (socialAndEmailMarkers.some((marker) => href.includes(marker))) return 'social';
  if (isExcludedDomain(rules, url)) return 'excluded';
  if (rules.allowExternalLinks && !isBareHomepage(url) && isSourceInCrawl()) return undefined;
  if (isSubdomainOfStart(rules, url)) return undefined;
  return 'external';
}

function isExcludedDomain(rules: CrawlRules, url: URL): boolean {
  const { hostname, pathname } = url;
  return rules.excludedDomains.some(
    (domain) => (hostname === domain.hostname || hostname.endsWith(`.${domain.hostname}`)) && pathname.startsWith(domain.pathPrefix),
  );
}

/** A site's homepage (no non-empty path segment; query and fragment ignored) is never followed as an external link. */
function isBareHomepage(url: URL): boolean {
  return url.pathname.split('/').every((segment) => segment === '');
}

function isSkippedFile(pathname: string): boolean {
  const dot = pathname.lastIndexOf('.');
  return dot >= 0 && skippedFileExtensions.has(pathname.slice(dot).toLowerCase());
}

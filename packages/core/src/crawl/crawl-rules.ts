import { getDomain } from 'tldts';
import { ValidationError } from '../errors.js';
import { compilePathPatterns, pathPatternLimits, type PathMatcher } from './path-patterns.js';
import { checkStartDepth, effectiveMaxDepth } from './url-depth.js';
import { normalizeUrl, scopeSiteOf, scopePortOf, type DedupKeyOptions } from './url-normalize.js';

/**
 * The crawl options the frontier rules need, already defaulted by the crawl options schema
 * (v1 fields mapped onto these names: `allowBackwardLinks` -> `crawlEntireDomain`,
 * `ignoreSitemap` etc. do not reach here).
 */
export interface CrawlRulesInput {
  /** The crawl's start URL as requested; a bare host gets `http://`. */
  startUrl: string;
  /** Regexes (RE2, unanchored search) a URL's path must match one of, when non-empty. */
  includePaths: string[];
  /** Regexes (RE2, unanchored search) that refuse a URL's path. Also read as domain patterns for external links. */
  excludePaths: string[];
  /** v1 only: path depth limit relative to the start URL. Undefined = no limit (v2). */
  maxDepth?: number;
  /** Hop-count limit from the start page; undefined = none. */
  maxDiscoveryDepth?: number;
  /** Follow links outside the start path (turns off the "backward link" check). */
  crawlEntireDomain: boolean;
  /** Follow links to other sites, one hop, from pages of the crawled site. */
  allowExternalLinks: boolean;
  /** Follow links to other hosts of the start URL's registrable domain. */
  allowSubdomains: boolean;
  ignoreQueryParameters: boolean;
  deduplicateSimilarURLs: boolean;
  /** Match include/exclude against the full URL instead of the path. */
  regexOnFullURL: boolean;
}

/** An `excludePaths` entry read as `host[/path-prefix]`, used for external links (Firecrawl's `matchesExcludesExternalDomains`). */
export interface ExcludedDomain {
  readonly hostname: string;
  readonly pathPrefix: string;
}

/** Compiled, immutable crawl rules; build once per crawl with {@link compileCrawlRules}, share freely. */
export interface CrawlRules {
  readonly startUrl: URL;
  /** Start hostname without `www.`, with a non-default port (`scopeSiteOf`): links whose site equals the page's are internal. */
  readonly startSite: string;
  /** The start URL's non-default port as `:port`, or '' (`scopePortOf`): subdomains admitted by allowSubdomains must share it. */
  readonly startPort: string;
  /** Registrable domain of the start host (Public Suffix List, private suffixes included), null for IPs/localhost. */
  readonly startDomain: string | null;
  /** The start URL's pathname: without `crawlEntireDomain`, admitted paths must start with it. */
  readonly startPath: string;
  readonly includes: PathMatcher;
  readonly excludes: PathMatcher;
  readonly excludedDomains: readonly ExcludedDomain[];
  /** Largest admitted path depth (v1 `maxDepth` + depth of the start); Infinity without maxDepth. */
  readonly maxPathDepth: number;
  readonly maxDiscoveryDepth: number | undefined;
  readonly crawlEntireDomain: boolean;
  readonly allowExternalLinks: boolean;
  readonly allowSubdomains: boolean;
  readonly regexOnFullURL: boolean;
  readonly keyOptions: DedupKeyOptions;
}

const tldtsOptions = { allowPrivateDomains: true, extractHostname: false } as const;

/**
 * The registrable domain ("site") of a hostname by the Public Suffix List, private section
 * included: `a.example.co.uk` -> `example.co.uk`, `me.github.io` -> `me.github.io` (so two GitHub
 * Pages sites are different sites). `null` for IP addresses, `localhost` and bare suffixes.
 */
export function registrableDomain(hostname: string): string | null {
  return getDomain(hostname, tldtsOptions);
}

/**
 * Compiles the crawl rules. Throws `ValidationError` when the start URL is not an http(s) URL
 * (field `url`), when a pattern is invalid or too large (fields `includePaths[i]`/`excludePaths[i]`),
 * when both pattern lists together exceed the limits, or (v1) when the start URL is deeper than
 * `maxDepth` (field `url`, "URL depth exceeds the specified maxDepth").
 *
 * When the start URL redirects to another host, Firecrawl re-bases the crawl on the target:
 * compile again with the target as `startUrl`.
 */
export function compileCrawlRules(input: CrawlRulesInput): CrawlRules {
  const startUrl = normalizeUrl(input.startUrl);
  if (startUrl === null) {
    throw new ValidationError([{ field: 'url', message: `\`url\` must be an http or https URL; got ${JSON.stringify(input.startUrl)}` }]);
  }
  checkCombinedPatternSize(input.includePaths, input.excludePaths);
  const includes = compilePathPatterns('includePaths', input.includePaths);
  const excludes = compilePathPatterns('excludePaths', input.excludePaths);
  checkStartDepth(startUrl, input.maxDepth);
  return Object.freeze({
    startUrl,
    startSite: scopeSiteOf(startUrl),
    startPort: scopePortOf(startUrl),
    startDomain: registrableDomain(startUrl.hostname),
    startPath: startUrl.pathname,
    includes,
    excludes,
    excludedDomains: Object.freeze(excludes.patterns.flatMap(readExcludedDomain)),
    maxPathDepth: effectiveMaxDepth(startUrl, input.maxDepth),
    maxDiscoveryDepth: input.maxDiscoveryDepth,
    crawlEntireDomain: input.crawlEntireDomain,
    allowExternalLinks: input.allowExternalLinks,
    allowSubdomains: input.allowSubdomains,
    regexOnFullURL: input.regexOnFullURL,
    keyOptions: Object.freeze({
      ignoreQueryParameters: input.ignoreQueryParameters,
      deduplicateSimilarURLs: input.deduplicateSimilarURLs,
    }),
  });
}

function checkCombinedPatternSize(includePaths: readonly string[], excludePaths: readonly string[]): void {
  const count = includePaths.length + excludePaths.length;
  const length = [...includePaths, ...excludePaths].reduce((sum, pattern) => sum + pattern.length, 0);
  const { maxPatterns, maxTotalLength } = pathPatternLimits;
  const issues = [];
  if (count > maxPatterns) {
    issues.push({
      field: 'includePaths',
      message: `\`includePaths\` and \`excludePaths\` may hold at most ${maxPatterns} patterns together; got ${count}`,
    });
  }
  if (length > maxTotalLength) {
    issues.push({
      field: 'includePaths',
      message: `\`includePaths\` and \`excludePaths\` may total at most ${maxTotalLength} characters together; got ${length}`,
    });
  }
  if (issues.length > 0) throw new ValidationError(issues);
}

/**
 * Reads one exclude pattern as `[http(s)://]host[/path]`, e.g. `example.com`, `blog.example.com`,
 * `https://example.com/blog`. Entries that do not parse as a host (most path regexes, e.g.
 * `^/blog`) are skipped one by one; Firecrawl stops at the first such entry, which made later
 * domain entries silently ineffective.
 */
function readExcludedDomain(pattern: string): ExcludedDomain[] {
  try {
    const url = new URL(`http://${pattern.trim().replace(/^https?:\/\//, '')}`);
    return [{ hostname: url.hostname, pathPrefix: url.pathname }];
  } catch {
    return [];
  }
}

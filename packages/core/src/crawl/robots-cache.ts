import { QuarryError } from '../errors.js';
import type { Clock } from '../ports/clock.js';
import type { Fetcher } from '../ports/fetcher.js';
import { parseRobotsTxt, robotsRulesFromStatus, maxRobotsBytes, type RobotsRules } from './robots-rules.js';

/**
 * robots.txt per origin, fetched through the Fetcher and kept for 24 hours (RFC 9309 §2.4).
 * 4xx allows all; 5xx, timeouts and network errors disallow all (§2.3.1.3-4); redirects are
 * followed by the fetcher (at most 5 hops is its default for robots). Concurrent asks for one
 * origin share one fetch.
 */
export const robotsCacheMs = 24 * 60 * 60 * 1000;
/** RFC 9309 §2.3.1.2: follow at least five consecutive redirects. */
export const robotsMaxRedirects = 5;
/** Failures that say the origin itself cannot be reached or may not be fetched. */
const unreachableKinds: ReadonlySet<string> = new Set(['ssrf', 'dns', 'connection-refused', 'tls']);
export const robotsCompatibilityTokens = ['FirecrawlAgent', 'FireCrawlAgent'];

/** The product tokens matched against robots.txt groups: ours (default `QuarryBot`), then Firecrawl's. */
export function robotsTokensFor(productToken = 'QuarryBot'): string[] {
  return [productToken, ...robotsCompatibilityTokens];
}

export class RobotsCache {
  private readonly entries = new Map<string, { rules: Promise<RobotsRules>; fetchedAt: number }>();

  constructor(
    private readonly fetcher: Fetcher,
    private readonly clock: Clock,
    private readonly userAgentTokens: string[],
    private readonly timeoutMs = 10_000,
  ) {}

  /**
   * Rules for the origin of `url`, for the cache's user-agent tokens or the given ones (a crawl's
   * `robotsUserAgent`). Never throws: failures become allow-all or disallow-all per the RFC.
   * `skipTlsVerification` as the crawl's pages are fetched (an untrusted certificate the crawl
   * accepts must not make its robots.txt unreachable).
   */
  rulesFor(url: URL, tokens: string[] = this.userAgentTokens, options: { skipTlsVerification?: boolean } = {}): Promise<RobotsRules> {
    const origin = url.origin;
    const skipTlsVerification = options.skipTlsVerification === true;
    const key = `${origin} ${tokens.join(',')}${skipTlsVerification ? ' skip-tls' : ''}`;
    const now = this.clock.now();
    const cached = this.entries.get(key);
    if (cached && now - cached.fetchedAt < robotsCacheMs) return cached.rules;
    const rules = this.fetchRules(origin, tokens, skipTlsVerification);
    this.entries.set(key, { rules, fetchedAt: now });
    if (this.entries.size > 10_000) this.entries.delete(this.entries.keys().next().value!);
    return rules;
  }

  private async fetchRules(origin: string, tokens: string[], skipTlsVerification: boolean): Promise<RobotsRules> {
    try {
      const response = await this.fetcher.fetch({
        url: new URL('/robots.txt', origin),
        timeoutMs: this.timeoutMs,
        truncateBytes: maxRobotsBytes, // the first 500 KiB of a file of any size (RFC 9309 §2.5)
        maxRedirects: robotsMaxRedirects,
        ...(skipTlsVerification ? { skipTlsVerification } : {}),
      });
      return robotsRulesFromStatus(response.status) ?? parseRobotsTxt(response.body, tokens);
    } catch (error) {
      // Too many redirects: the file is unavailable (4xx-like), so everything is allowed.
      if (error instanceof QuarryError && error.code === 'target_failed' && (error.details?.kind === 'too-large' || error.details?.kind === 'redirect')) {
        return robotsRulesFromStatus(404)!;
      }
      const unreachable = error instanceof QuarryError && unreachableKinds.has(String(error.details?.kind)) ? { unreachable: error } : {};
      return { ...robotsRulesFromStatus(503)!, ...unreachable };
    }
  }
}

import { RateLimitedError, type Clock } from '@quarry/core';

/**
 * Requests per team and endpoint kind in a fixed 60-second window (Firecrawl's model). The limit
 * is keyed by team, never by client address, so X-Forwarded-For cannot reset it. A batch counts
 * once. The distributed mode shares the counters in Redis behind the same interface.
 */
export type EndpointKind = 'scrape' | 'crawl' | 'map' | 'search' | 'extract' | 'crawlStatus' | 'extractStatus';

export const defaultRateLimits: Record<EndpointKind, number> = {
  scrape: 100,
  crawl: 15,
  map: 100,
  search: 100,
  extract: 100,
  crawlStatus: 25_000,
  extractStatus: 25_000,
};

export interface RateDecision {
  limit: number;
  remaining: number;
  /** Epoch seconds when the window resets. */
  resetAt: number;
}

export interface RateLimiter {
  /** Counts one request; throws RateLimitedError (with headers to send) when over the limit. */
  consume(teamId: string, kind: EndpointKind): Promise<RateDecision>;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly windowMs = 60_000;

  constructor(
    private readonly clock: Clock,
    private readonly limits: Record<EndpointKind, number>,
  ) {}

  async consume(teamId: string, kind: EndpointKind): Promise<RateDecision> {
    const now = this.clock.now();
    const start = now - (now % this.windowMs);
    const key = `${teamId}\u0000${kind}`;
    let window = this.windows.get(key);
    if (!window || window.start !== start) {
      window = { start, count: 0 };
      this.windows.set(key, window);
      if (this.windows.size > 50_000) this.prune(start);
    }
    window.count++;
    const limit = this.limits[kind];
    const resetAt = Math.ceil((start + this.windowMs) / 1000);
    const remaining = Math.max(0, limit - window.count);
    if (window.count > limit) {
      const retryAfter = Math.max(1, resetAt - Math.floor(now / 1000));
      throw new RateLimitedError(
        `Rate limit exceeded. Consumed (req/min): ${window.count}, Remaining (req/min): 0. Upgrade your plan at ` +
          `your operator's discretion or retry after ${retryAfter}s, resets at ${new Date(resetAt * 1000).toISOString()}`,
        retryAfter,
        { limit, remaining: 0, resetAt },
      );
    }
    return { limit, remaining, resetAt };
  }

  private prune(currentStart: number) {
    for (const [key, window] of this.windows) if (window.start !== currentStart) this.windows.delete(key);
  }
}

/** Reads `scrape=100,crawl=15` style overrides. */
export function parseRateLimits(spec: string): Record<EndpointKind, number> {
  const limits = { ...defaultRateLimits };
  for (const part of spec
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)) {
    const [name, value] = part.split('=');
    if (name && name in limits && value && /^\d+$/.test(value)) limits[name as EndpointKind] = Number(value);
  }
  return limits;
}

import { NotAvailableError, TargetError } from '../errors.js';
import type { ProxyKind } from '../options/scrape-options.js';

/**
 * The operator's proxy pools and which one a scrape goes through.
 *
 *   proxy: basic            -> the basic pool (a direct connection when it is empty)
 *   proxy: enhanced|stealth -> the enhanced pool (refused when none is configured)
 *   proxy: auto             -> basic; after 401/403/429 or a detected bot-protection page, the
 *                              whole scrape again through the enhanced pool (+4 credits when used)
 *
 * Each pool is a list of proxy URLs (`http://user:pass@host:port`) used in turn. Configured by
 * QUARRY_PROXY_BASIC / QUARRY_PROXY_ENHANCED (and Firecrawl's PROXY_SERVER for basic).
 */
export type ProxyTier = 'basic' | 'enhanced';

export interface ProxyPoolConfig {
  basic: readonly string[];
  enhanced: readonly string[];
}

export class ProxyPools {
  private readonly turns: Record<ProxyTier, number> = { basic: 0, enhanced: 0 };

  constructor(private readonly pools: ProxyPoolConfig = { basic: [], enhanced: [] }) {}

  has(tier: ProxyTier): boolean {
    return this.pools[tier].length > 0;
  }

  /** The next proxy of the pool, in turn; undefined for an empty pool (a direct connection). */
  next(tier: ProxyTier): string | undefined {
    const pool = this.pools[tier];
    if (pool.length === 0) return undefined;
    const url = pool[this.turns[tier] % pool.length];
    this.turns[tier]++;
    return url;
  }

  /** The tiers a scrape with this `proxy` option tries, in order. */
  plan(kind: ProxyKind): ProxyTier[] {
    if (kind === 'basic') return ['basic'];
    if (kind === 'auto') return this.has('enhanced') ? ['basic', 'enhanced'] : ['basic'];
    if (!this.has('enhanced')) {
      throw new NotAvailableError(
        `\`proxy: ${kind}\` needs an enhanced proxy pool, and this server has none: set QUARRY_PROXY_ENHANCED to a comma-separated list of proxy URLs, or use proxy basic or auto`,
      );
    }
    return ['enhanced'];
  }
}

/** Whether `auto` should try the next tier after this outcome of the current one. */
export function isRefusedThroughProxy(outcome: { status: number } | unknown): boolean {
  if (outcome instanceof TargetError) return outcome.kind === 'blocked';
  const status = (outcome as { status?: unknown }).status;
  return status === 401 || status === 403 || status === 429;
}

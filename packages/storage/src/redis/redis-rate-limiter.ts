import type { Redis } from 'ioredis';
import { RateLimitedError, systemClock, type Clock } from '@quarry/core';

export interface RateWindowDecision {
  limit: number;
  remaining: number;
  /** Epoch seconds when the window resets. */
  resetAt: number;
}

/**
 * Requests per team and endpoint kind in a fixed 60-second window, counted in Redis so that every
 * API process shares the count (the distributed twin of the server's MemoryRateLimiter, with the
 * same decisions and error). One INCR and one PEXPIRE per request, in one round trip; the counter
 * expires with its window. While Redis is unreachable it fails open (counts nothing, refuses
 * nothing): status reads and scrapes go on during a Redis outage. Before the connection is first
 * ready (a process that just started) the count waits in the client's queue instead, so the first
 * requests of a new API process are counted too.
 */
export class RedisRateLimiter<Kind extends string> {
  private readonly windowMs = 60_000;
  /** Whether the connection has been ready once: only a connection lost since is an outage. */
  private hasConnected: boolean;

  constructor(
    private readonly redis: Redis,
    private readonly limits: Record<Kind, number>,
    private readonly prefix: string,
    private readonly clock: Clock = systemClock,
  ) {
    this.hasConnected = redis.status === 'ready';
    if (!this.hasConnected) redis.once('ready', () => (this.hasConnected = true));
  }

  async consume(teamId: string, kind: Kind): Promise<RateWindowDecision> {
    const now = this.clock.now();
    const start = now - (now % this.windowMs);
    const key = `${this.prefix}:rate:${start}:${kind}:${teamId}`;
    const limit = this.limits[kind];
    const resetAt = Math.ceil((start + this.windowMs) / 1000);
    // Fails open: while Redis is unreachable, requests are not counted rather than refused.
    if (this.redis.status !== 'ready' && this.hasConnected) return { limit, remaining: limit, resetAt };
    const results = await this.redis
      .multi()
      .incr(key)
      .pexpire(key, this.windowMs * 2)
      .exec()
      .catch(() => null);
    if (!results) return { limit, remaining: limit, resetAt };
    const count = Number(results[0]?.[1] ?? 0);
    if (count > limit) {
      const retryAfter = Math.max(1, resetAt - Math.floor(now / 1000));
      throw new RateLimitedError(
        `Rate limit exceeded. Consumed (req/min): ${count}, Remaining (req/min): 0. Upgrade your plan at ` +
          `your operator's discretion or retry after ${retryAfter}s, resets at ${new Date(resetAt * 1000).toISOString()}`,
        retryAfter,
        { limit, remaining: 0, resetAt },
      );
    }
    return { limit, remaining: Math.max(0, limit - count), resetAt };
  }
}

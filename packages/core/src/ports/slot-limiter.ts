/**
 * The SlotLimiter port: concurrency limits that every worker process respects together. JobRunner
 * claims a slot under the page's crawl or batch (maxConcurrency, and the crawl delay as a cooldown
 * after each page) and under its team (QUARRY_TEAM_CONCURRENCY) before it runs the page.
 *
 * A slot is held until released or until its time to live ends, so a process that dies frees its
 * slots after the lease and never leaks capacity.
 *
 * Implementations: `MemorySlotLimiter` (core: one process), `RedisSlotLimiter` (storage: shared by
 * every process of the distributed mode). Both pass `describeSlotLimiter`.
 */
export interface SlotClaim {
  /** What is limited, e.g. `team:acme` or `job:42`. */
  key: string;
  /** Holders of `key` at once at most. */
  limit: number;
}

/** Either the token that releases the slots, or how long to wait before asking again (ms; 0: unknown). */
export type SlotDecision = { token: string } | { retryInMs: number };

export interface SlotLimiter {
  /** One slot under every claim at once, or none; the slots expire after `ttlMs`. */
  acquire(claims: SlotClaim[], ttlMs: number): Promise<SlotDecision>;
  /** Frees the token's slots; with a cooldown, `key` takes no new holder for `ms`. Idempotent. */
  release(token: string, cooldown?: { key: string; ms: number }): Promise<void>;
}

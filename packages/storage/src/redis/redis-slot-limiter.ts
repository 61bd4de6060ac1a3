import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { systemClock, type Clock, type SlotClaim, type SlotDecision, type SlotLimiter } from '@quarry/core';
import { RedisScript } from './redis-script.js';

/**
 * KEYS: per claim, its holders zset then its cooldown key. ARGV: now, until, token, ttl, then the limits.
 * Takes one slot under every claim, or none: {1, 0}, or {0, ms to wait} when one is full or cooling.
 */
const acquireScript = (claims: number) =>
  new RedisScript(
    `
    local now = tonumber(ARGV[1])
    for index = 1, #KEYS / 2 do
      local holders, cooldown = KEYS[index * 2 - 1], KEYS[index * 2]
      redis.call('ZREMRANGEBYSCORE', holders, '-inf', now)
      local closedUntil = tonumber(redis.call('GET', cooldown) or '0')
      if closedUntil > now then return {0, closedUntil - now} end
      if redis.call('ZCARD', holders) >= tonumber(ARGV[4 + index]) then return {0, 0} end
    end
    for index = 1, #KEYS / 2 do
      redis.call('ZADD', KEYS[index * 2 - 1], ARGV[2], ARGV[3])
      redis.call('PEXPIRE', KEYS[index * 2 - 1], ARGV[4])
    end
    return {1, 0}
    `,
    claims * 2,
  );

/** KEYS: per claim, holders then cooldown. ARGV: token, the claim to cool down (1-based, 0: none), until, ms. */
const releaseScript = (claims: number) =>
  new RedisScript(
    `
    for index = 1, #KEYS / 2 do
      redis.call('ZREM', KEYS[index * 2 - 1], ARGV[1])
      if index == tonumber(ARGV[2]) and tonumber(ARGV[4]) > 0 then redis.call('SET', KEYS[index * 2], ARGV[3], 'PX', ARGV[4]) end
    end
    return 1
    `,
    claims * 2,
  );

/**
 * Concurrency limits shared by every worker process: per team, per crawl (maxConcurrency, and the
 * crawl delay as a cooldown after each page) and per host. A slot is held until released or until
 * its time to live ends (a worker that died frees its slots after its lease), so a crash never
 * leaks capacity. One script call to acquire all the claims of a page atomically, one to release.
 * The distributed composition gives it to JobRunner (the SlotLimiter port).
 */
export class RedisSlotLimiter implements SlotLimiter {
  private readonly scripts = new Map<number, { acquire: RedisScript; release: RedisScript }>();
  private readonly held = new Map<string, string[]>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly clock: Clock = systemClock,
  ) {}

  async acquire(claims: SlotClaim[], ttlMs: number): Promise<SlotDecision> {
    const token = randomBytes(12).toString('base64url');
    if (claims.length === 0) return { token };
    const now = this.clock.now();
    const keys = this.keysOf(claims.map((claim) => claim.key));
    const [taken, wait] = await this.scriptsFor(claims.length).acquire.run<[number, number]>(this.redis, keys, [
      now,
      now + ttlMs,
      token,
      ttlMs,
      ...claims.map((claim) => claim.limit),
    ]);
    if (taken !== 1) return { retryInMs: wait };
    this.held.set(
      token,
      claims.map((claim) => claim.key),
    );
    return { token };
  }

  /** Frees the token's slots; with a cooldown, `key` takes no new holder before `ms` have passed. Idempotent. */
  async release(token: string, cooldown?: { key: string; ms: number }): Promise<void> {
    const keys = this.held.get(token);
    if (!keys) return;
    this.held.delete(token);
    const cooled = cooldown ? keys.indexOf(cooldown.key) + 1 : 0;
    const ms = Math.max(0, Math.round(cooldown?.ms ?? 0));
    await this.scriptsFor(keys.length).release.run(this.redis, this.keysOf(keys), [token, cooled, this.clock.now() + ms, ms]);
  }

  private keysOf(names: string[]): string[] {
    return names.flatMap((name) => [`${this.prefix}:slots:${name}`, `${this.prefix}:cooldown:${name}`]);
  }

  private scriptsFor(claims: number) {
    let scripts = this.scripts.get(claims);
    if (!scripts) {
      scripts = { acquire: acquireScript(claims), release: releaseScript(claims) };
      this.scripts.set(claims, scripts);
    }
    return scripts;
  }
}

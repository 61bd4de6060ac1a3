import type { Redis } from 'ioredis';
import { describeSlotLimiter, ManualClock } from '@quarry/core/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRedis, RedisRateLimiter, RedisSlotLimiter } from '../src/distributed.js';
import { deletePrefix, isRedisAvailable, testRedisUrl, uniquePrefix } from './bullmq-test-redis.js';

// Limits shared in Redis by every process: each limiter object stands for one process.
const available = await isRedisAvailable();

{
  let suiteRedis: Redis | undefined;
  describeSlotLimiter(
    'RedisSlotLimiter (two processes sharing Redis)',
    async (clock) => {
      suiteRedis ??= createRedis(testRedisUrl, { name: 'quarry-test-slots' });
      const prefix = uniquePrefix();
      return [new RedisSlotLimiter(suiteRedis, prefix, clock), new RedisSlotLimiter(suiteRedis, prefix, clock)];
    },
    { skip: !available },
  );
  afterAll(async () => {
    await suiteRedis?.quit();
  });
}

describe.runIf(available)('limits shared in Redis', () => {
  let redis: Redis;
  let prefix: string;
  let clock: ManualClock;

  beforeAll(async () => {
    redis = createRedis(testRedisUrl, { name: 'quarry-test' });
    await redis.ping(); // the rate limiter fails open until the connection is ready
  });
  beforeEach(async () => {
    if (prefix) await deletePrefix(redis, prefix);
    prefix = uniquePrefix();
    clock = new ManualClock();
  });
  afterAll(async () => {
    await deletePrefix(redis, prefix);
    await redis?.quit();
  });

  it('counts the first requests of a process whose connection is not ready yet', async () => {
    const fresh = createRedis(testRedisUrl, { name: 'quarry-test-fresh' });
    try {
      expect(fresh.status).not.toBe('ready');
      const limiter = new RedisRateLimiter(fresh, { scrape: 1 }, prefix, clock);
      expect(await limiter.consume('acme', 'scrape')).toMatchObject({ limit: 1, remaining: 0 });
      await expect(limiter.consume('acme', 'scrape')).rejects.toMatchObject({ code: 'rate_limited' });
    } finally {
      await fresh.quit();
    }
  });

  it('counts requests per team and kind in one window for every API process', async () => {
    const limits = { scrape: 3, crawl: 1 };
    const [first, second] = [new RedisRateLimiter(redis, limits, prefix, clock), new RedisRateLimiter(redis, limits, prefix, clock)];
    expect(await first.consume('acme', 'scrape')).toMatchObject({ limit: 3, remaining: 2 });
    expect(await second.consume('acme', 'scrape')).toMatchObject({ remaining: 1 });
    await first.consume('acme', 'scrape');
    await expect(second.consume('acme', 'scrape')).rejects.toMatchObject({ code: 'rate_limited', details: { limit: 3, remaining: 0 } });
    expect(await second.consume('other', 'scrape')).toMatchObject({ remaining: 2 });
    clock.advance(60_000);
    expect(await second.consume('acme', 'scrape')).toMatchObject({ remaining: 2 });
  });
});

import type { Redis } from 'ioredis';
import { ManualClock } from '@quarry/core/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRedis, RedisRateLimiter, RedisSlotLimiter } from '../src/index.js';
import { deletePrefix, isRedisAvailable, testRedisUrl, uniquePrefix } from './bullmq-test-redis.js';

// Limits shared in Redis by every process: each limiter object stands for one process.
const available = await isRedisAvailable();

describe.runIf(available)('limits shared in Redis', () => {
  let redis: Redis;
  let prefix: string;
  let clock: ManualClock;

  beforeAll(() => {
    redis = createRedis(testRedisUrl, { name: 'quarry-test' });
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

  it('holds a team and a crawl limit across processes, frees slots on release or after their time to live', async () => {
    const [first, second] = [new RedisSlotLimiter(redis, prefix, clock), new RedisSlotLimiter(redis, prefix, clock)];
    const claims = [{ key: 'team:acme', limit: 2 }, { key: 'job:1', limit: 5 }];
    const a = await first.acquire(claims, 10_000);
    const b = await second.acquire(claims, 10_000);
    expect('token' in a && 'token' in b).toBe(true);
    expect(await second.acquire(claims, 10_000)).toEqual({ retryInMs: 0 });
    expect(await second.acquire([{ key: 'team:other', limit: 2 }], 10_000)).toHaveProperty('token');
    await first.release((a as { token: string }).token);
    expect(await second.acquire(claims, 10_000)).toHaveProperty('token');
    // The holder of `b` dies: its slot frees itself when its time to live ends.
    clock.advance(10_000);
    expect(await first.acquire([{ key: 'team:acme', limit: 1 }], 10_000)).toHaveProperty('token');
  });

  it('keeps a crawl closed for its delay after each page', async () => {
    const limiter = new RedisSlotLimiter(redis, prefix, clock);
    const claim = [{ key: 'job:slow', limit: 1 }];
    const page = (await limiter.acquire(claim, 60_000)) as { token: string };
    await limiter.release(page.token, 2_000);
    expect(await limiter.acquire(claim, 60_000)).toEqual({ retryInMs: 2_000 });
    clock.advance(2_000);
    expect(await limiter.acquire(claim, 60_000)).toHaveProperty('token');
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

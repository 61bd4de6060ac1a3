import { describeQueue } from '@quarry/core/testing';
import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import type { Redis } from 'ioredis';
import { BullmqQueue, createRedis, defaultBullmqQueueOptions } from '../src/distributed.js';
import { deletePrefix, isRedisAvailable, testRedisUrl, uniquePrefix } from './bullmq-test-redis.js';

// The Queue conformance suite against real Redis: a fresh key prefix (so an empty queue) per test.
const available = await isRedisAvailable();

describe.runIf(available)('BullMQ queue', () => {
  let redis: Redis;
  const open: Array<{ queue: BullmqQueue; prefix: string }> = [];

  beforeAll(() => {
    redis = createRedis(testRedisUrl, { name: 'quarry-test' });
  });
  afterEach(async () => {
    for (const { queue, prefix } of open.splice(0)) {
      await queue.close();
      await deletePrefix(redis, prefix);
    }
  });
  afterAll(async () => {
    await redis?.quit();
  });

  describeQueue('BullmqQueue', (clock) => {
    const prefix = uniquePrefix();
    const queue = new BullmqQueue(redis, clock, { ...defaultBullmqQueueOptions, prefix });
    open.push({ queue, prefix });
    return queue;
  });
});

import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { ManualClock, queueMessage } from '@quarry/core/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BullmqQueue, createRedis, defaultBullmqQueueOptions } from '../src/distributed.js';
import { deletePrefix, isRedisAvailable, testRedisUrl, uniquePrefix } from './bullmq-test-redis.js';

// Faults between processes sharing one queue: each BullmqQueue object stands for one process.
const available = await isRedisAvailable();

describe.runIf(available)('BullmqQueue across processes', () => {
  let redis: Redis;
  let prefix: string;
  let clock: ManualClock;
  const queues: BullmqQueue[] = [];
  const process = () => {
    const queue = new BullmqQueue(redis, clock, { ...defaultBullmqQueueOptions, prefix, orphanCheckMs: 10_000 });
    queues.push(queue);
    return queue;
  };

  beforeAll(() => {
    redis = createRedis(testRedisUrl, { name: 'quarry-test' });
  });
  beforeEach(async () => {
    for (const queue of queues.splice(0)) await queue.close();
    if (prefix) await deletePrefix(redis, prefix);
    prefix = uniquePrefix();
    clock = new ManualClock();
  });
  afterAll(async () => {
    for (const queue of queues.splice(0)) await queue.close();
    await deletePrefix(redis, prefix);
    await redis?.quit();
  });

  it('hands the message of a process that stopped answering to another after the lease, and ignores the first one’s ack', async () => {
    const first = process();
    const second = process();
    await first.enqueue([queueMessage('a')]);
    const [held] = await first.lease(1, 5_000);
    expect(await second.lease(1, 5_000)).toEqual([]);
    clock.advance(5_000);
    const [taken] = await second.lease(1, 5_000);
    expect(taken).toMatchObject({ key: 'a', attempts: 1 });
    await first.ack(held!);
    expect(await first.depth()).toEqual({ waiting: 0, active: 1 });
    await second.ack(taken!);
    expect(await first.depth()).toEqual({ waiting: 0, active: 0 });
  });

  it('gives back a message a process took but died before leasing (found twice by the orphan check)', async () => {
    const queue = process();
    await queue.enqueue([queueMessage('a'), queueMessage('b')]);
    // A process that moved one message to BullMQ's active list and died before recording its lease.
    const dying = new Worker(defaultBullmqQueueOptions.name, null, {
      connection: redis,
      prefix,
      autorun: false,
      skipStalledCheck: true,
      skipLockRenewal: true,
    });
    expect(await dying.getNextJob('0', { block: false })).toBeDefined();
    await dying.close();
    const hour = 3_600_000;
    expect(await queue.lease(5, hour)).toHaveLength(1);
    clock.advance(10_000); // first sighting
    expect(await queue.lease(5, hour)).toEqual([]);
    clock.advance(10_000); // second sighting: given back
    const again = await queue.lease(5, hour);
    expect(again).toHaveLength(1);
    expect(again[0]?.attempts).toBe(1);
  });

  it('gives an orphan back within two lease lengths when leases are shorter than the orphan check', async () => {
    const queue = process(); // orphanCheckMs 10 s, leases of 2 s
    await queue.enqueue([queueMessage('a'), queueMessage('b')]);
    const dying = new Worker(defaultBullmqQueueOptions.name, null, {
      connection: redis,
      prefix,
      autorun: false,
      skipStalledCheck: true,
      skipLockRenewal: true,
    });
    expect(await dying.getNextJob('0', { block: false })).toBeDefined();
    await dying.close();
    const [held] = await queue.lease(5, 2_000);
    await queue.ack(held!);
    clock.advance(2_000); // first sighting
    expect(await queue.lease(5, 2_000)).toEqual([]);
    clock.advance(2_000); // second sighting, a lease length later: given back
    expect(await queue.lease(5, 2_000)).toHaveLength(1);
  });

  it('tells when Redis lost its data, once', async () => {
    const queue = process();
    expect(await queue.isIntact()).toBe(false); // never marked: a fresh Redis looks like a lost one
    expect(await queue.isIntact()).toBe(true);
    await deletePrefix(redis, prefix);
    expect(await queue.isIntact()).toBe(false);
    expect(await queue.isIntact()).toBe(true);
  });
});

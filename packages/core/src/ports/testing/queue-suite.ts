/**
 * Conformance suite for the Queue port. Every queue runs it once:
 *
 * ```ts
 * describeQueue('SqliteQueue', (clock) => new SqliteQueue(openSqlite(file), clock));
 * ```
 *
 * `make` is called before each test with a fresh ManualClock and must return an empty queue that
 * reads time only from that clock (leases, delays and `waitForWork` timeouts), so the suite moves
 * time instead of waiting.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { LeasedMessage, Queue, QueueMessage } from '../queue.js';
import { ManualClock } from './manual-clock.js';

export function queueMessage(key: string, overrides: Partial<QueueMessage> = {}): QueueMessage {
  return { id: `job-1:${key}`, jobId: 'job-1', key, url: `https://example.com/${key}`, discoveryDepth: 1, ...overrides };
}

const keysOf = (messages: LeasedMessage[]) => messages.map((message) => message.key);

/** Settles `promise` by moving the clock in steps, failing after `limitMs` of fake time. */
async function advanceUntilSettled(clock: ManualClock, promise: Promise<void>, stepMs: number, limitMs: number): Promise<number> {
  let settled = false;
  void promise.then(() => (settled = true));
  const start = clock.now();
  for (let moved = 0; moved <= limitMs; moved += stepMs) {
    await new Promise((resolve) => setImmediate(resolve));
    if (settled) return clock.now() - start;
    clock.advance(stepMs);
  }
  await new Promise((resolve) => setImmediate(resolve));
  if (!settled) throw new Error(`waitForWork did not resolve within ${limitMs} ms of clock time`);
  return clock.now() - start;
}

/** Whether `promise` settles without the clock moving (a few turns of the event loop). */
async function settlesAtOnce(promise: Promise<void>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  for (let turn = 0; turn < 20 && !settled; turn++) await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

export function describeQueue(name: string, make: (clock: ManualClock) => Queue | Promise<Queue>): void {
  describe(`Queue conformance: ${name}`, () => {
    let clock: ManualClock;
    let queue: Queue;

    beforeEach(async () => {
      clock = new ManualClock();
      queue = await make(clock);
    });

    it('leases messages first in, first out, with their fields, attempts 0 and a lease token', async () => {
      await queue.enqueue([queueMessage('a'), queueMessage('b', { discoveryDepth: 3 }), queueMessage('c')]);
      const leased = await queue.lease(10, 1_000);
      expect(keysOf(leased)).toEqual(['a', 'b', 'c']);
      expect(leased[1]).toMatchObject({ ...queueMessage('b', { discoveryDepth: 3 }), attempts: 0 });
      expect(typeof leased[0]?.leaseToken).toBe('string');
      expect(new Set(leased.map((message) => message.leaseToken)).size).toBe(3);
    });

    it('leases at most `max`, and answers [] when nothing is ready', async () => {
      expect(await queue.lease(5, 1_000)).toEqual([]);
      await queue.enqueue(['a', 'b', 'c'].map((key) => queueMessage(key)));
      expect(keysOf(await queue.lease(2, 1_000))).toEqual(['a', 'b']);
      expect(keysOf(await queue.lease(2, 1_000))).toEqual(['c']);
      expect(await queue.lease(2, 1_000)).toEqual([]);
    });

    it('runs lower priorities first, and keeps order within a priority', async () => {
      await queue.enqueue([
        queueMessage('late', { priority: 20 }),
        queueMessage('page-1', { priority: 10 }),
        queueMessage('kickoff', { priority: 0 }),
        queueMessage('page-2', { priority: 10 }),
      ]);
      expect(keysOf(await queue.lease(10, 1_000))).toEqual(['kickoff', 'page-1', 'page-2', 'late']);
    });

    it('keeps one message per id', async () => {
      await queue.enqueue([queueMessage('a'), queueMessage('a')]);
      await queue.enqueue([queueMessage('a', { url: 'https://example.com/other' })]);
      const [first, ...rest] = await queue.lease(10, 1_000);
      expect(rest).toEqual([]);
      expect(first?.url).toBe('https://example.com/a');
      await queue.enqueue([queueMessage('a')]); // while leased
      expect(await queue.lease(10, 1_000)).toEqual([]);
      expect(await queue.depth()).toEqual({ waiting: 0, active: 1 });
    });

    it('does not lease a leased message again before its lease expires', async () => {
      await queue.enqueue([queueMessage('a')]);
      await queue.lease(1, 1_000);
      clock.advance(999);
      expect(await queue.lease(1, 1_000)).toEqual([]);
    });

    it('delivers a message again when its lease expires (a worker died), with attempts + 1', async () => {
      await queue.enqueue([queueMessage('a'), queueMessage('b')]);
      const [first] = await queue.lease(1, 1_000);
      clock.advance(1_000);
      const again = await queue.lease(5, 1_000);
      expect(keysOf(again).sort()).toEqual(['a', 'b']);
      const second = again.find((message) => message.key === 'a')!;
      expect(second.attempts).toBe(1);
      expect(second.leaseToken).not.toBe(first?.leaseToken);
      clock.advance(1_000);
      const third = (await queue.lease(5, 1_000)).find((message) => message.key === 'a');
      expect(third?.attempts).toBe(2);
    });

    it('ignores an ack or release with the token of an expired lease that was leased again', async () => {
      await queue.enqueue([queueMessage('a')]);
      const [stale] = await queue.lease(1, 1_000);
      clock.advance(1_000);
      const [current] = await queue.lease(1, 1_000);
      await queue.ack(stale!);
      await queue.release(stale!, 0);
      expect(await queue.depth()).toEqual({ waiting: 0, active: 1 });
      expect(await queue.lease(1, 1_000)).toEqual([]);
      await queue.ack(current!);
      expect(await queue.depth()).toEqual({ waiting: 0, active: 0 });
    });

    it('removes an acked message for good, and acks idempotently', async () => {
      await queue.enqueue([queueMessage('a'), queueMessage('b')]);
      const [a] = await queue.lease(1, 1_000);
      await queue.ack(a!);
      await queue.ack(a!);
      clock.advance(10_000);
      expect(keysOf(await queue.lease(10, 1_000))).toEqual(['b']);
      expect(await queue.depth()).toEqual({ waiting: 0, active: 1 });
    });

    it('releases a message to be ready after a delay, without counting an attempt', async () => {
      await queue.enqueue([queueMessage('a')]);
      const [leased] = await queue.lease(1, 60_000);
      await queue.release(leased!, 500);
      expect(await queue.lease(1, 60_000)).toEqual([]);
      expect(await queue.depth()).toEqual({ waiting: 1, active: 0 });
      clock.advance(499);
      expect(await queue.lease(1, 60_000)).toEqual([]);
      clock.advance(1);
      const [again] = await queue.lease(1, 60_000);
      expect(again).toMatchObject({ key: 'a', attempts: 0 });
      await queue.release(again!, 0);
      expect(await queue.lease(1, 60_000)).toMatchObject([{ key: 'a', attempts: 0 }]);
    });

    it('holds a scheduled message (notBefore) until its time, and removes it with its job', async () => {
      const at = clock.now() + 5_000;
      await queue.enqueue([queueMessage('later', { notBefore: at }), queueMessage('other', { id: 'job-2:later', jobId: 'job-2', notBefore: at })]);
      expect(await queue.lease(10, 60_000)).toEqual([]);
      await queue.enqueue([queueMessage('later', { notBefore: at })]);
      await queue.removeJob('job-2');
      clock.advance(4_999);
      expect(await queue.lease(10, 60_000)).toEqual([]);
      clock.advance(1);
      expect(keysOf(await queue.lease(10, 60_000))).toEqual(['later']);
      clock.advance(10_000);
      expect(await queue.lease(10, 60_000)).toEqual([]);
    });

    it('removes every message of a job, ready, delayed or leased, and only that job', async () => {
      await queue.enqueue([queueMessage('a'), queueMessage('b'), queueMessage('c'), queueMessage('x', { id: 'job-2:x', jobId: 'job-2' })]);
      const [a, b] = await queue.lease(2, 1_000);
      await queue.release(b!, 5_000);
      await queue.removeJob('job-1');
      expect(await queue.depth()).toEqual({ waiting: 1, active: 0 });
      await queue.ack(a!);
      clock.advance(10_000);
      const rest = await queue.lease(10, 1_000);
      expect(keysOf(rest)).toEqual(['x']);
      await queue.removeJob('nope');
      expect(await queue.depth()).toEqual({ waiting: 0, active: 1 });
    });

    it('counts waiting and active messages', async () => {
      expect(await queue.depth()).toEqual({ waiting: 0, active: 0 });
      await queue.enqueue(['a', 'b', 'c'].map((key) => queueMessage(key)));
      await queue.lease(2, 1_000);
      expect(await queue.depth()).toEqual({ waiting: 1, active: 2 });
      clock.advance(1_000);
      expect(await queue.depth()).toEqual({ waiting: 3, active: 0 });
    });

    it('hands each message to one of many concurrent leasers', async () => {
      await queue.enqueue(Array.from({ length: 50 }, (_, index) => queueMessage(`m${index}`)));
      const batches = await Promise.all(Array.from({ length: 8 }, () => queue.lease(10, 1_000)));
      const keys = batches.flatMap(keysOf);
      expect(keys).toHaveLength(50);
      expect(new Set(keys).size).toBe(50);
    });

    describe('waitForWork', () => {
      it('resolves at once when a message is ready', async () => {
        await queue.enqueue([queueMessage('a')]);
        expect(await settlesAtOnce(queue.waitForWork(60_000))).toBe(true);
      });

      it('resolves when a message is enqueued while waiting', async () => {
        const waiting = queue.waitForWork(3_600_000);
        expect(await settlesAtOnce(waiting)).toBe(false);
        await queue.enqueue([queueMessage('a')]);
        // At once in one process; a queue shared between processes may take a short poll.
        expect(await advanceUntilSettled(clock, waiting, 100, 1_000)).toBeLessThanOrEqual(1_000);
        expect(await queue.lease(1, 1_000)).toHaveLength(1);
      });

      it('resolves after the timeout at the latest', async () => {
        const elapsed = await advanceUntilSettled(clock, queue.waitForWork(5_000), 250, 60_000);
        expect(elapsed).toBeLessThanOrEqual(5_000);
      });

      it('resolves when a delayed message becomes ready', async () => {
        await queue.enqueue([queueMessage('a')]);
        const [leased] = await queue.lease(1, 60_000);
        await queue.release(leased!, 2_000);
        const elapsed = await advanceUntilSettled(clock, queue.waitForWork(3_600_000), 100, 3_600_000);
        expect(elapsed).toBeLessThanOrEqual(2_000);
        clock.advance(2_000);
        expect(await queue.lease(1, 1_000)).toHaveLength(1);
      });

      it('resolves when a scheduled message becomes due', async () => {
        await queue.enqueue([queueMessage('later', { notBefore: clock.now() + 300 })]);
        expect(await queue.lease(1, 1_000)).toEqual([]);
        const waited = await advanceUntilSettled(clock, queue.waitForWork(3_600_000), 100, 3_600_000);
        // Woken by the message's time, not the hour's timeout (a shared queue may take a few polls).
        expect(waited).toBeLessThan(60_000);
        clock.advance(300);
        expect(keysOf(await queue.lease(1, 1_000))).toEqual(['later']);
      });

      it('resolves when its signal aborts', async () => {
        const controller = new AbortController();
        const waiting = queue.waitForWork(3_600_000, controller.signal);
        controller.abort();
        expect(await settlesAtOnce(waiting)).toBe(true);
        expect(await settlesAtOnce(queue.waitForWork(3_600_000, controller.signal))).toBe(true);
      });
    });
  });
}

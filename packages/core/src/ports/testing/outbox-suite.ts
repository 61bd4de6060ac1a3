/**
 * Conformance suite for the WebhookOutbox port. Every outbox runs it once:
 *
 * ```ts
 * describeWebhookOutbox('SqliteWebhookOutbox', (clock) => new SqliteWebhookOutbox(openSqlite(file), clock));
 * ```
 *
 * `make` is called before each test with a fresh ManualClock and must return an empty outbox that
 * reads time only from that clock.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { OutboxEntry, OutboxEvent, WebhookOutbox } from '../webhook-outbox.js';
import { ManualClock } from './manual-clock.js';

export function outboxEvent(id: string, createdAt: number, overrides: Partial<OutboxEvent> = {}): OutboxEvent {
  return {
    id,
    jobId: 'job-1',
    teamId: 'team-a',
    url: 'https://hooks.example/quarry',
    headers: { 'content-type': 'application/json', 'x-signature': `sig-${id}` },
    body: JSON.stringify({ success: true, type: 'crawl.page', id: 'job-1', data: [{ markdown: `# ${id} “ü”` }] }),
    createdAt,
    ...overrides,
  };
}

const idsOf = (entries: OutboxEntry[]) => entries.map((entry) => entry.id);

export function describeWebhookOutbox(name: string, make: (clock: ManualClock) => WebhookOutbox | Promise<WebhookOutbox>): void {
  describe(`WebhookOutbox conformance: ${name}`, () => {
    let clock: ManualClock;
    let outbox: WebhookOutbox;
    let now: number;

    beforeEach(async () => {
      clock = new ManualClock();
      now = clock.now();
      outbox = await make(clock);
    });

    it('keeps added events as pending entries, once per id', async () => {
      await outbox.add([outboxEvent('e1', now), outboxEvent('e2', now)]);
      await outbox.add([outboxEvent('e1', now, { body: '{"changed":true}' })]);
      expect(await outbox.list()).toEqual([
        { ...outboxEvent('e1', now), state: 'pending', attempts: 0, nextAttemptAt: now },
        { ...outboxEvent('e2', now), state: 'pending', attempts: 0, nextAttemptAt: now },
      ]);
    });

    it('leases due events oldest first, at most `max`, each once until its lease expires', async () => {
      await outbox.add([outboxEvent('late', now + 10), outboxEvent('early', now - 10), outboxEvent('mid', now)]);
      clock.advance(10);
      const first = await outbox.lease(2, 30_000);
      expect(idsOf(first)).toEqual(['early', 'mid']);
      expect(first[0]).toMatchObject({ ...outboxEvent('early', now - 10), state: 'pending', attempts: 0 });
      expect(idsOf(await outbox.lease(10, 30_000))).toEqual(['late']);
      expect(await outbox.lease(10, 30_000)).toEqual([]);
      clock.advance(30_000);
      expect(idsOf(await outbox.lease(10, 30_000))).toEqual(['early', 'mid', 'late']);
    });

    it('does not lease an event before it is due', async () => {
      await outbox.add([outboxEvent('future', now + 5_000)]);
      expect(await outbox.lease(10, 30_000)).toEqual([]);
      clock.advance(5_000);
      expect(idsOf(await outbox.lease(10, 30_000))).toEqual(['future']);
    });

    it('never leases a delivered event again', async () => {
      await outbox.add([outboxEvent('e1', now), outboxEvent('e2', now)]);
      await outbox.lease(10, 1_000);
      clock.advance(5);
      await outbox.markDelivered('e1');
      await outbox.markDelivered('e1');
      clock.advance(1_000);
      expect(idsOf(await outbox.lease(10, 1_000))).toEqual(['e2']);
      expect(await outbox.list({ state: 'delivered' })).toEqual([
        { ...outboxEvent('e1', now), state: 'delivered', attempts: 0, nextAttemptAt: now, finishedAt: now + 5 },
      ]);
    });

    it('reschedules a failed attempt for later, with its error', async () => {
      await outbox.add([outboxEvent('e1', now)]);
      await outbox.lease(1, 60_000);
      await outbox.reschedule('e1', 1, now + 2_000, 'HTTP 503');
      expect(await outbox.list()).toMatchObject([{ id: 'e1', state: 'pending', attempts: 1, nextAttemptAt: now + 2_000, lastError: 'HTTP 503' }]);
      clock.advance(1_999);
      expect(await outbox.lease(1, 60_000)).toEqual([]);
      clock.advance(1);
      expect(await outbox.lease(1, 60_000)).toMatchObject([{ id: 'e1', attempts: 1, lastError: 'HTTP 503' }]);
    });

    it('gives up on an event marked failed', async () => {
      await outbox.add([outboxEvent('e1', now)]);
      await outbox.lease(1, 1_000);
      await outbox.reschedule('e1', 3, now, 'timeout');
      await outbox.markFailed('e1', 'gave up after 3 attempts: timeout');
      clock.advance(10_000);
      expect(await outbox.lease(10, 1_000)).toEqual([]);
      expect(await outbox.list({ state: 'failed' })).toMatchObject([
        { id: 'e1', state: 'failed', attempts: 3, lastError: 'gave up after 3 attempts: timeout', finishedAt: now },
      ]);
    });

    it('lists by job and state', async () => {
      await outbox.add([outboxEvent('a1', now), outboxEvent('b1', now, { jobId: 'job-2' }), outboxEvent('a2', now + 1)]);
      await outbox.markDelivered('a1');
      expect(idsOf(await outbox.list({ jobId: 'job-1' }))).toEqual(['a1', 'a2']);
      expect(idsOf(await outbox.list({ jobId: 'job-1', state: 'pending' }))).toEqual(['a2']);
      expect(idsOf(await outbox.list({ state: 'pending' }))).toEqual(['b1', 'a2']);
    });

    it('prunes finished entries older than a time, and keeps pending ones', async () => {
      await outbox.add([outboxEvent('old', now), outboxEvent('failed', now), outboxEvent('pending', now), outboxEvent('recent', now)]);
      await outbox.markDelivered('old');
      await outbox.markFailed('failed', 'no');
      clock.advance(60_000);
      await outbox.markDelivered('recent');
      expect(await outbox.prune(now + 1)).toBe(2);
      expect(idsOf(await outbox.list())).toEqual(['pending', 'recent']);
    });

    it('holds a last event while another event of its job is pending, leased or not', async () => {
      await outbox.add([outboxEvent('p1', now), outboxEvent('p2', now), outboxEvent('p3', now + 2), outboxEvent('done', now + 1, { phase: 'last' })]);
      expect((await outbox.list()).map((entry) => [entry.id, entry.phase])).toEqual([
        ['p1', undefined],
        ['p2', undefined],
        ['done', 'last'],
        ['p3', undefined],
      ]);
      clock.advance(2);
      expect(idsOf(await outbox.lease(2, 30_000))).toEqual(['p1', 'p2']);
      // p3 is due and not leased: the last event is still held, whatever the room left.
      expect(idsOf(await outbox.lease(10, 30_000))).toEqual(['p3']);
      await outbox.markDelivered('p1');
      await outbox.markDelivered('p3');
      expect(await outbox.lease(10, 30_000)).toEqual([]);
      await outbox.markFailed('p2', 'gave up');
      expect(await outbox.lease(10, 30_000)).toMatchObject([{ id: 'done', phase: 'last' }]);
      expect(await outbox.lease(10, 30_000)).toEqual([]);
    });

    it('leases a last event at once when its job has nothing else pending', async () => {
      await outbox.add([outboxEvent('p1', now), outboxEvent('other-page', now, { jobId: 'job-2' }), outboxEvent('done', now + 1, { phase: 'last' })]);
      await outbox.markDelivered('p1');
      clock.advance(1);
      // job-2's pending page does not hold job-1's last event.
      expect(idsOf(await outbox.lease(10, 30_000))).toEqual(['other-page', 'done']);
    });

    it('holds a last event while a page event of its job waits for a retry', async () => {
      await outbox.add([outboxEvent('p1', now), outboxEvent('done', now, { phase: 'last' })]);
      expect(idsOf(await outbox.lease(10, 30_000))).toEqual(['p1']);
      await outbox.reschedule('p1', 1, now + 2_000, 'HTTP 503');
      expect(await outbox.lease(10, 30_000)).toEqual([]);
      clock.advance(2_000);
      expect(idsOf(await outbox.lease(10, 30_000))).toEqual(['p1']);
      await outbox.markDelivered('p1');
      expect(idsOf(await outbox.lease(10, 30_000))).toEqual(['done']);
    });

    it('adds nothing of a job after its last event', async () => {
      await outbox.add([outboxEvent('p1', now), outboxEvent('done', now, { phase: 'last' })]);
      await outbox.markDelivered('p1');
      await outbox.markDelivered('done');
      // A page finished while its job was being cancelled: stored, but never announced after the end.
      await outbox.add([outboxEvent('late-page', now + 1), outboxEvent('other-job', now + 1, { jobId: 'job-2' })]);
      expect(idsOf(await outbox.list())).toEqual(['p1', 'done', 'other-job']);
      clock.advance(1);
      expect(idsOf(await outbox.lease(10, 30_000))).toEqual(['other-job']);
    });

    it('holds a job’s pages while its first event is leased, and releases them once it is delivered', async () => {
      await outbox.add([
        outboxEvent('started', now, { phase: 'first' }),
        outboxEvent('p1', now),
        outboxEvent('p2', now + 1),
        outboxEvent('done', now + 1, { phase: 'last' }),
        outboxEvent('other-page', now + 1, { jobId: 'job-2' }),
      ]);
      expect(await outbox.list({ jobId: 'job-1' })).toMatchObject([
        { id: 'started', phase: 'first' },
        { id: 'p1' },
        { id: 'p2' },
        { id: 'done', phase: 'last' },
      ]);
      expect((await outbox.list()).find((entry) => entry.id === 'p1')).not.toHaveProperty('phase');
      clock.advance(1);
      // Another job's page is not held by job-1's started event.
      expect(idsOf(await outbox.lease(10, 30_000))).toEqual(['started', 'other-page']);
      expect(await outbox.lease(10, 30_000)).toEqual([]);
      await outbox.markDelivered('started');
      // The pages go out together; the last event still waits for them.
      expect(idsOf(await outbox.lease(10, 30_000))).toEqual(['p1', 'p2']);
      await outbox.markDelivered('p1');
      await outbox.markDelivered('p2');
      expect(idsOf(await outbox.lease(10, 30_000))).toEqual(['done']);
    });

    it('holds a job’s pages while its first event waits for a retry, and releases them once it is given up', async () => {
      await outbox.add([outboxEvent('started', now, { phase: 'first' }), outboxEvent('p1', now), outboxEvent('done', now, { phase: 'last' })]);
      expect(idsOf(await outbox.lease(10, 30_000))).toEqual(['started']);
      await outbox.reschedule('started', 1, now + 2_000, 'HTTP 503');
      // Nothing of the job is due before its started event: the pages and the last event wait.
      expect(await outbox.lease(10, 30_000)).toEqual([]);
      clock.advance(2_000);
      expect(idsOf(await outbox.lease(10, 30_000))).toEqual(['started']);
      await outbox.markFailed('started', 'gave up');
      expect(idsOf(await outbox.lease(10, 30_000))).toEqual(['p1']);
      await outbox.markDelivered('p1');
      expect(idsOf(await outbox.lease(10, 30_000))).toEqual(['done']);
    });

    it('leases a job’s pages at once when it has no first event pending', async () => {
      // A receiver that asked for pages only gets no started event: its pages are not held.
      await outbox.add([outboxEvent('p1', now), outboxEvent('p2', now), outboxEvent('started-2', now, { jobId: 'job-2', phase: 'first' })]);
      expect(idsOf(await outbox.lease(10, 30_000))).toEqual(['p1', 'p2', 'started-2']);
    });

    it('holds a last event while its job’s first event is pending, even with no pages', async () => {
      await outbox.add([outboxEvent('started', now, { phase: 'first' }), outboxEvent('done', now, { phase: 'last' })]);
      expect(idsOf(await outbox.lease(10, 30_000))).toEqual(['started']);
      expect(await outbox.lease(10, 30_000)).toEqual([]);
      await outbox.markDelivered('started');
      expect(idsOf(await outbox.lease(10, 30_000))).toEqual(['done']);
    });

    it('hands each due event to one of many concurrent leasers', async () => {
      await outbox.add(Array.from({ length: 30 }, (_, index) => outboxEvent(`e${index}`, now + index)));
      clock.advance(100);
      const leased = (await Promise.all(Array.from({ length: 6 }, () => outbox.lease(8, 1_000)))).flat();
      expect(leased).toHaveLength(30);
      expect(new Set(idsOf(leased)).size).toBe(30);
    });
  });
}

import { describe, expect, it } from 'vitest';
import { MemoryJobStore } from '../memory/memory-job-store.js';
import { MemoryMonitorStore } from '../memory/memory-monitor-store.js';
import { MemoryQueue } from '../memory/memory-queue.js';
import type { Clock } from '../ports/clock.js';
import type { MonitorRecord } from '../ports/monitor-store.js';
import { MonitorScheduler } from './monitor-scheduler.js';

const start = Date.UTC(2026, 0, 5, 10, 0, 0);

function setup() {
  let now = start;
  const clock: Clock = { now: () => now, sleep: async () => undefined };
  let next = 0;
  const ids = { next: () => `id-${++next}` };
  const jobs = new MemoryJobStore();
  const queue = new MemoryQueue(clock, ids);
  const monitors = new MemoryMonitorStore();
  const scheduler = () => new MonitorScheduler({ jobs, queue, monitors, clock, ids });
  const monitor: MonitorRecord = {
    id: 'm1',
    teamId: 'team',
    name: 'm',
    status: 'active',
    schedule: { cron: '*/10 * * * * *', timezone: 'UTC' },
    targets: [{ id: 't1', type: 'scrape', urls: ['https://example.com/'] }],
    webhook: null,
    notification: null,
    retentionDays: 1,
    goal: null,
    judgeEnabled: false,
    createdAt: start,
    updatedAt: start,
    nextCheckId: null,
    nextRunAt: null,
    lastRunAt: null,
    lastCheckSummary: null,
  };
  return { jobs, queue, monitors, scheduler, monitor, advance: (ms: number) => (now += ms) };
}

describe('MonitorScheduler', () => {
  it('queues the next tick as a delayed message that is not delivered early', async () => {
    const { queue, monitors, scheduler, monitor, advance } = setup();
    await monitors.createMonitor(monitor);
    const saved = await scheduler().scheduleNext(monitor, null, start);
    expect(saved?.nextRunAt).toBe(start + 10_000);
    expect(await queue.lease(10, 1_000)).toEqual([]);
    advance(10_000);
    const [message] = await queue.lease(10, 1_000);
    expect(message).toMatchObject({ jobId: saved!.nextCheckId, key: '~step:1' });
  });

  it('moves a tick once when two processes race for it', async () => {
    const { jobs, monitors, scheduler, monitor } = setup();
    await monitors.createMonitor(monitor);
    const first = (await scheduler().scheduleNext(monitor, null, start))!;
    const [a, b] = await Promise.all([
      scheduler().scheduleNext(first, first.nextCheckId, start + 10_000),
      scheduler().scheduleNext(first, first.nextCheckId, start + 10_000),
    ]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    const winner = (a ?? b)!;
    expect(winner.nextRunAt).toBe(start + 20_000);
    expect((await monitors.getMonitor('m1'))!.nextCheckId).toBe(winner.nextCheckId);
    // The loser's check was cancelled before it had a message; only one scheduled check remains.
    const checks = await monitors.listChecks('m1', 10, 0);
    expect(checks).toHaveLength(2);
    const statuses = await Promise.all(checks.map(async (id) => (await jobs.getJob(id))!.status));
    expect(statuses).toEqual(['scraping', 'scraping']);
  });

  it('pausing cancels the queued tick; the reconciler restores a broken chain', async () => {
    const { jobs, queue, monitors, scheduler, monitor, advance } = setup();
    await monitors.createMonitor(monitor);
    const first = (await scheduler().scheduleNext(monitor, null, start))!;
    const paused = await scheduler().replaceSchedule((current) => ({ ...current, status: 'paused' }), 'm1');
    expect(paused).toMatchObject({ status: 'paused', nextCheckId: null });
    expect((await jobs.getJob(first.nextCheckId!))!.status).toBe('cancelled');
    advance(60_000);
    expect(await queue.lease(10, 1_000)).toEqual([]);
    expect(await scheduler().reconcile()).toBe(0);

    await monitors.saveMonitor({ ...paused!, status: 'active' });
    expect(await scheduler().reconcile()).toBe(1);
    expect(await scheduler().reconcile()).toBe(0);
  });
});

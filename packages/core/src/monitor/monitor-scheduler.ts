import { agentStepMessage } from '../agent-jobs/agent-job.js';
import type { Clock, Ids } from '../ports/clock.js';
import type { Frontier, JobOf, JobRecord, JobRecords } from '../ports/job-store.js';
import type { MonitorRecord, MonitorStore } from '../ports/monitor-store.js';
import type { Queue } from '../ports/queue.js';
import { monitorCheckRequestOf, type MonitorCheckRequest } from './monitor-check-request.js';
import { nextTick } from './monitor-schedule.js';

/**
 * A monitor's schedule lives in the job queue: its next tick is a `monitor_check` job created
 * ahead of time whose first step message is delayed until the tick (`notBefore`). When that check
 * runs, it first schedules the tick after it, so the chain goes on with no timer in any process;
 * it survives restarts because the job and its message are durable (and `reconcileAgentJobs`
 * re-offers the message of a job whose message was lost).
 *
 * Exactly one check per tick, however many workers: the message is leased by one worker, and the
 * move from one tick to the next is a compare-and-set on the monitor's `nextCheckId`. A check
 * created by a process that lost that race is cancelled before its message exists.
 */
export interface MonitorSchedulerDeps {
  jobs: JobRecords & Frontier;
  queue: Queue;
  monitors: MonitorStore;
  clock: Clock;
  ids: Ids;
}

const dayMs = 24 * 60 * 60 * 1000;

export class MonitorScheduler {
  constructor(private readonly deps: MonitorSchedulerDeps) {}

  /** A manual check, queued now (not part of the schedule). */
  async runNow(monitor: MonitorRecord): Promise<JobRecord> {
    const job = await this.createCheck(monitor, 'manual', this.deps.clock.now());
    await this.deps.monitors.addCheck(monitor.id, job.id, job.createdAt);
    await this.deps.queue.enqueue([agentStepMessage(job, 1)]);
    return job;
  }

  /**
   * Schedules the first tick after `after` (or after now, when later) in place of the check
   * `expected` (null: none). Returns the saved monitor, or undefined when another process changed
   * the schedule first (then nothing was scheduled by this call).
   */
  async scheduleNext(monitor: MonitorRecord, expected: string | null, after: number, previousCheckId?: string): Promise<MonitorRecord | undefined> {
    if (monitor.status !== 'active') return undefined;
    const runAt = nextTick(monitor.schedule, Math.max(after, this.deps.clock.now()));
    const job = await this.createCheck(monitor, 'scheduled', runAt, previousCheckId);
    const saved: MonitorRecord = { ...monitor, nextCheckId: job.id, nextRunAt: runAt };
    if (!(await this.deps.monitors.saveMonitor(saved, expected))) {
      await this.deps.jobs.updateJob(job.id, { status: 'cancelled' }, 'scraping');
      return undefined;
    }
    await this.deps.monitors.addCheck(monitor.id, job.id, job.createdAt);
    await this.deps.queue.enqueue([agentStepMessage(job, 1)]);
    return saved;
  }

  /** Cancels the monitor's queued tick (if any). The caller saves the monitor with `nextCheckId: null`. */
  async cancelNext(monitor: MonitorRecord): Promise<void> {
    if (!monitor.nextCheckId) return;
    if (await this.deps.jobs.updateJob(monitor.nextCheckId, { status: 'cancelled' }, 'scraping')) {
      await this.deps.jobs.cancelItems(monitor.nextCheckId);
      await this.deps.queue.removeJob(monitor.nextCheckId);
    }
  }

  /**
   * Saves a monitor changed by its owner (schedule, targets, status): the queued tick is cancelled
   * and, when the monitor is active, the next one scheduled with the new settings. Retries when a
   * running check moved the schedule meanwhile.
   */
  async replaceSchedule(change: (current: MonitorRecord) => MonitorRecord, id: string): Promise<MonitorRecord | undefined> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const current = await this.deps.monitors.getMonitor(id);
      if (!current) return undefined;
      const next = { ...change(current), nextCheckId: null, nextRunAt: null };
      if (!(await this.deps.monitors.saveMonitor(next, current.nextCheckId))) continue;
      await this.cancelNext(current);
      if (next.status !== 'active') return next;
      const scheduled = await this.scheduleNext(next, null, this.deps.clock.now());
      if (scheduled) return scheduled;
    }
    throw new Error(`Monitor ${id} kept changing while it was being saved`);
  }

  /** Active monitors whose chain of ticks broke (its queued check is gone or over) get a new tick. */
  async reconcile(): Promise<number> {
    let fixed = 0;
    for (const monitor of await this.deps.monitors.listActive()) {
      const next = monitor.nextCheckId ? await this.deps.jobs.getJob(monitor.nextCheckId) : undefined;
      if (next?.status === 'scraping') continue;
      if (await this.scheduleNext(monitor, monitor.nextCheckId, this.deps.clock.now())) fixed++;
    }
    return fixed;
  }

  private async createCheck(
    monitor: MonitorRecord,
    trigger: MonitorCheckRequest['trigger'],
    runAt: number,
    previousCheckId?: string,
  ): Promise<JobOf<'monitor_check'>> {
    const now = this.deps.clock.now();
    const firstUrl = monitor.targets.map((target) => (target.type === 'crawl' ? String(target.url) : String((target.urls as string[])[0]))).find(Boolean) ?? '';
    const job: JobOf<'monitor_check'> = {
      id: this.deps.ids.next(),
      kind: 'monitor_check',
      teamId: monitor.teamId,
      status: 'scraping',
      url: firstUrl,
      request: monitorCheckRequestOf(monitor, trigger, runAt, previousCheckId),
      createdAt: now,
      expiresAt: Math.max(now, runAt) + monitor.retentionDays * dayMs,
      kickoffDone: true,
    };
    await this.deps.jobs.createJob(job);
    return job;
  }
}

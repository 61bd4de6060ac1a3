import {
  agentJobKinds,
  agentStepMessage,
  kickoffKey,
  messageFor,
  reconcileJobs,
  type AgentStates,
  type Frontier,
  type JobRecords,
  type JobRunner,
  type MonitorScheduler,
} from '@quarry/core';
import type { SharedQueue } from './backends.js';

/**
 * One pass of making a shared queue (Redis) agree with the job store (PostgreSQL), the source of
 * truth. Every process runs it, at most one per interval (`SharedQueue.runExclusively`): after
 * Redis lost its data every unfinished item is enqueued again; a job whose pending items lack
 * messages for two checks in a row gets them again; a job with nothing pending is completed (its
 * last worker died before settling it).
 */
export class Reconciler {
  /** Jobs whose pending items outnumbered their messages at the last pass. */
  private short = new Set<string>();

  constructor(
    private readonly jobs: JobRecords & Frontier & AgentStates,
    private readonly queue: SharedQueue,
    private readonly runner: JobRunner,
    private readonly monitors: MonitorScheduler,
  ) {}

  async run(): Promise<void> {
    if (!(await this.queue.isIntact())) {
      this.short.clear();
      await reconcileJobs(this.jobs, this.queue);
    }
    const short = new Set<string>();
    for (const kind of ['crawl', 'batch_scrape'] as const) {
      for (const job of await this.jobs.listActive(kind)) {
        const [progress, messages] = await Promise.all([this.jobs.progress(job.id), this.queue.countJobMessages(job.id)]);
        if (kind === 'crawl' && !job.kickoffDone) {
          if (messages === 0)
            await this.queue.enqueue([{ id: `${job.id}:${kickoffKey}`, jobId: job.id, key: kickoffKey, url: job.url, discoveryDepth: 0, priority: 0 }]);
        } else if (progress.pending === 0) {
          await this.runner.settle(job.id);
        } else if (messages < progress.pending) {
          // Items are enqueued just after they are stored: only a shortfall seen twice is a loss.
          if (this.short.has(job.id)) await this.requeue(job.id);
          else short.add(job.id);
        }
      }
    }
    // An agent job runs one step message at a time: none for two checks in a row means it was lost.
    for (const kind of agentJobKinds) {
      for (const job of await this.jobs.listActive(kind)) {
        if ((await this.queue.countJobMessages(job.id)) > 0) continue;
        if (!this.short.has(job.id)) {
          short.add(job.id);
          continue;
        }
        const saved = await this.jobs.getJobState(job.id);
        await this.queue.enqueue([agentStepMessage(job, (saved?.step ?? 0) + 1)]);
      }
    }
    this.short = short;
    // Active monitors whose chain of ticks broke (a process died between two links) get their next tick.
    await this.monitors.reconcile();
  }

  private async requeue(jobId: string) {
    const pending = await this.jobs.pendingItems(jobId);
    for (let index = 0; index < pending.length; index += 500) {
      await this.queue.enqueue(pending.slice(index, index + 500).map((entry) => messageFor(jobId, entry)));
    }
  }
}

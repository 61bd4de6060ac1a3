import { setMaxListeners } from 'node:events';
import { isAgentJob } from '../agent-jobs/agent-job.js';
import type { Clock } from '../ports/clock.js';
import { terminalJobStatuses, type Frontier, type JobRecord, type JobRecords, type PageResults } from '../ports/job-store.js';
import type { LeasedMessage, Queue } from '../ports/queue.js';
import type { SlotClaim, SlotLimiter } from '../ports/slot-limiter.js';
import { MemorySlotLimiter } from '../memory/memory-slot-limiter.js';
import type { JobEvent, JobEventSink } from './job-events.js';
import type { JobOutbox } from './webhook-payloads.js';
import type { PageWorker } from './page-worker.js';

/**
 * The worker loop: leases messages, runs them with bounded concurrency, and applies pacing
 * (per-job maxConcurrency and delay, per-team concurrency, per-host concurrency). A message that
 * must wait is released with a delay, not held. Job and team limits go through the SlotLimiter, so
 * they hold across every process that shares it (RedisSlotLimiter in the distributed mode); the
 * per-host limit is this process's politeness. After each message it checks whether the job is finished and moves it
 * to `completed` exactly once (compare-and-set on the status).
 *
 *   queue --lease--> pacing ok? --no--> release(delay)
 *                        |yes
 *                   PageWorker.handle --> ack --> job finished? --> completed + event
 *
 * (The embedded store acks in the transaction that stores the page: `JobStore.acksMessages`.)
 */
export interface JobRunnerOptions {
  /** Messages processed at once by this runner. */
  concurrency: number;
  /** Most requests to one host at once, across jobs. */
  perHostConcurrency: number;
  /** Lease of a message; a worker that dies returns its messages after this. */
  leaseMs: number;
  /** Most pages of one team at once, across its crawls and batches (undefined: no team limit). */
  teamConcurrency?: number;
  /**
   * Messages leased beyond the free slots, held by this runner until a slot frees (their lease
   * runs meanwhile; `stop` gives them back). One lease call then serves several pages: the embedded
   * SQLite queue's lease is a write on the server's main thread. Default 0: only the free slots, so
   * other processes sharing the queue get every message this one is not working.
   */
  leaseAhead?: number;
}

export const defaultRunnerOptions: JobRunnerOptions = { concurrency: 16, perHostConcurrency: 16, leaseMs: 120_000 };

/**
 * The reason the loop's wait is aborted with. `abort()` without one builds a DOMException, stack
 * trace included, at every call (also on an already aborted signal): once per finished page, ~0.5 %
 * of a CLI crawl's main-thread profile (benchmarks/crawl-real-site/README.md, fourth pass).
 */
const woken = new Error('woken for the next turn');

/** Jobs the runner keeps read (`readJob`); more at once than this and the cache starts again. */
const maxCachedJobs = 256;

export class JobRunner {
  private active = 0;
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly hostSlots = new Map<string, number>();
  private readonly slots: SlotLimiter;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly jobControllers = new Map<string, AbortController>();
  /**
   * The jobs this runner works on, read whole once (their request parsed and checked once): a page
   * then reads only the job's head (`jobHead`), so a cancel from another process is still seen.
   */
  private readonly jobCache = new Map<string, JobRecord>();
  /** Messages leased ahead (`leaseAhead`), oldest first. */
  private readonly ahead: LeasedMessage[] = [];
  /** Ends the loop's current wait; called once per finished page, so it must stay cheap (see `woken`). */
  private wakeLoop: (() => void) | undefined;
  /** The pending poll that bounds `nextWake`'s waits (one timer for many waits), aborted by `stop`. */
  private poll: AbortController | undefined;

  constructor(
    private readonly deps: {
      jobs: JobRecords & Frontier & PageResults;
      queue: Queue;
      worker: PageWorker;
      clock: Clock;
      events: JobEventSink;
      outbox?: JobOutbox;
      slots?: SlotLimiter;
    },
    private readonly options: JobRunnerOptions = defaultRunnerOptions,
  ) {
    this.slots = deps.slots ?? new MemorySlotLimiter(deps.clock);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops taking messages, aborts nothing in flight, and resolves when the in-flight ones finish. */
  async stop(): Promise<void> {
    this.running = false;
    this.wakeLoop?.();
    const poll = this.poll;
    this.poll = undefined;
    poll?.abort(woken);
    await this.loop;
    // Messages leased ahead go back to the queue now rather than when their lease ends.
    await Promise.allSettled(this.ahead.splice(0).map((message) => this.deps.queue.release(message, 0)));
    await Promise.allSettled([...this.inFlight]);
  }

  /** Aborts the in-flight pages of a job (cancellation). */
  abortJob(jobId: string): void {
    this.jobControllers.get(jobId)?.abort(new Error('Job cancelled'));
    this.jobControllers.delete(jobId);
    this.jobCache.delete(jobId);
  }

  /** Checks a job for completion (after kickoff or the last page). */
  async settle(jobId: string): Promise<void> {
    const job = await this.readJob(jobId);
    if (job?.status !== 'scraping') return;
    if (!job.kickoffDone) return; // a crawl's kickoff or a batch's items are still being stored
    if (isAgentJob(job)) return; // agent jobs finish with their last step

    const progress = await this.deps.jobs.progress(jobId);
    if (progress.pending > 0) return;
    if (await this.deps.worker.addFinalPages(job)) return;
    const refused = progress.completed === 0 ? await this.startPageFailure(job) : undefined;
    if (refused) {
      const event: JobEvent = { type: 'failed', job: { ...job, status: 'failed', error: refused }, error: refused };
      if (await this.deps.jobs.updateJob(jobId, { status: 'failed', error: refused }, 'scraping', this.deps.outbox?.(event))) {
        this.deps.worker.forget(jobId);
        this.jobControllers.delete(jobId);
        this.jobCache.delete(jobId);
        await this.deps.events(event);
      }
      return;
    }
    const event: JobEvent = { type: 'completed', job: { ...job, status: 'completed' } };
    if (await this.deps.jobs.updateJob(jobId, { status: 'completed' }, 'scraping', this.deps.outbox?.(event))) {
      this.deps.worker.forget(jobId);
      this.jobControllers.delete(jobId);
      this.jobCache.delete(jobId);
      await this.deps.events(event);
    }
  }

  /**
   * The job as stored now. With a store that reads heads, the job's request is read once per runner
   * and each later read takes only the head (status, kickoffDone, expiresAt, error: all `updateJob`
   * changes); a job leaves the cache when it is terminal or gone. Each read is a new object, the
   * request shared (nothing in the runner or the worker changes a job's request).
   */
  private async readJob(jobId: string): Promise<JobRecord | undefined> {
    const jobs = this.deps.jobs;
    const cached = this.jobCache.get(jobId);
    if (!jobs.jobHead || !cached) {
      const job = await jobs.getJob(jobId);
      if (jobs.jobHead && job && !terminalJobStatuses.has(job.status)) {
        if (this.jobCache.size >= maxCachedJobs) this.jobCache.clear();
        this.jobCache.set(jobId, job);
      }
      return job;
    }
    const head = await jobs.jobHead(jobId);
    if (!head || terminalJobStatuses.has(head.status)) this.jobCache.delete(jobId);
    if (!head) return undefined;
    const { error: _error, ...rest } = cached;
    return { ...rest, ...head } as JobRecord;
  }

  /**
   * Why a crawl that produced no page could not start: its start URL's own error (refused as a
   * private address, after a redirect too, a name that does not resolve, a closed port...), so the
   * crawl ends `failed` saying so instead of `completed` with nothing.
   */
  private async startPageFailure(job: JobRecord): Promise<string | undefined> {
    if (job.kind !== 'crawl') return undefined;
    const start = comparableUrl(job.url);
    const error = (await this.deps.jobs.listErrors(job.id)).find((record) => comparableUrl(record.url) === start);
    return error ? `The start URL ${job.url} could not be crawled: ${error.error}` : undefined;
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        await this.turn();
      } catch {
        // The queue or the store is unreachable (a database or Redis outage): wait and try again.
        // Leased messages stay leased and come back after their lease if this process dies meanwhile.
        await this.nextWake(1_000);
      }
    }
  }

  private async turn(): Promise<void> {
    const room = this.options.concurrency - this.active;
    if (room <= 0) {
      await this.nextWake(1_000);
      return;
    }
    const messages = this.ahead.length > 0 ? this.ahead.splice(0, room) : await this.lease(room);
    if (messages.length === 0) {
      // One signal per wait, aborted by a finished page or stop(): the wait ends with it, so no
      // listener outlives its turn.
      const controller = new AbortController();
      this.wakeLoop = () => controller.abort(woken);
      if (!this.running) return;
      await this.deps.queue.waitForWork(1_000, controller.signal);
      return;
    }
    for (const message of messages) await this.dispatch(message);
  }

  /** Leases the free slots' messages, and `leaseAhead` more kept for the next free slots. */
  private async lease(room: number): Promise<LeasedMessage[]> {
    const messages = await this.deps.queue.lease(room + (this.options.leaseAhead ?? 0), this.options.leaseMs);
    this.ahead.push(...messages.splice(room));
    return messages;
  }

  private async dispatch(message: LeasedMessage): Promise<void> {
    const job = await this.readJob(message.jobId);
    if (!job || terminalJobStatuses.has(job.status)) {
      await this.deps.queue.ack(message);
      return;
    }
    let pacing: { maxConcurrency: number | undefined; delaySeconds: number };
    try {
      pacing = await this.deps.worker.pacing(job);
    } catch (error) {
      await this.failJob(job, message, error);
      return;
    }
    const host = hostOf(message.url);
    const hostActive = this.hostSlots.get(host) ?? 0;
    if (hostActive >= this.options.perHostConcurrency) {
      await this.deps.queue.release(message, 25);
      return;
    }
    const jobKey = `job:${job.id}`;
    const claims: SlotClaim[] = [];
    if (pacing.maxConcurrency !== undefined) claims.push({ key: jobKey, limit: pacing.maxConcurrency });
    if (this.options.teamConcurrency !== undefined) claims.push({ key: `team:${job.teamId}`, limit: this.options.teamConcurrency });
    let token: string | undefined;
    if (claims.length > 0) {
      const decision = await this.slots.acquire(claims, this.options.leaseMs);
      if (!('token' in decision)) {
        await this.deps.queue.release(message, Math.max(25, decision.retryInMs));
        return;
      }
      token = decision.token;
    }
    this.hostSlots.set(host, hostActive + 1);
    this.active++;
    let controller = this.jobControllers.get(job.id);
    if (!controller) {
      controller = new AbortController();
      // Every page in flight listens on its job's signal: as many listeners as the concurrency.
      setMaxListeners(0, controller.signal);
      this.jobControllers.set(job.id, controller);
    }
    const task = this.execute(job, message, controller.signal).finally(() => {
      this.active--;
      if (token) {
        // The crawl delay counts from the end of this page: its slot stays closed that long.
        const cooldown = pacing.delaySeconds > 0 ? { key: jobKey, ms: pacing.delaySeconds * 1000 } : undefined;
        this.slots.release(token, cooldown).catch(() => undefined); // unreleased slots expire with the lease
      }
      const left = (this.hostSlots.get(host) ?? 1) - 1;
      if (left <= 0) this.hostSlots.delete(host);
      else this.hostSlots.set(host, left);
      this.inFlight.delete(task);
      this.wakeLoop?.();
    });
    this.inFlight.add(task);
  }

  private async execute(job: JobRecord, message: LeasedMessage, signal: AbortSignal): Promise<void> {
    let isAcked: boolean;
    try {
      isAcked = await this.deps.worker.handle(job, message, signal);
    } catch (error) {
      if (signal.aborted) return; // cancelled: the message goes with its job
      if (message.key.startsWith('~')) {
        await this.failJob(job, message, error);
        return;
      }
      // An unexpected error (store down, bug): leave the message leased so it is retried after its lease.
      return;
    }
    try {
      if (!isAcked) await this.deps.queue.ack(message); // the SQLite store acks with the page's result
      await this.settle(job.id);
    } catch {
      // Acked or settled later: an unacked message is redelivered (and skipped, its item is finished),
      // and the reconciler or the next page settles the job.
    }
  }

  private async failJob(job: JobRecord, message: LeasedMessage, error: unknown) {
    const reason = error instanceof Error ? error.message : String(error);
    await this.deps.queue.ack(message);
    const event: JobEvent = { type: 'failed', job: { ...job, status: 'failed', error: reason }, error: reason };
    if (await this.deps.jobs.updateJob(job.id, { status: 'failed', error: reason }, 'scraping', this.deps.outbox?.(event))) {
      this.jobCache.delete(job.id);
      await this.deps.jobs.cancelItems(job.id);
      await this.deps.queue.removeJob(job.id);
      await this.deps.events(event);
    }
  }

  /**
   * Waits for a finished page (`wakeLoop`) or the poll, whichever comes first. With every slot busy
   * the loop waits here once per finished page, so the wait is a bare promise: the poll that bounds
   * it is one timer shared by the waits that start before it fires (a wait may then end before
   * `timeoutMs`, which costs one more turn), not an AbortController, a timer and a listener made
   * and aborted per page (~8 us of main-thread CPU per page; benchmarks/crawl-real-site/README.md,
   * thirteenth pass).
   */
  private nextWake(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      this.wakeLoop = resolve;
      if (!this.running) return resolve(); // stop() has already woken the loop
      if (this.poll) return;
      const poll = new AbortController();
      this.poll = poll;
      const fired = () => {
        if (this.poll === poll) this.poll = undefined;
        this.wakeLoop?.();
      };
      this.deps.clock.sleep(timeoutMs, poll.signal).then(fired, fired);
    });
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/** A URL as the crawl rules keep it (the start URL is stored as given, its items parsed). */
function comparableUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.href;
  } catch {
    return url;
  }
}

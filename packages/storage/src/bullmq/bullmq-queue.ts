import { createHash, randomBytes } from 'node:crypto';
import { Job, Queue as BullQueue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { systemClock, type Clock, type LeasedMessage, type Queue, type QueueMessage } from '@quarry/core';
import { translateRedisError } from '../redis/redis-errors.js';
import { endLease, findUnaccounted, forgetJob, giveBack, recordLeases, takeDue } from './lease-scripts.js';
import { Wakeups } from '../wakeups.js';

export interface BullmqQueueOptions {
  /** Prefix of every Redis key (BullMQ's and Quarry's); `{quarry}` keeps them on one Redis Cluster slot. */
  prefix: string;
  /** BullMQ queue name. */
  name: string;
  /** How often `waitForWork` looks for work added by other processes (ms). */
  pollIntervalMs: number;
  /**
   * At most this long between checks of BullMQ's active list for messages no lease accounts for (a
   * process died between taking a message and recording its lease); one seen unaccounted for this
   * long is given back. Checks also run at least once per lease length, so an orphan waits about
   * as long as a lease of a killed worker would (1-2 leases), not a fixed minute.
   */
  orphanCheckMs: number;
}

export const defaultBullmqQueueOptions: BullmqQueueOptions = { prefix: 'quarry', name: 'pages', pollIntervalMs: 250, orphanCheckMs: 60_000 };

interface MessageData {
  message: QueueMessage;
}

const bullPriorityMax = 2_097_151;

/**
 * Queue on BullMQ (Redis), shared by every API and worker process: the distributed counterpart of
 * SqliteQueue. BullMQ keeps the messages, deduplicated by id (a BullMQ job id derived from the
 * message id), in priority then FIFO order, and moves each to its active list for exactly one
 * taker. Leases are Quarry's own, kept beside BullMQ by atomic Lua scripts (lease-scripts.ts) and
 * timed by the injected Clock, because the port's leases have a fixed length, releases with a
 * delay that do not count as attempts, and testable time, none of which BullMQ's self-renewing
 * locks give: BullMQ runs with lock token "0" (no BullMQ locks, no stalled checker).
 *
 * Delivery is at-least-once. A message whose lease ended (its worker died or hung) is moved back to
 * wait by the next `lease` call of any process, with one more attempt; a message a process took
 * but died before recording is found by the orphan check and given back. Ack and release match the
 * lease token, so a worker whose lease was taken over cannot ack or release the new one.
 *
 * If Redis loses its data (a restart without persistence), the messages are gone: the JobStore is
 * the source of truth and `reconcileJobs` enqueues every unfinished item again (see `isIntact`).
 */
export class BullmqQueue implements Queue {
  private readonly bull: BullQueue;
  private readonly taker: Worker;
  private readonly keys;
  private readonly wakeups: Wakeups;
  /** True after work was added through this object and no lease has since found the queue empty. */
  private mayHaveWork = false;
  private lastOrphanCheckAt: number;
  private suspects = new Map<string, number>();

  constructor(
    private readonly redis: Redis,
    private readonly clock: Clock = systemClock,
    private readonly options: BullmqQueueOptions = defaultBullmqQueueOptions,
  ) {
    this.wakeups = new Wakeups(clock);
    const connection = { connection: redis, prefix: options.prefix };
    this.bull = new BullQueue(options.name, { ...connection, streams: { events: { maxLen: 1_000 } } });
    this.taker = new Worker(options.name, null, { ...connection, autorun: false, skipStalledCheck: true, skipLockRenewal: true });
    // Connection errors surface in the calls that fail (translated to `unavailable`), not as events.
    this.bull.on('error', () => undefined);
    this.taker.on('error', () => undefined);
    const base = `${options.prefix}:${options.name}:quarry`;
    this.keys = {
      leased: `${base}:leased`,
      delayed: `${base}:delayed`,
      scheduled: `${base}:scheduled`,
      scheduledData: `${base}:scheduled-data`,
      tokens: `${base}:tokens`,
      attempts: `${base}:attempts`,
      marker: `${base}:intact`,
      job: (jobId: string) => `${base}:job:${jobId}`,
    };
    this.lastOrphanCheckAt = clock.now();
  }

  enqueue(messages: QueueMessage[]): Promise<void> {
    return guarded(() => this.enqueueNow(messages));
  }

  private async enqueueNow(messages: QueueMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const byJob = new Map<string, string[]>();
    for (const message of messages) byJob.set(message.jobId, [...(byJob.get(message.jobId) ?? []), bullId(message.id)]);
    const index = this.redis.pipeline();
    for (const [jobId, ids] of byJob) index.sadd(this.keys.job(jobId), ...ids);
    await index.exec();
    const now = this.clock.now();
    // A scheduled message (notBefore) waits in Quarry's own sorted set, timed by this queue's
    // clock, and becomes a BullMQ job when due (promoteScheduled).
    const scheduled = messages.filter((message) => message.notBefore !== undefined && message.notBefore > now);
    if (scheduled.length > 0) {
      const schedule = this.redis.pipeline();
      for (const message of scheduled) {
        schedule.zadd(this.keys.scheduled, 'NX', message.notBefore!, bullId(message.id));
        schedule.hsetnx(this.keys.scheduledData, bullId(message.id), JSON.stringify(message));
      }
      await schedule.exec();
    }
    const ready = messages.filter((message) => !scheduled.includes(message));
    if (ready.length === 0) return;
    await this.addToBull(ready);
  }

  private async addToBull(messages: QueueMessage[]): Promise<void> {
    await this.bull.addBulk(
      messages.map((message) => ({
        name: 'page',
        data: { message } satisfies MessageData,
        opts: {
          jobId: bullId(message.id),
          ...(message.priority ? { priority: Math.min(Math.max(1, message.priority), bullPriorityMax) } : {}),
          removeOnComplete: true,
          removeOnFail: true,
        },
      })),
    );
    this.signalWork();
  }

  lease(max: number, leaseMs: number): Promise<LeasedMessage[]> {
    return guarded(() => this.leaseNow(max, leaseMs));
  }

  private async leaseNow(max: number, leaseMs: number): Promise<LeasedMessage[]> {
    if (max <= 0) return [];
    await this.returnDue(Math.max(1, Math.min(this.options.orphanCheckMs, leaseMs)));
    const taken: Array<{ id: string; message: QueueMessage; token: string }> = [];
    while (taken.length < max) {
      const job = (await this.taker.getNextJob('0', { block: false })) as Job<MessageData> | undefined;
      if (!job?.id) break;
      taken.push({ id: job.id, message: job.data.message, token: `${job.id}.${randomBytes(9).toString('base64url')}` });
    }
    if (taken.length < max) this.mayHaveWork = false;
    if (taken.length === 0) return [];
    const attempts = await recordLeases.run<number[]>(
      this.redis,
      [this.keys.leased, this.keys.tokens, this.keys.attempts],
      [this.clock.now() + leaseMs, ...taken.flatMap((entry) => [entry.id, entry.token])],
    );
    return taken.map((entry, index) => ({ ...entry.message, attempts: attempts[index] ?? 0, leaseToken: entry.token }));
  }

  ack(message: LeasedMessage): Promise<void> {
    return guarded(() => this.ackNow(message));
  }

  private async ackNow(message: LeasedMessage): Promise<void> {
    const id = bullId(message.id);
    const ended = await endLease.run<number>(
      this.redis,
      [this.keys.leased, this.keys.tokens, this.keys.attempts, this.keys.job(message.jobId)],
      [id, message.leaseToken],
    );
    if (ended === 1) await this.bull.remove(id);
  }

  release(message: LeasedMessage, delayMs: number): Promise<void> {
    return guarded(() => this.releaseNow(message, delayMs));
  }

  private async releaseNow(message: LeasedMessage, delayMs: number): Promise<void> {
    const id = bullId(message.id);
    const hasDelay = delayMs > 0;
    const outcome = await giveBack.run<number>(
      this.redis,
      [this.keys.leased, this.keys.tokens, this.keys.delayed],
      [id, message.leaseToken, this.clock.now() + Math.max(0, delayMs), hasDelay ? '1' : '0'],
    );
    if (outcome === 1) await this.moveToWait([id]);
  }

  removeJob(jobId: string): Promise<void> {
    return guarded(() => this.removeJobNow(jobId));
  }

  private async removeJobNow(jobId: string): Promise<void> {
    const ids = await forgetJob.run<string[]>(
      this.redis,
      [this.keys.leased, this.keys.delayed, this.keys.tokens, this.keys.attempts, this.keys.job(jobId)],
      [],
    );
    for (let index = 0; index < ids.length; index += 100) await Promise.all(ids.slice(index, index + 100).map((id) => this.bull.remove(id)));
    if (ids.length > 0)
      await this.redis
        .pipeline()
        .zrem(this.keys.scheduled, ...ids)
        .hdel(this.keys.scheduledData, ...ids)
        .exec();
  }

  async waitForWork(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    let wakeAt = this.clock.now() + timeoutMs;
    while (!signal?.aborted && !this.mayHaveWork) {
      // Each look at Redis races the clock, so a deadline or a delay that ends is met on time.
      // Redis unreachable: look again after the poll interval.
      const readiness = await this.raceUntil(
        wakeAt,
        this.readiness().catch(() => ({ ready: false, nextAt: Number.POSITIVE_INFINITY })),
        signal,
      );
      if (readiness === undefined) return;
      if (readiness.ready) return;
      wakeAt = Math.min(wakeAt, readiness.nextAt);
      const now = this.clock.now();
      if (now >= wakeAt) return;
      if (await this.wakeups.sleep(Math.min(wakeAt - now, this.options.pollIntervalMs), signal)) return;
      if (this.clock.now() >= wakeAt) return;
    }
  }

  depth(): Promise<{ waiting: number; active: number }> {
    return guarded(() => this.depthNow());
  }

  private async depthNow(): Promise<{ waiting: number; active: number }> {
    const now = this.clock.now();
    const counts = await this.bull.getJobCounts('wait', 'prioritized');
    const results = await this.redis
      .pipeline()
      .zcount(this.keys.leased, '-inf', now)
      .zcount(this.keys.leased, `(${now}`, '+inf')
      .zcard(this.keys.delayed)
      .exec();
    const [expired, active, delayed] = (results ?? []).map(([, value]) => Number(value));
    const bullWaiting = (counts.wait ?? 0) + (counts.prioritized ?? 0);
    return { waiting: bullWaiting + (expired ?? 0) + (delayed ?? 0), active: active ?? 0 };
  }

  /**
   * Whether Redis still holds this queue's data: false the first time it is asked after Redis lost
   * it (restarted without persistence, flushed, failed over to an empty replica), true otherwise.
   * The caller then runs `reconcileJobs`. Marks the data on every call.
   */
  async isIntact(): Promise<boolean> {
    return guarded(async () => (await this.redis.set(this.keys.marker, String(this.clock.now()), 'NX')) === null);
  }

  /**
   * Messages of one Quarry job in the queue (waiting, delayed or leased), for the reconciler: fewer
   * than the job's pending items in the JobStore means some were lost (or are being enqueued now).
   */
  async countJobMessages(jobId: string): Promise<number> {
    return guarded(() => this.redis.scard(this.keys.job(jobId)));
  }

  /**
   * Runs `work` in at most one process per `periodMs` across all processes sharing this prefix
   * (a Redis key taken with NX and left to expire); returns whether this process ran it.
   */
  async runExclusively(name: string, periodMs: number, work: () => Promise<void>): Promise<boolean> {
    const taken = await this.redis.set(`${this.options.prefix}:${this.options.name}:quarry:turn:${name}`, String(this.clock.now()), 'PX', periodMs, 'NX');
    if (taken === null) return false;
    await work();
    return true;
  }

  /** Closes BullMQ's connections; the Redis connection given to the constructor stays open (its owner quits it). */
  async close(): Promise<void> {
    this.signalWork();
    await this.taker.close();
    await this.bull.close();
  }

  /**
   * Moves ended leases and ended delays back to wait, and every `orphanPeriodMs` gives back
   * orphans that stayed unaccounted for that long.
   */
  private async returnDue(orphanPeriodMs: number): Promise<void> {
    const now = this.clock.now();
    const due = await takeDue.run<string[]>(this.redis, [this.keys.leased, this.keys.delayed, this.keys.tokens, this.keys.attempts], [now, 1_000]);
    if (due.length > 0) await this.moveToWait(due);
    await this.promoteScheduled(now);
    if (now - this.lastOrphanCheckAt >= orphanPeriodMs) {
      this.lastOrphanCheckAt = now;
      await this.giveBackOrphans(now, orphanPeriodMs);
    }
  }

  /**
   * Scheduled messages that are due become BullMQ jobs. Of several processes promoting the same
   * message, the one whose ZREM removed it adds it (and BullMQ keeps one job per id anyway). A
   * process that dies in between loses the message; the reconciler offers it again.
   */
  private async promoteScheduled(now: number): Promise<void> {
    const due = await this.redis.zrangebyscore(this.keys.scheduled, '-inf', String(now), 'LIMIT', 0, 100);
    const messages: QueueMessage[] = [];
    for (const id of due) {
      if ((await this.redis.zrem(this.keys.scheduled, id)) !== 1) continue;
      const data = await this.redis.hget(this.keys.scheduledData, id);
      await this.redis.hdel(this.keys.scheduledData, id);
      if (data) messages.push(JSON.parse(data) as QueueMessage);
    }
    if (messages.length > 0) await this.addToBull(messages);
  }

  private async giveBackOrphans(now: number, periodMs: number): Promise<void> {
    const found = new Set(await findUnaccounted.run<string[]>(this.redis, [this.bull.toKey('active'), this.keys.leased, this.keys.delayed], []));
    const orphans = [...found].filter((id) => (this.suspects.get(id) ?? now) <= now - periodMs);
    this.suspects = new Map([...found].filter((id) => !orphans.includes(id)).map((id) => [id, this.suspects.get(id) ?? now]));
    if (orphans.length === 0) return;
    const counting = this.redis.pipeline();
    for (const id of orphans) counting.hincrby(this.keys.attempts, id, 1);
    await counting.exec();
    await this.moveToWait(orphans);
  }

  private async moveToWait(ids: string[]): Promise<void> {
    // Token "0": BullMQ checks no lock (this queue takes none). A message removed meanwhile answers -1.
    await Promise.all(ids.map((id) => new Job(this.bull, 'page', {}, {}, id).moveToWait('0')));
    this.signalWork();
  }

  /** Whether a message is ready now, and when the next delayed one or lease ends. */
  private async readiness(): Promise<{ ready: boolean; nextAt: number }> {
    const now = this.clock.now();
    const counts = await this.bull.getJobCounts('wait', 'prioritized');
    if ((counts.wait ?? 0) + (counts.prioritized ?? 0) > 0) return { ready: true, nextAt: now };
    const results = await this.redis
      .pipeline()
      .zrange(this.keys.leased, '0', '0', 'WITHSCORES')
      .zrange(this.keys.delayed, '0', '0', 'WITHSCORES')
      .zrange(this.keys.scheduled, '0', '0', 'WITHSCORES')
      .exec();
    const firsts = (results ?? []).map(([, value]) => Number((value as string[])[1] ?? Number.POSITIVE_INFINITY));
    const nextAt = Math.min(...firsts);
    return { ready: nextAt <= now, nextAt };
  }

  /** `work`'s result, or undefined when the clock reaches `wakeAt`, this queue is woken or the signal aborts first. */
  private async raceUntil<T>(wakeAt: number, work: Promise<T>, signal?: AbortSignal): Promise<T | undefined> {
    const settled = work.then((value) => ({ value }));
    settled.catch(() => undefined);
    const controller = new AbortController();
    const interrupted = this.wakeups.sleep(Math.max(0, wakeAt - this.clock.now()), signal, controller.signal).then(() => undefined);
    try {
      const winner = await Promise.race([settled, interrupted]);
      return winner?.value;
    } finally {
      controller.abort();
    }
  }

  private signalWork() {
    this.mayHaveWork = true;
    this.wakeups.wake();
  }
}

/** Runs a Redis operation, turning an unreachable Redis into an `unavailable` QuarryError (503). */
async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw translateRedisError(error);
  }
}

/** BullMQ job ids may not contain ':' nor be integers; message ids contain URLs, so they are hashed. */
function bullId(messageId: string): string {
  return `m${createHash('sha256').update(messageId).digest('base64url').slice(0, 32)}`;
}

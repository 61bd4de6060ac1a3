import { randomBytes } from 'node:crypto';
import { systemClock, type Clock, type LeasedMessage, type Queue, type QueueMessage } from '@quarry/core';
import type { SqliteDatabase } from './open-sqlite.js';
import { Wakeups } from './wakeups.js';

interface QueueRow {
  seq: number;
  id: string;
  job_id: string;
  key: string;
  url: string;
  discovery_depth: number;
  priority: number | null;
  attempts: number;
  lease_token: string;
}

export interface SqliteQueueOptions {
  /**
   * How often `waitForWork` looks at the table for work added by other processes (ms). Work added
   * through this queue object wakes its waiters at once.
   */
  pollIntervalMs: number;
}

export const defaultSqliteQueueOptions: SqliteQueueOptions = { pollIntervalMs: 250 };

/**
 * Queue on SQLite (table of migration 2): durable, shared by every process that opens the file.
 * A message is ready when its `ready_at` has passed and it is not leased, or its lease has expired;
 * so a message leased by a process that was killed comes back by itself once its lease runs out.
 * `lease` is one UPDATE ... RETURNING over the ready rows in (priority, seq) order, so two leasers
 * never get the same message. Ack and release match the lease token: a worker whose lease expired
 * and was taken over cannot ack or release the new lease.
 */
export class SqliteQueue implements Queue {
  private readonly statements;
  private readonly enqueueTransaction;
  private readonly wakeups: Wakeups;
  /** Lease tokens are this queue object's random prefix and a count: unique without 12 random bytes per lease (~8 % of `lease` in the server's profile). */
  private readonly tokenPrefix = randomBytes(12).toString('base64url');
  private leases = 0;

  constructor(
    db: SqliteDatabase,
    private readonly clock: Clock = systemClock,
    private readonly options: SqliteQueueOptions = defaultSqliteQueueOptions,
  ) {
    this.wakeups = new Wakeups(clock);
    const ready = '(ready_at <= @now AND (lease_until IS NULL OR lease_until <= @now))';
    this.statements = {
      insert: db.prepare<[string, string, string, string, number, number | null, number]>(
        `INSERT INTO queue (id, job_id, key, url, discovery_depth, priority, ready_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO NOTHING`,
      ),
      lease: db.prepare<{ now: number; until: number; token: string; max: number }, QueueRow>(
        `UPDATE queue SET lease_until = @until, lease_token = @token || '.' || seq, attempts = attempts + 1
         WHERE seq IN (SELECT seq FROM queue WHERE ${ready} ORDER BY coalesce(priority, 0), seq LIMIT @max)
         RETURNING seq, id, job_id, key, url, discovery_depth, priority, attempts, lease_token`,
      ),
      ack: db.prepare<[string, string]>('DELETE FROM queue WHERE id = ? AND lease_token = ?'),
      release: db.prepare<[number, string, string]>(
        'UPDATE queue SET ready_at = ?, lease_until = NULL, lease_token = NULL, attempts = max(attempts - 1, 0) WHERE id = ? AND lease_token = ?',
      ),
      removeJob: db.prepare<[string]>('DELETE FROM queue WHERE job_id = ?'),
      releaseAll: db.prepare<[]>('UPDATE queue SET lease_until = NULL, lease_token = NULL WHERE lease_until IS NOT NULL'),
      hasReady: db.prepare<{ now: number }, { found: number }>(`SELECT EXISTS (SELECT 1 FROM queue WHERE ${ready}) AS found`),
      nextReadyAt: db.prepare<[], { at: number | null }>('SELECT min(max(ready_at, coalesce(lease_until, 0))) AS at FROM queue'),
      depth: db.prepare<{ now: number }, { waiting: number; active: number }>(
        `SELECT count(*) FILTER (WHERE lease_until IS NULL OR lease_until <= @now) AS waiting,
                count(*) FILTER (WHERE lease_until > @now) AS active
         FROM queue`,
      ),
    };
    this.enqueueTransaction = db.transaction((messages: QueueMessage[], now: number) => {
      let added = 0;
      for (const message of messages) {
        added += this.statements.insert.run(
          message.id,
          message.jobId,
          message.key,
          message.url,
          message.discoveryDepth,
          message.priority ?? null,
          Math.max(now, message.notBefore ?? now),
        ).changes;
      }
      return added;
    });
  }

  /**
   * Returns every lease at once. Only for the embedded default at start, when this process is the
   * only user of the file: leases left by a previous run (killed mid-crawl) need not wait to expire.
   * Returns how many were released.
   */
  async releaseAllLeases(): Promise<number> {
    const released = this.statements.releaseAll.run().changes;
    if (released > 0) this.wakeups.wake();
    return released;
  }

  async enqueue(messages: QueueMessage[]): Promise<void> {
    if (messages.length === 0) return;
    if (this.enqueueTransaction.immediate(messages, this.clock.now()) > 0) this.wakeups.wake();
  }

  async lease(max: number, leaseMs: number): Promise<LeasedMessage[]> {
    if (max <= 0) return [];
    const now = this.clock.now();
    const token = `${this.tokenPrefix}${(++this.leases).toString(36)}`;
    const rows = this.statements.lease.all({ now, until: now + leaseMs, token, max });
    rows.sort((a, b) => (a.priority ?? 0) - (b.priority ?? 0) || a.seq - b.seq);
    return rows.map(toLeased);
  }

  async ack(message: LeasedMessage): Promise<void> {
    this.ackNow(message);
  }

  /**
   * `ack` as one statement, for a transaction of the caller's on the same connection
   * (`SqliteJobStore.finishItem` acks with the page's result).
   */
  ackNow(message: LeasedMessage): void {
    this.statements.ack.run(message.id, message.leaseToken);
  }

  async release(message: LeasedMessage, delayMs: number): Promise<void> {
    if (this.statements.release.run(this.clock.now() + Math.max(0, delayMs), message.id, message.leaseToken).changes > 0 && delayMs <= 0) this.wakeups.wake();
  }

  async removeJob(jobId: string): Promise<void> {
    this.statements.removeJob.run(jobId);
  }

  async waitForWork(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    const deadline = this.clock.now() + timeoutMs;
    while (!signal?.aborted) {
      const now = this.clock.now();
      if (this.statements.hasReady.get({ now })!.found === 1 || now >= deadline) return;
      const nextReadyAt = this.statements.nextReadyAt.get()!.at ?? Number.POSITIVE_INFINITY;
      const wait = Math.max(1, Math.min(deadline - now, nextReadyAt - now, this.options.pollIntervalMs));
      if (await this.wakeups.sleep(wait, signal)) return;
    }
  }

  async depth(): Promise<{ waiting: number; active: number }> {
    return this.statements.depth.get({ now: this.clock.now() })!;
  }
}

function toLeased(row: QueueRow): LeasedMessage {
  return {
    id: row.id,
    jobId: row.job_id,
    key: row.key,
    url: row.url,
    discoveryDepth: row.discovery_depth,
    ...(row.priority !== null ? { priority: row.priority } : {}),
    attempts: row.attempts - 1,
    leaseToken: row.lease_token,
  };
}

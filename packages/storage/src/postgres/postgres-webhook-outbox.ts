import { systemClock, type Clock, type OutboxEntry, type OutboxEvent, type OutboxState, type WebhookOutbox } from '@quarry/core';
import type { PostgresDatabase } from './postgres-database.js';
import { toEntry, type OutboxRow as SharedOutboxRow } from '../row-mappers.js';

interface OutboxRow extends SharedOutboxRow {
  seq: number;
}

const columns = 'seq, id, job_id, team_id, url, headers, body, created_at, state, attempts, next_attempt_at, last_error, finished_at, phase';

/**
 * WebhookOutbox on PostgreSQL. The job store writes rows in the transaction of each change (through
 * `quarry_add_outbox`); deliverers in any number of processes lease due rows with
 * `FOR UPDATE SKIP LOCKED`, so each row goes to one of them, and a row whose lease expired (its
 * deliverer died) is due again. An event is skipped while a pending event of its job has a lower
 * `phase`; the check reads committed rows without locking them, so an event leased by another
 * deliverer (still pending) holds the later phases too.
 */
export class PostgresWebhookOutbox implements WebhookOutbox {
  constructor(
    private readonly db: PostgresDatabase,
    private readonly clock: Clock = systemClock,
  ) {}

  async add(events: OutboxEvent[]): Promise<void> {
    if (events.length > 0) await this.db.execute('SELECT quarry_add_outbox($1)', [JSON.stringify(events)]);
  }

  async lease(max: number, leaseMs: number): Promise<OutboxEntry[]> {
    if (max <= 0) return [];
    const now = this.clock.now();
    const rows = await this.db.query<OutboxRow>(
      `UPDATE webhook_outbox SET lease_until = $2
       WHERE seq IN (
         SELECT seq FROM webhook_outbox AS event
         WHERE state = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
           AND (phase = 0 OR NOT EXISTS (
             SELECT 1 FROM webhook_outbox AS other WHERE other.job_id = event.job_id AND other.state = 'pending' AND other.phase < event.phase))
         ORDER BY created_at, seq LIMIT $3
         FOR UPDATE OF event SKIP LOCKED)
       RETURNING ${columns}`,
      [now, now + leaseMs, max],
    );
    rows.sort((a, b) => a.created_at - b.created_at || a.seq - b.seq);
    return rows.map(toEntry);
  }

  async markDelivered(id: string): Promise<void> {
    await this.finish(id, 'delivered', null);
  }

  async reschedule(id: string, attempt: number, nextAttemptAt: number, lastError: string): Promise<void> {
    await this.db.execute(
      "UPDATE webhook_outbox SET attempts = $1, next_attempt_at = $2, last_error = $3, lease_until = NULL WHERE id = $4 AND state = 'pending'",
      [attempt, nextAttemptAt, lastError, id],
    );
  }

  async markFailed(id: string, error: string): Promise<void> {
    await this.finish(id, 'failed', error);
  }

  async list(filter: { jobId?: string; state?: OutboxState } = {}): Promise<OutboxEntry[]> {
    const rows = await this.db.query<OutboxRow>(
      `SELECT ${columns} FROM webhook_outbox WHERE ($1::text IS NULL OR job_id = $1) AND ($2::text IS NULL OR state = $2) ORDER BY created_at, seq`,
      [filter.jobId ?? null, filter.state ?? null],
    );
    return rows.map(toEntry);
  }

  async prune(before: number): Promise<number> {
    return this.db.execute("DELETE FROM webhook_outbox WHERE state IN ('delivered', 'failed') AND finished_at < $1", [before]);
  }

  private async finish(id: string, state: OutboxState, error: string | null) {
    await this.db.execute(
      "UPDATE webhook_outbox SET state = $1, last_error = coalesce($2, last_error), finished_at = $3, lease_until = NULL WHERE id = $4 AND state = 'pending'",
      [state, error, this.clock.now(), id],
    );
  }
}

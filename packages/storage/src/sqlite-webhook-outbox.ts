import { systemClock, type Clock, type OutboxEntry, type OutboxEvent, type OutboxState, type WebhookOutbox } from '@quarry/core';
import type { SqliteDatabase } from './open-sqlite.js';
import { type InsertOutboxValues, insertOutboxSql, insertOutboxValues, toEntry, type OutboxRow } from './row-mappers.js';

const columns = 'id, job_id, team_id, url, headers, body, created_at, state, attempts, next_attempt_at, last_error, finished_at, phase';

/**
 * WebhookOutbox on SQLite (table of migrations 4 and 13). Events are due from their `createdAt`; a
 * lease sets `lease_until`, and an event whose lease expired (its deliverer died) is due again. An
 * event is skipped while a pending event of its job has a lower `phase`.
 */
export class SqliteWebhookOutbox implements WebhookOutbox {
  private readonly statements;
  private readonly addTransaction;

  constructor(
    db: SqliteDatabase,
    private readonly clock: Clock = systemClock,
  ) {
    this.statements = {
      insert: db.prepare<InsertOutboxValues>(insertOutboxSql),
      lease: db.prepare<{ now: number; until: number; max: number }, OutboxRow & { seq: number }>(
        `UPDATE webhook_outbox SET lease_until = @until
         WHERE seq IN (
           SELECT seq FROM webhook_outbox AS event
           WHERE state = 'pending' AND next_attempt_at <= @now AND (lease_until IS NULL OR lease_until <= @now)
             AND (phase = 0 OR NOT EXISTS (
               SELECT 1 FROM webhook_outbox AS other WHERE other.job_id = event.job_id AND other.state = 'pending' AND other.phase < event.phase))
           ORDER BY created_at, seq LIMIT @max)
         RETURNING seq, ${columns}`,
      ),
      finish: db.prepare<[OutboxState, string | null, number, string]>(
        "UPDATE webhook_outbox SET state = ?, last_error = coalesce(?, last_error), finished_at = ?, lease_until = NULL WHERE id = ? AND state = 'pending'",
      ),
      reschedule: db.prepare<[number, number, string, string]>(
        "UPDATE webhook_outbox SET attempts = ?, next_attempt_at = ?, last_error = ?, lease_until = NULL WHERE id = ? AND state = 'pending'",
      ),
      list: db.prepare<{ job: string | null; state: OutboxState | null }, OutboxRow>(
        `SELECT ${columns} FROM webhook_outbox WHERE (@job IS NULL OR job_id = @job) AND (@state IS NULL OR state = @state) ORDER BY created_at, seq`,
      ),
      prune: db.prepare<[number]>("DELETE FROM webhook_outbox WHERE state IN ('delivered', 'failed') AND finished_at < ?"),
    };
    this.addTransaction = db.transaction((events: OutboxEvent[]) => {
      for (const event of events) {
        this.statements.insert.run(...insertOutboxValues(event));
      }
    });
  }

  async add(events: OutboxEvent[]): Promise<void> {
    if (events.length > 0) this.addTransaction.immediate(events);
  }

  async lease(max: number, leaseMs: number): Promise<OutboxEntry[]> {
    if (max <= 0) return [];
    const now = this.clock.now();
    const rows = this.statements.lease.all({ now, until: now + leaseMs, max });
    rows.sort((a, b) => a.created_at - b.created_at || a.seq - b.seq);
    return rows.map(toEntry);
  }

  async markDelivered(id: string): Promise<void> {
    this.statements.finish.run('delivered', null, this.clock.now(), id);
  }

  async reschedule(id: string, attempt: number, nextAttemptAt: number, lastError: string): Promise<void> {
    this.statements.reschedule.run(attempt, nextAttemptAt, lastError, id);
  }

  async markFailed(id: string, error: string): Promise<void> {
    this.statements.finish.run('failed', error, this.clock.now(), id);
  }

  async list(filter: { jobId?: string; state?: OutboxState } = {}): Promise<OutboxEntry[]> {
    return this.statements.list.all({ job: filter.jobId ?? null, state: filter.state ?? null }).map(toEntry);
  }

  async prune(before: number): Promise<number> {
    return this.statements.prune.run(before).changes;
  }
}

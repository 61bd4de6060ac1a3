/**
 * The WebhookOutbox port: webhook deliveries written down before they are sent, so that a crash or
 * a restart loses none. A job writes an event when its state changes; a deliverer (adapters) leases
 * due events, POSTs them, and marks each delivered, rescheduled (retry with backoff) or failed.
 * Delivery is at-least-once: a deliverer that dies mid-send leaves its lease to expire, and the
 * event is leased again.
 *
 * A job's events go out in phases (`OutboxEvent.phase`): its started event first, then its pages
 * (and anything else), then its terminal event (`*.completed`, `*.failed`, `*.cancelled`) last. An
 * event is leased only when no pending event of its job is in an earlier phase, so a receiver gets
 * started before any page, and completed after everything else the job sent (or gave up on). Events
 * of one phase are delivered concurrently, in no guaranteed order.
 *
 * Implementations: `MemoryWebhookOutbox` (core), `SqliteWebhookOutbox` and `PostgresWebhookOutbox`
 * (storage). All pass `describeWebhookOutbox` from core/src/ports/testing/outbox-suite.ts.
 */
export interface OutboxEvent {
  /** Unique per delivery; adding the same id twice keeps the first. */
  id: string;
  jobId: string;
  teamId: string;
  url: string;
  headers: Record<string, string>;
  /** The JSON body, already serialised. */
  body: string;
  createdAt: number;
  /**
   * When, among its job's events, this one goes out (absent: the middle phase, pages and anything
   * else). `'first'` (started) is leased whenever due; a middle event only when no `'first'` event of
   * its job is pending (leased, due or waiting for a retry); a `'last'` event (completed, failed,
   * cancelled) only when no other event of its job is pending. Delivered and failed events hold
   * nothing. Nothing of a job is added after its `'last'` event.
   */
  phase?: OutboxPhase;
}

/** An event's ordering phase among its job's events; an event without one is in between. */
export type OutboxPhase = 'first' | 'last';

export type OutboxState = 'pending' | 'delivered' | 'failed';

export interface OutboxEntry extends OutboxEvent {
  state: OutboxState;
  /** Delivery attempts made so far (as last given to `reschedule`; 0 for a new event). */
  attempts: number;
  /** When the entry is due (pending entries only). */
  nextAttemptAt: number;
  lastError?: string;
  /** When it was marked delivered or failed. */
  finishedAt?: number;
}

export interface WebhookOutbox {
  /**
   * Adds events, due at once. Idempotent by id. An event of a job whose `'last'` event was added before
   * is not added: nothing of a job is sent after its last event (a page finished while its job was
   * being cancelled or failed is stored, but not announced).
   */
  add(events: OutboxEvent[]): Promise<void>;
  /**
   * Leases up to `max` pending events that are due (`nextAttemptAt <= now`) and not leased (or whose
   * lease expired), oldest first, for `leaseMs`. A leased event is not leased again before its lease
   * expires. An event is skipped while an event of its job in an earlier phase is pending. Returns []
   * when none is due; never blocks.
   */
  lease(max: number, leaseMs: number): Promise<OutboxEntry[]>;
  /** The event was delivered: it is never leased again. Idempotent. */
  markDelivered(id: string): Promise<void>;
  /**
   * The attempt failed and will be retried: records `attempt` (attempts made so far) and the error,
   * ends the lease, and makes the event due at `nextAttemptAt`.
   */
  reschedule(id: string, attempt: number, nextAttemptAt: number, lastError: string): Promise<void>;
  /** Gives up on the event (retries exhausted): it is never leased again. */
  markFailed(id: string, error: string): Promise<void>;
  /** Entries, oldest first, optionally of one job; for tests and diagnostics. */
  list(filter?: { jobId?: string; state?: OutboxState }): Promise<OutboxEntry[]>;
  /** Deletes delivered and failed entries finished before `before`; returns how many. */
  prune(before: number): Promise<number>;
}

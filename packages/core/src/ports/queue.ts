/**
 * The Queue port: durable work items with leases. A message names one unit of work (one page of
 * a job); the JobStore holds its state. Delivery is at-least-once: a message whose lease expires
 * (its worker died) is delivered again, so consumers must be idempotent (JobStore.finishItem is).
 *
 * Implementations: `MemoryQueue` (core), `SqliteQueue` (storage, embedded), `BullmqQueue`
 * (storage, distributed). All pass `describeQueue` from core/src/ports/testing/queue-suite.ts.
 */
export interface QueueMessage {
  /** Unique per unit of work; enqueuing the same id twice keeps one message. */
  id: string;
  jobId: string;
  /** Item key within the job (the URL's dedup key). */
  key: string;
  url: string;
  discoveryDepth: number;
  /** Lower runs first. */
  priority?: number;
  /** Epoch ms before which the message is not delivered (a scheduled tick); absent: at once. */
  notBefore?: number;
}

export interface LeasedMessage extends QueueMessage {
  /** How many times this message was delivered before this lease. */
  attempts: number;
  /** Opaque token for ack/release. */
  leaseToken: string;
}

export interface Queue {
  enqueue(messages: QueueMessage[]): Promise<void>;
  /**
   * Leases up to `max` ready messages for `leaseMs`. Returns [] when none is ready (never blocks;
   * use `waitForWork`). Messages whose lease expired are ready again.
   */
  lease(max: number, leaseMs: number): Promise<LeasedMessage[]>;
  /** Work done: removes the message. Idempotent. */
  ack(message: LeasedMessage): Promise<void>;
  /** Gives the message back, ready again after `delayMs` (not counted as a failure). */
  release(message: LeasedMessage, delayMs: number): Promise<void>;
  /** Removes every message of a job (cancellation). */
  removeJob(jobId: string): Promise<void>;
  /** Resolves when work may be ready, after `timeoutMs` at the latest, or when the signal aborts. */
  waitForWork(timeoutMs: number, signal?: AbortSignal): Promise<void>;
  /** Messages ready or leased, for queue-status and metrics. */
  depth(): Promise<{ waiting: number; active: number }>;
  close?(): Promise<void>;
}

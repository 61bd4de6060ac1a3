import { randomIds, systemClock, type Clock, type Ids } from '../ports/clock.js';
import type { LeasedMessage, Queue, QueueMessage } from '../ports/queue.js';

/**
 * An in-process Queue for library use: FIFO, leases that expire, delayed release. Nothing survives
 * the process (the storage package has the durable ones).
 */
export class MemoryQueue implements Queue {
  private ready: QueueMessage[] = [];
  private head = 0;
  private readonly known = new Set<string>();
  private readonly attempts = new Map<string, number>();
  private readonly leased = new Map<string, { message: QueueMessage; until: number }>();
  private delayed: Array<{ message: QueueMessage; at: number }> = [];
  private waiters: Array<() => void> = [];

  constructor(
    private readonly clock: Clock = systemClock,
    private readonly ids: Ids = randomIds,
  ) {}

  async enqueue(messages: QueueMessage[]): Promise<void> {
    for (const message of messages) {
      if (this.known.has(message.id)) continue;
      this.known.add(message.id);
      this.ready.push(message);
    }
    if (messages.length > 0) this.wake();
  }

  async lease(max: number, leaseMs: number): Promise<LeasedMessage[]> {
    this.promote();
    const now = this.clock.now();
    const out: LeasedMessage[] = [];
    while (out.length < max && this.head < this.ready.length) {
      const message = this.ready[this.head++]!;
      const leaseToken = this.ids.next();
      const attempts = this.attempts.get(message.id) ?? 0;
      this.attempts.set(message.id, attempts + 1);
      this.leased.set(leaseToken, { message, until: now + leaseMs });
      out.push({ ...message, attempts, leaseToken });
    }
    if (this.head > 1024 && this.head * 2 > this.ready.length) {
      this.ready = this.ready.slice(this.head);
      this.head = 0;
    }
    return out;
  }

  async ack(message: LeasedMessage): Promise<void> {
    if (this.leased.delete(message.leaseToken)) {
      this.known.delete(message.id);
      this.attempts.delete(message.id);
    }
  }

  async release(message: LeasedMessage, delayMs: number): Promise<void> {
    const entry = this.leased.get(message.leaseToken);
    if (!entry) return;
    this.leased.delete(message.leaseToken);
    this.attempts.set(message.id, Math.max(0, (this.attempts.get(message.id) ?? 1) - 1));
    if (delayMs <= 0) {
      this.ready.push(entry.message);
      this.wake();
    } else this.delayed.push({ message: entry.message, at: this.clock.now() + delayMs });
  }

  async removeJob(jobId: string): Promise<void> {
    const keep = (message: QueueMessage) => {
      if (message.jobId !== jobId) return true;
      this.known.delete(message.id);
      return false;
    };
    this.ready = this.ready.slice(this.head).filter(keep);
    this.head = 0;
    this.delayed = this.delayed.filter((entry) => keep(entry.message));
    for (const [token, entry] of this.leased) if (entry.message.jobId === jobId) this.leased.delete(token);
  }

  async waitForWork(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    this.promote();
    if (this.head < this.ready.length || signal?.aborted) return;
    const nextDelayed = this.delayed.reduce((min, entry) => Math.min(min, entry.at), Number.POSITIVE_INFINITY);
    const nextLease = [...this.leased.values()].reduce((min, entry) => Math.min(min, entry.until), Number.POSITIVE_INFINITY);
    const wait = Math.max(0, Math.min(timeoutMs, nextDelayed - this.clock.now(), nextLease - this.clock.now()));
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const woken = new Promise<void>((resolve) => this.waiters.push(resolve));
    try {
      await Promise.race([woken, this.clock.sleep(wait, controller.signal).catch(() => undefined)]);
    } finally {
      controller.abort();
      signal?.removeEventListener('abort', onAbort);
    }
  }

  async depth(): Promise<{ waiting: number; active: number }> {
    this.promote();
    return { waiting: this.ready.length - this.head + this.delayed.length, active: this.leased.size };
  }

  private promote() {
    const now = this.clock.now();
    if (this.delayed.length > 0) {
      const due = this.delayed.filter((entry) => entry.at <= now);
      if (due.length > 0) {
        this.delayed = this.delayed.filter((entry) => entry.at > now);
        for (const entry of due) this.ready.push(entry.message);
      }
    }
    for (const [token, entry] of this.leased) {
      if (entry.until <= now) {
        this.leased.delete(token);
        this.ready.push(entry.message);
      }
    }
  }

  private wake() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}

import { randomIds, systemClock, type Clock, type Ids } from '../ports/clock.js';
import type { LeasedMessage, Queue, QueueMessage } from '../ports/queue.js';

/** Ready messages by priority (lower first), first in, first out within a priority. */
class ReadyLanes {
  private readonly lanes = new Map<number, { items: QueueMessage[]; head: number }>();
  /** Priorities that have a lane, ascending. */
  private priorities: number[] = [];
  size = 0;

  push(message: QueueMessage): void {
    const priority = message.priority ?? 0;
    let lane = this.lanes.get(priority);
    if (!lane) {
      lane = { items: [], head: 0 };
      this.lanes.set(priority, lane);
      this.priorities = [...this.priorities, priority].sort((a, b) => a - b);
    }
    lane.items.push(message);
    this.size++;
  }

  shift(): QueueMessage | undefined {
    const priority = this.priorities[0];
    if (priority === undefined) return undefined;
    const lane = this.lanes.get(priority)!;
    const message = lane.items[lane.head++]!;
    this.size--;
    if (lane.head === lane.items.length) this.dropLane(priority);
    else if (lane.head > 1024 && lane.head * 2 > lane.items.length) {
      lane.items = lane.items.slice(lane.head);
      lane.head = 0;
    }
    return message;
  }

  /** Removes the messages `keep` refuses. */
  filter(keep: (message: QueueMessage) => boolean): void {
    for (const [priority, lane] of this.lanes) {
      const items = lane.items.slice(lane.head).filter(keep);
      this.size -= lane.items.length - lane.head - items.length;
      if (items.length === 0) this.dropLane(priority);
      else this.lanes.set(priority, { items, head: 0 });
    }
  }

  private dropLane(priority: number) {
    this.lanes.delete(priority);
    this.priorities = this.priorities.filter((value) => value !== priority);
  }
}

/**
 * An in-process Queue for library use: lower priorities first, FIFO within a priority, leases that
 * expire, delayed release. Nothing survives the process (the storage package has the durable ones).
 */
export class MemoryQueue implements Queue {
  private readonly ready = new ReadyLanes();
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
      if (message.notBefore !== undefined && message.notBefore > this.clock.now()) this.delayed.push({ message, at: message.notBefore });
      else this.ready.push(message);
    }
    if (messages.length > 0) this.wake();
  }

  async lease(max: number, leaseMs: number): Promise<LeasedMessage[]> {
    this.promote();
    const now = this.clock.now();
    const out: LeasedMessage[] = [];
    while (out.length < max && this.ready.size > 0) {
      const message = this.ready.shift()!;
      const leaseToken = this.ids.next();
      const attempts = this.attempts.get(message.id) ?? 0;
      this.attempts.set(message.id, attempts + 1);
      this.leased.set(leaseToken, { message, until: now + leaseMs });
      out.push({ ...message, attempts, leaseToken });
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
      this.attempts.delete(message.id);
      return false;
    };
    this.ready.filter(keep);
    this.delayed = this.delayed.filter((entry) => keep(entry.message));
    for (const [token, entry] of this.leased) if (!keep(entry.message)) this.leased.delete(token);
  }

  async waitForWork(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    this.promote();
    if (this.ready.size > 0 || signal?.aborted) return;
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
    return { waiting: this.ready.size + this.delayed.length, active: this.leased.size };
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

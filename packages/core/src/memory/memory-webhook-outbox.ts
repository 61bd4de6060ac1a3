import { systemClock, type Clock } from '../ports/clock.js';
import type { OutboxEntry, OutboxEvent, OutboxPhase, OutboxState, WebhookOutbox } from '../ports/webhook-outbox.js';

interface Slot {
  entry: OutboxEntry;
  /** Leased until this time (0 when not leased). */
  leasedUntil: number;
}

const copyOf = (entry: OutboxEntry): OutboxEntry => ({ ...entry, headers: { ...entry.headers } });

/** A phase as a rank: an event waits for its job's pending events of a lower rank. */
const rankOf = (phase: OutboxPhase | undefined): number => (phase === 'first' ? 0 : phase === 'last' ? 2 : 1);

/**
 * A WebhookOutbox in memory, for library use and tests: same contract as the durable outboxes
 * (conformance suite), but nothing survives the process. Entries are kept oldest first (by
 * `createdAt`, then by insertion); a new event is due at its `createdAt`. A lease walks every entry
 * (to find each job's earliest pending phase): fine for the sizes a process holds in memory.
 */
export class MemoryWebhookOutbox implements WebhookOutbox {
  private readonly slots = new Map<string, Slot>();
  /** Ids in `createdAt` order, rebuilt lazily after adds. */
  private order: string[] = [];
  private isOrderStale = false;
  /** Jobs whose last event was added: their later events are not. */
  private readonly closedJobs = new Set<string>();

  constructor(private readonly clock: Clock = systemClock) {}

  async add(events: OutboxEvent[]): Promise<void> {
    for (const event of events) {
      if (this.slots.has(event.id) || this.closedJobs.has(event.jobId)) continue;
      const { phase, ...rest } = event;
      const entry: OutboxEntry = {
        ...rest,
        ...(phase ? { phase } : {}),
        headers: { ...event.headers },
        state: 'pending',
        attempts: 0,
        nextAttemptAt: event.createdAt,
      };
      this.slots.set(event.id, { entry, leasedUntil: 0 });
      this.order.push(event.id);
      this.isOrderStale = true;
      if (phase === 'last') this.closedJobs.add(event.jobId);
    }
  }

  async lease(max: number, leaseMs: number): Promise<OutboxEntry[]> {
    const now = this.clock.now();
    const leased: OutboxEntry[] = [];
    const slots = this.ordered();
    // Each job's earliest phase still pending: its events of later phases wait.
    const earliest = new Map<string, number>();
    for (const { entry } of slots) {
      if (entry.state !== 'pending') continue;
      const rank = rankOf(entry.phase);
      if (rank < (earliest.get(entry.jobId) ?? Number.POSITIVE_INFINITY)) earliest.set(entry.jobId, rank);
    }
    for (const slot of slots) {
      if (leased.length >= max) break;
      if (slot.entry.state !== 'pending' || slot.entry.nextAttemptAt > now || slot.leasedUntil > now) continue;
      if (rankOf(slot.entry.phase) > earliest.get(slot.entry.jobId)!) continue;
      slot.leasedUntil = now + leaseMs;
      leased.push(copyOf(slot.entry));
    }
    return leased;
  }

  async markDelivered(id: string): Promise<void> {
    this.finish(id, 'delivered');
  }

  async reschedule(id: string, attempt: number, nextAttemptAt: number, lastError: string): Promise<void> {
    const slot = this.slots.get(id);
    if (slot?.entry.state !== 'pending') return;
    Object.assign(slot.entry, { attempts: attempt, nextAttemptAt, lastError });
    slot.leasedUntil = 0;
  }

  async markFailed(id: string, error: string): Promise<void> {
    this.finish(id, 'failed', error);
  }

  async list(filter: { jobId?: string; state?: OutboxState } = {}): Promise<OutboxEntry[]> {
    return this.ordered()
      .map((slot) => slot.entry)
      .filter((entry) => (filter.jobId === undefined || entry.jobId === filter.jobId) && (filter.state === undefined || entry.state === filter.state))
      .map(copyOf);
  }

  async prune(before: number): Promise<number> {
    let pruned = 0;
    for (const [id, { entry }] of this.slots) {
      if (entry.finishedAt === undefined || entry.finishedAt >= before) continue;
      this.slots.delete(id);
      if (entry.phase === 'last') this.closedJobs.delete(entry.jobId);
      pruned++;
    }
    if (pruned > 0) this.order = this.order.filter((id) => this.slots.has(id));
    return pruned;
  }

  /** Pending -> delivered or failed; a finished entry stays as it is. */
  private finish(id: string, state: 'delivered' | 'failed', error?: string): void {
    const slot = this.slots.get(id);
    if (slot?.entry.state !== 'pending') return;
    Object.assign(slot.entry, { state, finishedAt: this.clock.now() }, error === undefined ? {} : { lastError: error });
    slot.leasedUntil = 0;
  }

  private ordered(): Slot[] {
    if (this.isOrderStale) {
      // Array.prototype.sort is stable: equal createdAt keeps insertion order.
      this.order.sort((a, b) => this.slots.get(a)!.entry.createdAt - this.slots.get(b)!.entry.createdAt);
      this.isOrderStale = false;
    }
    return this.order.map((id) => this.slots.get(id)!);
  }
}

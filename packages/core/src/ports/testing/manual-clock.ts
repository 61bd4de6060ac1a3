import type { Clock } from '../clock.js';

/**
 * A Clock that moves only when a test says so. `sleep` resolves when `advance` passes its deadline
 * (or rejects when its signal aborts), so leases, delays and timeouts are tested without waiting.
 */
export class ManualClock implements Clock {
  private current: number;
  private timers: Array<{ at: number; resolve: () => void }> = [];

  constructor(start = 1_700_000_000_000) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = {
        at: this.current + Math.max(0, ms),
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.timers = this.timers.filter((entry) => entry !== timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (ms <= 0) return timer.resolve();
      this.timers.push(timer);
    });
  }

  /** Moves time forward and wakes the sleepers whose deadline has come. */
  advance(ms: number): void {
    this.current += ms;
    const due = this.timers.filter((timer) => timer.at <= this.current);
    this.timers = this.timers.filter((timer) => timer.at > this.current);
    for (const timer of due) timer.resolve();
  }

  /** Sleepers not yet woken. */
  get pendingSleeps(): number {
    return this.timers.length;
  }
}

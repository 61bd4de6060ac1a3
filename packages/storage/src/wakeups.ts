import type { Clock } from '@quarry/core';

/**
 * In-process wake-ups for a queue's `waitForWork`: a waiter sleeps on the clock until its time is
 * up, one of its signals aborts, or `wake()` says work was added through this process. Shared by
 * the SQLite and BullMQ queues.
 */
export class Wakeups {
  private readonly waiters = new Set<() => void>();

  constructor(private readonly clock: Clock) {}

  /** Sleeps `ms` of clock time; resolves true when woken early (by `wake()` or an aborted signal). */
  async sleep(ms: number, ...signals: Array<AbortSignal | undefined>): Promise<boolean> {
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    for (const signal of signals) signal?.addEventListener('abort', onAbort, { once: true });
    if (signals.some((signal) => signal?.aborted)) controller.abort();
    let wake!: () => void;
    const woken = new Promise<boolean>((resolve) => {
      wake = () => resolve(true);
      this.waiters.add(wake);
    });
    try {
      return await Promise.race([
        woken,
        this.clock.sleep(ms, controller.signal).then(
          () => false,
          () => true,
        ),
      ]);
    } finally {
      this.waiters.delete(wake);
      controller.abort();
      for (const signal of signals) signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Wakes every sleeper. */
  wake(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const resolve of waiters) resolve();
  }
}

/**
 * NetworkQuiet: counts a page's requests in flight so the fetcher can wait until the page has
 * stopped loading (no request for `quietMs`), with a cap: pages that poll or stream never go
 * quiet, and the cap keeps them from using the whole timeout. Used after load and after each
 * action that may start loading (click, scroll, press).
 */
import type { Page, Request } from 'playwright-core';

export class NetworkQuiet {
  private inFlight = new Set<Request>();
  private lastChange = performance.now();

  constructor(page: Page) {
    const start = (request: Request) => {
      this.inFlight.add(request);
      this.lastChange = performance.now();
    };
    const end = (request: Request) => {
      if (this.inFlight.delete(request)) this.lastChange = performance.now();
    };
    page.on('request', start);
    page.on('requestfinished', end);
    page.on('requestfailed', end);
  }

  /** Resolves once nothing was in flight for `quietMs`, or after `capMs` whatever the network does. */
  async settle(page: Page, quietMs: number, capMs: number): Promise<void> {
    const deadline = performance.now() + capMs;
    this.lastChange = Math.max(this.lastChange, performance.now() - quietMs / 2);
    while (performance.now() < deadline) {
      if (this.inFlight.size === 0 && performance.now() - this.lastChange >= quietMs) return;
      if (page.isClosed()) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, quietMs)));
    }
  }
}

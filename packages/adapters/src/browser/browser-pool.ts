/**
 * BrowserPool: a few long-lived Chromium processes shared by every browser scrape.
 *
 * - Each scrape gets its own BrowserContext (cookies, storage and cache isolated) and one page.
 * - At most `maxOpenPages` contexts are open at once across the pool; further scrapes wait.
 * - Up to `maxBrowsers` processes; a new one is launched only when every running one is busy.
 * - A browser is retired after `retireAfterPages` contexts (Chromium grows with use): it takes no
 *   new work and closes once its last context does. A browser that crashes or disconnects is
 *   dropped at once and replaced on the next scrape.
 * - `close()` closes every browser; Playwright kills each process group, so no stray survives.
 */
import type { Browser, BrowserContext, BrowserContextOptions, LaunchOptions } from 'playwright-core';
import { loadPlaywright } from './load-playwright.js';
import { QuarryError } from '@quarry/core';

export interface BrowserPoolOptions {
  executablePath: string;
  /** Contexts (one page each) open at once across the pool. Default 4. */
  maxOpenPages?: number;
  /** Chromium processes at once. Default 1. */
  maxBrowsers?: number;
  /** Contexts a browser serves before it is retired. Default 100. */
  retireAfterPages?: number;
  /** Extra Chromium flags, after `defaultChromiumFlags`. */
  args?: readonly string[];
  /** Launch-level proxy (the GuardedProxy), applied to every context. */
  proxy?: LaunchOptions['proxy'];
  /** Milliseconds a launch may take. Default 30 000. */
  launchTimeoutMs?: number;
}

/** Flags that keep a headless Chromium quiet and offline except for the pages it is sent to. */
export const defaultChromiumFlags = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--disable-features=Translate,MediaRouter,OptimizationHints',
  '--mute-audio',
] as const;

export const browserPoolDefaults = { maxOpenPages: 4, maxBrowsers: 1, retireAfterPages: 100, launchTimeoutMs: 30_000 } as const;

interface PooledBrowser {
  browser: Browser;
  served: number;
  active: number;
  isRetired: boolean;
}

/** A context handed out by openContext: closed, and its slot freed, by `release()` (idempotent). */
export interface ContextLease {
  context: BrowserContext;
  release(): Promise<void>;
}

export interface BrowserPoolStats {
  browsers: number;
  openPages: number;
  waiting: number;
  launched: number;
  retired: number;
}

export class BrowserPool {
  private readonly options: Required<Omit<BrowserPoolOptions, 'proxy' | 'args'>> & Pick<BrowserPoolOptions, 'proxy' | 'args'>;
  private browsers: PooledBrowser[] = [];
  private launching: Promise<PooledBrowser> | undefined;
  private readonly waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  private openPages = 0;
  private launched = 0;
  private retired = 0;
  private isClosed = false;

  constructor(options: BrowserPoolOptions) {
    this.options = { ...browserPoolDefaults, ...options };
  }

  stats(): BrowserPoolStats {
    return { browsers: this.browsers.length, openPages: this.openPages, waiting: this.waiters.length, launched: this.launched, retired: this.retired };
  }

  /**
   * Runs `use` with a fresh context made from `contextOptions`, and closes the context afterwards
   * whatever happens. Waits for a free page slot first (rejects with the signal's reason if it
   * aborts meanwhile). Throws QuarryError('unavailable') once the pool is closed or a launch fails.
   */
  async withContext<T>(contextOptions: BrowserContextOptions, use: (context: BrowserContext) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const lease = await this.openContext(contextOptions, signal);
    try {
      return await use(lease.context);
    } finally {
      await lease.release();
    }
  }

  /**
   * A fresh context that stays open until `release()` (which closes it and frees its page slot):
   * for a browser session kept between requests. Same waiting and errors as withContext.
   */
  async openContext(contextOptions: BrowserContextOptions, signal?: AbortSignal): Promise<ContextLease> {
    await this.acquireSlot(signal);
    let pooled: PooledBrowser;
    try {
      pooled = await this.pickBrowser();
    } catch (error) {
      this.releaseSlot();
      throw error;
    }
    pooled.active++;
    pooled.served++;
    if (pooled.served >= this.options.retireAfterPages) pooled.isRetired = true;
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await context?.close().catch(() => undefined);
      pooled.active--;
      if (pooled.isRetired && pooled.active === 0) void this.retire(pooled);
      this.releaseSlot();
    };
    let context: BrowserContext | undefined;
    try {
      context = await pooled.browser.newContext(contextOptions);
    } catch (error) {
      await release();
      throw error;
    }
    return { context, release };
  }

  /** Closes every browser and refuses further work. Idempotent. */
  async close(): Promise<void> {
    this.isClosed = true;
    for (const waiter of this.waiters.splice(0)) waiter.reject(closedError());
    const launching = this.launching?.catch(() => undefined);
    await launching;
    await Promise.all(this.browsers.splice(0).map((pooled) => pooled.browser.close().catch(() => undefined)));
  }

  private async acquireSlot(signal?: AbortSignal): Promise<void> {
    if (this.isClosed) throw closedError();
    signal?.throwIfAborted();
    if (this.openPages < this.options.maxOpenPages) {
      this.openPages++;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const waiter = {
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject,
      };
      const onAbort = () => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /** Hands the slot to the next waiter (the count stays), or frees it. */
  private releaseSlot(): void {
    const next = this.waiters.shift();
    if (next) next.resolve();
    else this.openPages--;
  }

  private async pickBrowser(): Promise<PooledBrowser> {
    const live = this.browsers.filter((pooled) => !pooled.isRetired && pooled.browser.isConnected());
    const idle = live.find((pooled) => pooled.active === 0);
    if (idle) return idle;
    if (live.length < this.options.maxBrowsers || live.length === 0) return this.launch();
    return live.reduce((least, pooled) => (pooled.active < least.active ? pooled : least));
  }

  private launch(): Promise<PooledBrowser> {
    this.launching ??= (async () => {
      try {
        if (this.isClosed) throw closedError();
        const { chromium } = await loadPlaywright();
        const browser = await chromium.launch({
          executablePath: this.options.executablePath,
          headless: true,
          args: [...defaultChromiumFlags, ...(this.options.args ?? [])],
          timeout: this.options.launchTimeoutMs,
          ...(this.options.proxy ? { proxy: this.options.proxy } : {}),
        });
        const pooled: PooledBrowser = { browser, served: 0, active: 0, isRetired: false };
        this.launched++;
        browser.on('disconnected', () => this.drop(pooled));
        if (this.isClosed) {
          await browser.close();
          throw closedError();
        }
        this.browsers.push(pooled);
        return pooled;
      } catch (error) {
        if (error instanceof QuarryError) throw error;
        throw new QuarryError('unavailable', `Chromium at ${this.options.executablePath} did not start: ${(error as Error).message.split('\n')[0]}`, {
          cause: error,
          retryable: true,
        });
      } finally {
        this.launching = undefined;
      }
    })();
    return this.launching;
  }

  private drop(pooled: PooledBrowser): void {
    pooled.isRetired = true;
    this.browsers = this.browsers.filter((entry) => entry !== pooled);
  }

  private async retire(pooled: PooledBrowser): Promise<void> {
    this.drop(pooled);
    this.retired++;
    await pooled.browser.close().catch(() => undefined);
  }
}

function closedError(): QuarryError {
  return new QuarryError('unavailable', 'The browser pool is closed', { retryable: true });
}

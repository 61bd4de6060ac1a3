/**
 * BrowserSessionRegistry: the pages kept open for interact, in this process.
 *
 *   key (team, scrapeId) -> one page opened at the scrape's URL on first use (PlaywrightFetcher.openPage)
 *     -> closed after `ttlMs` without use, on stop(), when the team opens more than `maxPerTeam`
 *        (its least recently used goes), when code runs out of time, or on close()
 *
 * JavaScript runs inside the page with page.evaluate (Chromium's renderer sandbox), never in this
 * process; a run past its time is abandoned and its page closed (the renderer may be stuck).
 */
import { Script } from 'node:vm';
import { RateLimitedError, type Action, type BrowserSessions, type InteractOutcome, type SessionKey } from '@quarry/core';
import { runActions } from './action-runner.js';
import { runInNodeSandbox, type PageBridge } from './node-sandbox.js';
import type { OpenPage, PageKeeper } from './playwright-fetcher.js';

export interface BrowserSessionOptions {
  /** Opens a guarded page at a URL (PlaywrightFetcher.openPage). */
  open(url: URL, timeoutMs: number): Promise<OpenPage>;
  /** Milliseconds a session stays open after its last use. */
  ttlMs: number;
  /** Sessions a team may hold at once. */
  maxPerTeam: number;
  /**
   * Sessions of all teams at once. Each holds a page slot of the browser pool, so this stays below
   * the pool's slots and scrapes always have one; past it a new session is refused (429).
   */
  maxTotal: number;
  /** Heap of the `node` sandbox process, in MB. Default 64. */
  nodeHeapMb?: number;
}

/** Extra time the session waits for the node sandbox, which kills itself at the code's bound. */
const sandboxGraceMs = 3_000;

interface Session {
  teamId: string;
  opened: Promise<OpenPage>;
  startedAt: number;
  timer?: NodeJS.Timeout;
  /** Runs on one page happen one after another. */
  queue: Promise<unknown>;
}

const keyOf = (key: SessionKey) => `${key.teamId}\u0000${key.scrapeId}`;

export class BrowserSessionRegistry implements BrowserSessions, PageKeeper {
  private readonly sessions = new Map<string, Session>();
  private readonly adoptedListeners: Array<(key: SessionKey) => void> = [];

  constructor(private readonly options: BrowserSessionOptions) {}

  count(): number {
    return this.sessions.size;
  }

  /** Whether this process holds a page for `key` now (the distributed mode records who holds it). */
  holds(key: SessionKey): boolean {
    return this.sessions.has(keyOf(key));
  }

  /** Calls `listener` whenever a scrape's page is kept here (adopt), so its holder can be recorded. */
  whenAdopted(listener: (key: SessionKey) => void): void {
    this.adoptedListeners.push(listener);
  }

  wants(key: SessionKey): boolean {
    if (this.sessions.has(keyOf(key))) return true;
    const ofTeam = [...this.sessions.values()].filter((other) => other.teamId === key.teamId).length;
    return this.sessions.size < this.options.maxTotal || ofTeam >= this.options.maxPerTeam;
  }

  /** Keeps a page a scrape left open (its actions' state and all) as the session of `key`. */
  adopt(key: SessionKey, page: OpenPage): void {
    const id = keyOf(key);
    const held = this.sessions.get(id);
    if (held) void this.end(id, held);
    const session: Session = { teamId: key.teamId, opened: Promise.resolve(page), startedAt: Date.now(), queue: Promise.resolve() };
    this.sessions.set(id, session);
    this.touch(id, session);
    this.evictBeyondTeamLimit(key.teamId);
    for (const listener of this.adoptedListeners) listener(key);
  }

  async evaluate(key: SessionKey, url: URL, code: string, timeoutMs: number): Promise<InteractOutcome> {
    return this.use(key, url, timeoutMs, async ({ page }) => {
      const outcome = (await page.evaluate(wrapCode(code))) as { value?: string; logs: string[]; errors: string[]; thrown?: string };
      return {
        ...(outcome.value !== undefined ? { result: outcome.value } : {}),
        stdout: lines(outcome.logs),
        stderr: lines([...outcome.errors, ...(outcome.thrown ? [outcome.thrown] : [])]),
        exitCode: outcome.thrown ? 1 : 0,
        killed: false,
      };
    });
  }

  async runNode(key: SessionKey, url: URL, code: string, timeoutMs: number): Promise<InteractOutcome> {
    const body = isExpression(code) ? `return (\n${code}\n);` : code;
    return this.use(key, url, timeoutMs + sandboxGraceMs, async (open) =>
      runInNodeSandbox(body, bridgeTo(open, timeoutMs), { timeoutMs, heapMb: this.options.nodeHeapMb ?? 64 }),
    );
  }

  async runActions(key: SessionKey, url: URL, actions: Action[], timeoutMs: number): Promise<InteractOutcome> {
    const started = performance.now();
    return this.use(key, url, timeoutMs, async ({ page, quiet }) => {
      try {
        const outputs = await runActions({ page, quiet, remainingMs: () => Math.max(1, timeoutMs - (performance.now() - started)) }, actions);
        const result = { url: page.url(), javascriptReturns: outputs.javascriptReturns, scrapes: outputs.scrapes };
        return { result: JSON.stringify(result), stdout: '', stderr: '', exitCode: 0, killed: false };
      } catch (error) {
        return { stdout: '', stderr: error instanceof Error ? error.message : String(error), exitCode: 1, killed: false };
      }
    });
  }

  async snapshot(key: SessionKey): Promise<string | undefined> {
    const session = this.sessions.get(keyOf(key));
    if (!session) return undefined;
    const { page } = await session.opened;
    return page.content();
  }

  async stop(key: SessionKey): Promise<number | undefined> {
    const session = this.sessions.get(keyOf(key));
    if (!session) return undefined;
    await this.end(keyOf(key), session);
    return Date.now() - session.startedAt;
  }

  async close(): Promise<void> {
    await Promise.all([...this.sessions.entries()].map(([id, session]) => this.end(id, session)));
  }

  /** Runs `work` on the session's page (opened first when none is held), bounded by `timeoutMs`. */
  private async use(key: SessionKey, url: URL, timeoutMs: number, work: (page: OpenPage) => Promise<InteractOutcome>): Promise<InteractOutcome> {
    const id = keyOf(key);
    const session = await this.sessionOf(id, key, url, timeoutMs);
    const run = session.queue.then(async () => {
      const page = await session.opened;
      // No expiry while code runs: the clock restarts when it ends.
      this.hold(id, session);
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<'expired'>((resolve) => {
        timer = setTimeout(() => resolve('expired'), timeoutMs);
      });
      const done = work(page);
      done.catch(() => undefined);
      try {
        const outcome = await Promise.race([done, expired]);
        if (outcome !== 'expired') return outcome;
        await this.end(id, session);
        return { stdout: '', stderr: `The code did not finish within ${timeoutMs} ms; it was stopped and the session closed.`, exitCode: 124, killed: true };
      } finally {
        clearTimeout(timer);
        if (this.sessions.get(id) === session) this.touch(id, session);
      }
    });
    session.queue = run.catch(() => undefined);
    return run;
  }

  private async sessionOf(id: string, key: SessionKey, url: URL, timeoutMs: number): Promise<Session> {
    const held = this.sessions.get(id);
    if (held) return held;
    const ofTeam = [...this.sessions.values()].filter((other) => other.teamId === key.teamId).length;
    if (this.sessions.size >= this.options.maxTotal && ofTeam < this.options.maxPerTeam) {
      throw new RateLimitedError(
        `All ${this.options.maxTotal} interact sessions of this server are in use; stop one of yours (DELETE /v2/scrape/{id}/interact) or retry once others close (after ${Math.round(this.options.ttlMs / 1000)} s unused)`,
        Math.min(30, Math.ceil(this.options.ttlMs / 1000)),
      );
    }
    const session: Session = { teamId: key.teamId, opened: this.options.open(url, timeoutMs), startedAt: Date.now(), queue: Promise.resolve() };
    this.sessions.set(id, session);
    this.evictBeyondTeamLimit(key.teamId);
    try {
      await session.opened;
      if (this.sessions.get(id) === session) this.touch(id, session);
    } catch (error) {
      if (this.sessions.get(id) === session) this.sessions.delete(id);
      clearTimeout(session.timer);
      throw error;
    }
    return session;
  }

  /** Closes the team's least recently used sessions past its limit. */
  private evictBeyondTeamLimit(teamId: string): void {
    const teamSessions = [...this.sessions.entries()].filter(([, other]) => other.teamId === teamId);
    // Map order is insertion order, refreshed on each use: the first ones are least recently used.
    for (const [otherId, other] of teamSessions.slice(0, Math.max(0, teamSessions.length - this.options.maxPerTeam))) void this.end(otherId, other);
  }

  /** Restarts the session's time-to-live and marks it most recently used. */
  private touch(id: string, session: Session): void {
    this.hold(id, session);
    session.timer = setTimeout(() => void this.end(id, session), this.options.ttlMs);
    session.timer.unref();
  }

  /** Stops the session's clock (while it opens or runs) and marks it most recently used. */
  private hold(id: string, session: Session): void {
    clearTimeout(session.timer);
    session.timer = undefined;
    this.sessions.delete(id);
    this.sessions.set(id, session);
  }

  private async end(id: string, session: Session): Promise<void> {
    clearTimeout(session.timer);
    if (this.sessions.get(id) === session) this.sessions.delete(id);
    const page = await session.opened.catch(() => undefined);
    await page?.release();
  }
}

/** The page operations the node sandbox may ask for, performed here on the kept page. */
function bridgeTo({ page }: OpenPage, timeoutMs: number): PageBridge {
  const text = (value: unknown, name: string) => {
    if (typeof value !== 'string') throw new Error(`page.${name} needs a string`);
    return value;
  };
  const operations: Record<string, (args: unknown[]) => Promise<unknown>> = {
    goto: async ([url]) => {
      await page.goto(text(url, 'goto'), { waitUntil: 'domcontentloaded', timeout: timeoutMs });
      return page.url();
    },
    click: async ([selector]) => page.click(text(selector, 'click'), { timeout: timeoutMs }),
    fill: async ([selector, value]) => page.fill(text(selector, 'fill'), text(value, 'fill'), { timeout: timeoutMs }),
    type: async ([selector, value]) => page.locator(text(selector, 'type')).pressSequentially(text(value, 'type'), { timeout: timeoutMs }),
    press: async ([selector, key]) =>
      key === undefined ? page.keyboard.press(text(selector, 'press')) : page.press(text(selector, 'press'), text(key, 'press'), { timeout: timeoutMs }),
    content: async () => page.content(),
    title: async () => page.title(),
    url: async () => page.url(),
    screenshot: async () => (await page.screenshot({ type: 'png', timeout: timeoutMs })).toString('base64'),
    waitForSelector: async ([selector]) => {
      await page.waitForSelector(text(selector, 'waitForSelector'), { timeout: timeoutMs });
      return true;
    },
    waitForTimeout: async ([ms]) => page.waitForTimeout(Math.min(Number(ms) || 0, timeoutMs)),
    evaluate: async ([expression]) => page.evaluate(text(expression, 'evaluate')),
  };
  return async (operation, args) => {
    const run = Object.hasOwn(operations, operation) ? operations[operation] : undefined;
    if (!run) throw new Error(`page.${operation} is not available`);
    return (await run(args)) ?? null;
  };
}

function lines(items: string[]): string {
  return items.length > 0 ? `${items.join('\n')}\n` : '';
}

/** True when `code` is one expression (`document.title`): its value is the result. */
function isExpression(code: string): boolean {
  try {
    // Compiled only, never run: this tells an expression from statements.
    new Script(`(async () => (\n${code}\n))`);
    return true;
  } catch {
    return false;
  }
}

/**
 * The page-side wrapper: console captured while the code runs, the value returned as a string
 * (JSON unless already a string), a throw reported instead of failing the evaluate.
 */
function wrapCode(code: string): string {
  const body = isExpression(code) ? `return (\n${code}\n);` : code;
  return `(async () => {
  const logs = [], errors = [], saved = {};
  const text = (args) => args.map((a) => typeof a === 'string' ? a : (() => { try { return JSON.stringify(a); } catch { return String(a); } })()).join(' ');
  for (const name of ['log', 'info', 'debug', 'warn', 'error']) {
    saved[name] = console[name];
    console[name] = (...args) => { (name === 'warn' || name === 'error' ? errors : logs).push(text(args)); };
  }
  try {
    const value = await (async () => {
${body}
    })();
    return { value: value === undefined ? undefined : typeof value === 'string' ? value : JSON.stringify(value), logs, errors };
  } catch (error) {
    return { logs, errors, thrown: error && error.stack ? String(error.stack) : String(error) };
  } finally {
    Object.assign(console, saved);
  }
})()`;
}

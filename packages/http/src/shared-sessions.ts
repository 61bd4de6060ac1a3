/**
 * Interact sessions across the processes of the distributed mode. A kept browser page lives in one
 * process (the one that scraped with the browser, or the worker that opened it on the first
 * interact call); every process answers interact calls by sending them to that process over Redis:
 *
 *   {prefix}:interact:owner:{team}:{scrapeId}  -> id of the process holding the page (expires
 *                                                 QUARRY_INTERACT_TTL_SECONDS after its last use, + a margin)
 *   {prefix}:interact:hosts                    zset: processes holding pages -> heartbeat deadline (ms)
 *   {prefix}:interact:openers                  zset: processes opening new pages (workers) -> deadline
 *   {prefix}:interact:inbox:{process}          list: calls for the pages of that process
 *   {prefix}:interact:inbox:new                list: calls for a scrape with no page; one worker takes
 *                                              each, opens the page and records itself as its owner
 *   {prefix}:interact:reply:{process}          pub/sub channel of the answers to that process's calls
 *   {prefix}:interact:team:{team}              zset: the team's sessions -> last use (ms), so the team's
 *                                              limit (QUARRY_INTERACT_MAX_SESSIONS) holds across processes:
 *                                              a new session closes the least recently used past it
 *
 * A holder whose heartbeat stopped (the process died) answers as an expired session (410, as
 * Firecrawl does), and its record is removed so the next call opens a new page. Team rules,
 * credits and validation stay in the routes, before a call gets here; the holder's own
 * BrowserSessionRegistry applies the session limits and the SSRF guard on its page.
 */
import { randomUUID } from 'node:crypto';
import {
  asQuarryError,
  errorFromJson,
  NotAvailableError,
  QuarryError,
  TimeoutError,
  type Action,
  type BrowserSessions,
  type ErrorJson,
  type InteractOutcome,
  type SessionKey,
} from '@quarry/core';
import { createRedis, translateRedisError } from '@quarry/storage/distributed';

type Redis = ReturnType<typeof createRedis>;

/** The process's own pages (BrowserSessionRegistry), with what the distributed mode asks of them. */
export interface LocalSessions extends BrowserSessions {
  holds(key: SessionKey): boolean;
  whenAdopted(listener: (key: SessionKey) => void): void;
}

export interface SharedSessionsOptions {
  redisUrl: string;
  prefix: string;
  /** This process's pages; none when it has no browser (it then only forwards). */
  local?: LocalSessions;
  /** Whether this process opens pages for scrapes that kept none (workers: yes; API processes: no). */
  opensNew: boolean;
  /** Milliseconds a session stays open after its last use (QUARRY_INTERACT_TTL_SECONDS). */
  ttlMs: number;
  /** Sessions a team may hold at once across all processes (QUARRY_INTERACT_MAX_SESSIONS); default: each process's own limit only. */
  maxPerTeam?: number;
  /** How long a command may wait for Redis (the API fails fast: 503). */
  commandTimeoutMs?: number;
  name: string;
}

type Op = 'evaluate' | 'runNode' | 'runActions' | 'snapshot' | 'stop';

interface Call {
  id: string;
  /** The process waiting for the answer. */
  from: string;
  op: Op;
  key: SessionKey;
  url?: string;
  code?: string;
  actions?: Action[];
  timeoutMs: number;
}

type Answer = { id: string; ok: true; value: unknown } | { id: string; ok: false; error: ErrorJson };

/** How often a process says it is alive, and how long that lasts. */
const heartbeatMs = 2_000;
const aliveForMs = 8_000;
/** Time an answer may take beyond the code's own bound (opening the page, the node sandbox's grace). */
const answerGraceMs = 15_000;
/** The owner record outlives the session's own time-to-live by this much. */
const ownerMarginMs = 5_000;

const deleteIfEquals = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;

/** 410: the page was held by a process that is gone. */
export function sessionExpired(scrapeId: string): QuarryError {
  return new QuarryError(
    'not_found',
    `The interact session of scrape ${scrapeId} has expired: the process that held its browser page stopped. Call interact again to open a new page at the scrape's URL.`,
    { details: { kind: 'session-expired' } },
  );
}

export class SharedBrowserSessions implements BrowserSessions {
  readonly id = randomUUID();
  private readonly redis: Redis;
  private readonly blocking: Redis;
  private readonly subscriber: Redis;
  private readonly pending = new Map<string, { resolve(value: unknown): void; reject(error: unknown): void }>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private heartbeat?: NodeJS.Timeout;
  private running = false;
  private serving?: Promise<void>;

  constructor(private readonly options: SharedSessionsOptions) {
    const { redisUrl, name, commandTimeoutMs } = options;
    this.redis = createRedis(redisUrl, { name: `${name}-interact`, ...(commandTimeoutMs !== undefined ? { commandTimeoutMs } : {}) });
    this.blocking = createRedis(redisUrl, { name: `${name}-interact-inbox` });
    this.subscriber = createRedis(redisUrl, { name: `${name}-interact-replies` });
    options.local?.whenAdopted(
      (key) =>
        void this.recordOwner(key)
          .then(() => this.evictBeyondTeamLimit(key))
          .catch(() => undefined),
    );
  }

  /** Subscribes to answers and, with a browser, starts the heartbeat and takes calls from the inboxes. */
  async start(): Promise<void> {
    this.running = true;
    this.subscriber.on('message', (_channel: string, message: string) => this.settle(message));
    await this.subscriber.subscribe(this.key('reply', this.id));
    if (!this.options.local) return;
    await this.beat();
    this.heartbeat = setInterval(() => void this.beat().catch(() => undefined), heartbeatMs);
    this.heartbeat.unref();
    this.serving = this.serve();
  }

  evaluate(key: SessionKey, url: URL, code: string, timeoutMs: number): Promise<InteractOutcome> {
    return this.dispatch({ op: 'evaluate', key, url: url.href, code, timeoutMs }) as Promise<InteractOutcome>;
  }

  runNode(key: SessionKey, url: URL, code: string, timeoutMs: number): Promise<InteractOutcome> {
    return this.dispatch({ op: 'runNode', key, url: url.href, code, timeoutMs }) as Promise<InteractOutcome>;
  }

  runActions(key: SessionKey, url: URL, actions: Action[], timeoutMs: number): Promise<InteractOutcome> {
    return this.dispatch({ op: 'runActions', key, url: url.href, actions, timeoutMs }) as Promise<InteractOutcome>;
  }

  async snapshot(key: SessionKey): Promise<string | undefined> {
    return ((await this.dispatch({ op: 'snapshot', key, timeoutMs: 10_000 })) as string | null) ?? undefined;
  }

  async stop(key: SessionKey): Promise<number | undefined> {
    return ((await this.dispatch({ op: 'stop', key, timeoutMs: 10_000 })) as number | null) ?? undefined;
  }

  count(): number {
    return this.options.local?.count() ?? 0;
  }

  /** Stops taking calls and closes the connections; the pages themselves close with the engine. */
  async close(): Promise<void> {
    this.running = false;
    clearInterval(this.heartbeat);
    if (this.options.local) {
      await this.redis.zrem(this.key('hosts'), this.id).catch(() => undefined);
      await this.redis.zrem(this.key('openers'), this.id).catch(() => undefined);
    }
    this.blocking.disconnect();
    await this.serving?.catch(() => undefined);
    await Promise.allSettled([...this.inFlight]);
    for (const { reject } of this.pending.values()) reject(new NotAvailableError('The server is shutting down'));
    this.pending.clear();
    await Promise.all([this.redis, this.subscriber].map((redis) => redis.quit().catch(() => redis.disconnect())));
  }

  /** Routes a call (below); Redis out of reach answers 503, as the rest of the API does. */
  private async dispatch(call: Omit<Call, 'id' | 'from'>): Promise<unknown> {
    try {
      return await this.route(call);
    } catch (error) {
      throw translateRedisError(error);
    }
  }

  /** Where a call goes: the page's holder (here or another process), or, with no page, a worker that opens one. */
  private async route(call: Omit<Call, 'id' | 'from'>): Promise<unknown> {
    const owner = await this.redis.get(this.ownerKey(call.key));
    if (owner === this.id && this.options.local) return this.runHere(call);
    if (owner) {
      if (!(await this.isAlive(owner))) {
        await this.redis.eval(deleteIfEquals, 1, this.ownerKey(call.key), owner);
        if (call.op === 'stop' || call.op === 'snapshot') return null;
        throw sessionExpired(call.key.scrapeId);
      }
      return this.send(this.key('inbox', owner), call, owner);
    }
    if (call.op === 'stop' || call.op === 'snapshot') return null;
    if (this.options.opensNew && this.options.local) return this.openHere(call);
    if (!(await this.anyOpener())) {
      throw new NotAvailableError(
        'Interact needs a worker with a browser to open the page: start `quarry worker` on a machine with Chromium (apt-get install chromium, or set QUARRY_CHROMIUM_PATH)',
      );
    }
    return this.send(this.key('inbox', 'new'), call, undefined);
  }

  /** Sends a call to a list and waits for its answer on this process's reply channel. */
  private async send(list: string, body: Omit<Call, 'id' | 'from'>, owner: string | undefined): Promise<unknown> {
    const call: Call = { ...body, id: randomUUID(), from: this.id };
    const payload = JSON.stringify(call);
    const answered = new Promise<unknown>((resolve, reject) => this.pending.set(call.id, { resolve, reject }));
    let timer: NodeJS.Timeout | undefined;
    const waitMs = call.timeoutMs * 2 + answerGraceMs;
    const timedOut = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        void (async () => {
          this.pending.delete(call.id);
          // Still in the list: nobody took it (the holder died just now, or no worker is running).
          const untaken = await this.redis.lrem(list, 1, payload).catch(() => 0);
          if (untaken > 0 && owner !== undefined) reject(sessionExpired(call.key.scrapeId));
          else if (untaken > 0)
            reject(
              new NotAvailableError(
                `No worker took the interact call within ${Math.round(waitMs / 1000)} s: start \`quarry worker\` on a machine with Chromium`,
              ),
            );
          else
            reject(
              new TimeoutError(`The process holding the interact page of scrape ${call.key.scrapeId} did not answer within ${Math.round(waitMs / 1000)} s`),
            );
        })();
      }, waitMs);
    });
    // The holder dying mid-wait (its heartbeat stops) ends the wait early: the session expired with it.
    let watcher: NodeJS.Timeout | undefined;
    const holderGone = new Promise<never>((_resolve, reject) => {
      if (owner === undefined) return;
      watcher = setInterval(() => {
        void this.isAlive(owner).then(
          async (alive) => {
            if (alive) return;
            clearInterval(watcher);
            await this.redis.lrem(list, 1, payload).catch(() => 0);
            await this.redis.eval(deleteIfEquals, 1, this.ownerKey(call.key), owner).catch(() => undefined);
            reject(sessionExpired(call.key.scrapeId));
          },
          () => undefined,
        );
      }, heartbeatMs);
    });
    // Either may reject after the answer came; the race below is what reports them.
    timedOut.catch(() => undefined);
    holderGone.catch(() => undefined);
    try {
      await this.redis.rpush(list, payload);
      return await Promise.race([answered, timedOut, holderGone]);
    } finally {
      clearTimeout(timer);
      clearInterval(watcher);
      this.pending.delete(call.id);
    }
  }

  private settle(message: string): void {
    let answer: Answer;
    try {
      answer = JSON.parse(message) as Answer;
    } catch {
      return;
    }
    const waiting = this.pending.get(answer.id);
    if (!waiting) return;
    this.pending.delete(answer.id);
    if (answer.ok) waiting.resolve(answer.value);
    else waiting.reject(errorFromJson(answer.error));
  }

  /** Takes calls for this process's pages and, on a worker, calls that open a page. */
  private async serve(): Promise<void> {
    const lists = [this.key('inbox', this.id), ...(this.options.opensNew ? [this.key('inbox', 'new')] : [])];
    while (this.running) {
      let popped: [string, string] | null;
      try {
        popped = await this.blocking.blpop(...lists, 1);
      } catch {
        if (!this.running) return;
        await new Promise((resolve) => setTimeout(resolve, 500));
        continue;
      }
      if (!popped) continue;
      const [list, payload] = popped;
      const handled = this.answer(list === lists[0] ? 'own' : 'new', JSON.parse(payload) as Call);
      this.inFlight.add(handled);
      void handled.finally(() => this.inFlight.delete(handled));
    }
  }

  private async answer(from: 'own' | 'new', call: Call): Promise<void> {
    let answer: Answer;
    try {
      const value = from === 'own' ? await this.runHere(call) : await this.openHere(call);
      answer = { id: call.id, ok: true, value: value ?? null };
    } catch (error) {
      answer = { id: call.id, ok: false, error: asQuarryError(error).toJSON() };
    }
    await this.redis.publish(this.key('reply', call.from), JSON.stringify(answer)).catch(() => undefined);
  }

  /** A call for a scrape with no page: this process becomes its holder, unless another did just now. */
  private async openHere(call: Omit<Call, 'id' | 'from'>): Promise<unknown> {
    const claimed = await this.redis.set(this.ownerKey(call.key), this.id, 'PX', this.options.ttlMs + ownerMarginMs, 'NX');
    if (claimed !== 'OK') {
      const owner = await this.redis.get(this.ownerKey(call.key));
      if (owner && owner !== this.id) return this.dispatch(call);
    }
    await this.noteUse(call.key);
    await this.evictBeyondTeamLimit(call.key);
    return this.runHere(call);
  }

  /** Runs a call on this process's page, then records (or clears) this process as the holder. */
  private async runHere(call: Omit<Call, 'id' | 'from'>): Promise<unknown> {
    const local = this.options.local;
    if (!local) throw sessionExpired(call.key.scrapeId);
    const url = call.url ? new URL(call.url) : undefined;
    try {
      switch (call.op) {
        case 'evaluate':
          return await local.evaluate(call.key, url!, call.code ?? '', call.timeoutMs);
        case 'runNode':
          return await local.runNode(call.key, url!, call.code ?? '', call.timeoutMs);
        case 'runActions':
          return await local.runActions(call.key, url!, call.actions ?? [], call.timeoutMs);
        case 'snapshot':
          return (await local.snapshot(call.key)) ?? null;
        case 'stop':
          return (await local.stop(call.key)) ?? null;
      }
    } finally {
      if (local.holds(call.key)) await this.recordOwner(call.key);
      else {
        await this.redis.eval(deleteIfEquals, 1, this.ownerKey(call.key), this.id);
        await this.redis.zrem(this.key('team', call.key.teamId), call.key.scrapeId);
      }
    }
  }

  private async recordOwner(key: SessionKey): Promise<void> {
    await this.redis.set(this.ownerKey(key), this.id, 'PX', this.options.ttlMs + ownerMarginMs);
    await this.noteUse(key);
  }

  /** Marks the session most recently used among its team's. */
  private async noteUse(key: SessionKey): Promise<void> {
    const team = this.key('team', key.teamId);
    await this.redis.zadd(team, Date.now(), key.scrapeId);
    await this.redis.pexpire(team, this.options.ttlMs + ownerMarginMs);
  }

  /** Stops the team's least recently used sessions past its limit, wherever they are held. */
  private async evictBeyondTeamLimit(key: SessionKey): Promise<void> {
    const team = this.key('team', key.teamId);
    // Sessions unused for longer than the time-to-live have closed on their own.
    await this.redis.zremrangebyscore(team, '-inf', Date.now() - this.options.ttlMs - ownerMarginMs);
    const sessions = await this.redis.zrange(team, '0', '-1');
    const excess = sessions
      .filter((scrapeId) => scrapeId !== key.scrapeId)
      .slice(0, Math.max(0, sessions.length - (this.options.maxPerTeam ?? Number.POSITIVE_INFINITY)));
    for (const scrapeId of excess) {
      await this.redis.zrem(team, scrapeId);
      await this.stop({ teamId: key.teamId, scrapeId }).catch(() => undefined);
    }
  }

  private async beat(): Promise<void> {
    const deadline = Date.now() + aliveForMs;
    await this.redis.zadd(this.key('hosts'), deadline, this.id);
    if (this.options.opensNew) await this.redis.zadd(this.key('openers'), deadline, this.id);
  }

  private async isAlive(process: string): Promise<boolean> {
    const deadline = await this.redis.zscore(this.key('hosts'), process);
    return deadline !== null && Number(deadline) > Date.now();
  }

  private async anyOpener(): Promise<boolean> {
    const alive = await this.redis.zrangebyscore(this.key('openers'), Date.now(), '+inf', 'LIMIT', 0, 1);
    return alive.length > 0;
  }

  private ownerKey(key: SessionKey): string {
    return this.key('owner', key.teamId, key.scrapeId);
  }

  private key(...parts: string[]): string {
    return [this.options.prefix, 'interact', ...parts].join(':');
  }
}

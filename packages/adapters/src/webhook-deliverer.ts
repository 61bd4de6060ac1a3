/**
 * WebhookDeliverer: sends the events of a WebhookOutbox to their receivers, with retries.
 *
 * ```
 * outbox.lease(free slots) -> for each event, one attempt:
 *   checkWebhookUrl + SsrfGuard.checkUrl --refused--> markFailed (at once, never retried)
 *   POST body (user headers + X-Quarry-* + signature), no redirects, timeoutMs
 *     2xx                        -> markDelivered
 *     other status, timeout,     -> reschedule(attempt, now + backoff(attempt))
 *     connection or TLS error       or, at maxAttempts, markFailed("gave up after N attempts: ...")
 *     SSRF refusal, bad header   -> markFailed (at once)
 * ```
 *
 * A job's events go out in phases: the outbox leases its pages only once its started event is
 * delivered or given up, and its last event (completed, failed, cancelled) only once all the others
 * are; pages go out concurrently. A receiver never gets a page of a job before its started event
 * or after its completed event.
 *
 * Delivery is at least once: a deliverer that dies after a receiver answered 2xx but before
 * `markDelivered` was written leaves its lease to expire, and the event is sent again. Receivers
 * dedupe by the payload's `webhookId` (= the `X-Quarry-Delivery` header).
 *
 * Transport: node:http(s) with our own keep-alive agents whose `lookup` is the SSRF guard's, the
 * mechanism GotFetcher uses (guarded-transport.ts): the name is resolved once, refused addresses
 * are dropped, and the socket connects only to what was checked. got would bring nothing here: a
 * webhook is one POST with a known body, no redirects, no retries of its own, no HTTP/2, no
 * browser headers; its redirect, retry and header-generation machinery would all be switched off.
 */
import type http from 'node:http';
import { nodeHttp } from './node-http.js';
import https from 'node:https';
import tls from 'node:tls';
import { checkWebhookUrl, QuarryError, TargetError, type Clock, type OutboxEntry, type WebhookOutbox } from '@quarry/core';
import { SsrfGuard, type Resolver } from './ssrf-guard.js';
import { signWebhookBody } from './webhook-signature.js';

/** Pino-shaped (Fastify's `app.log` fits). */
export interface WebhookLogger {
  warn(details: Record<string, unknown>, message: string): void;
}

export interface WebhookDelivererOptions {
  outbox: WebhookOutbox;
  /** Time for scheduling retries and polling (the per-attempt timeout runs on real time). */
  clock: Clock;
  /** Receivers allowed although not public: host names, `*.suffix`, IPs, CIDRs, or `*`. */
  allowPrivateHosts: readonly string[];
  /** What a refused private receiver says to do; by default this option. */
  privateHostsHint?: string;
  /** Whether `http:` receivers are allowed (QUARRY_WEBHOOK_ALLOW_HTTP); https only otherwise. */
  allowHttp: boolean;
  /** The team's webhook secret; when there is one, every POST is signed with it. */
  secret?: (teamId: string) => Promise<string | undefined> | string | undefined;
  /** Limit of one attempt, connection to response head. Default 30 s. */
  timeoutMs?: number;
  /** Attempts before an event is marked failed. Default 8. */
  maxAttempts?: number;
  /** Delay before attempt `attempt + 1`, given the attempts made so far. Default `webhookBackoff`. */
  backoff?: (attempt: number) => number;
  /** Posts in flight at once. Default 4. */
  concurrency?: number;
  /** How often an idle deliverer asks the outbox for due events. Default 500 ms. */
  pollMs?: number;
  logger?: WebhookLogger;
  /** Certificate authorities trusted for https receivers in addition to Node's bundled roots. */
  ca?: string | string[];
  /** DNS resolution for the SSRF guard; the system resolver when not given. */
  resolve?: Resolver;
}

const defaults = { timeoutMs: 30_000, maxAttempts: 8, concurrency: 4, pollMs: 500 } as const;

/** A lease outlives the attempt by this much (secret lookup, outbox writes), so no one else sends it meanwhile. */
const leaseSlackMs = 30_000;

const backoffShape = { firstMs: 1_000, maxMs: 3_600_000, jitter: 0.2 } as const;

/**
 * The default backoff: 1 s, 2 s, 4 s ... doubling per attempt, capped at 1 h, each spread by
 * ±20 % so that events failing together do not retry together.
 */
export function webhookBackoff(attempt: number, random: () => number = Math.random): number {
  const base = backoffShape.firstMs * 2 ** Math.max(0, attempt - 1);
  const spread = 1 - backoffShape.jitter + 2 * backoffShape.jitter * random();
  return Math.round(Math.min(backoffShape.maxMs, base * spread));
}

/** Framing and hop-by-hop headers a user may not set: the transport owns them. */
const transportHeaders = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-connection',
]);

/** Node's codes for a header name or value it refuses to send: retrying cannot help. */
const invalidHeaderCodes = new Set(['ERR_INVALID_CHAR', 'ERR_INVALID_HTTP_TOKEN', 'ERR_HTTP_INVALID_HEADER_VALUE']);

type Outcome = { kind: 'delivered' } | { kind: 'retry'; error: string } | { kind: 'refused'; error: string };

class AttemptTimeout extends Error {}

/** The payload's `type` (`crawl.page`...), for `X-Quarry-Event`; undefined when the body has none. */
function eventTypeOf(body: string): string | undefined {
  try {
    const type = (JSON.parse(body) as { type?: unknown }).type;
    return typeof type === 'string' ? type : undefined;
  } catch {
    return undefined;
  }
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  return code && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
}

/** A failed request as an outcome: refusals are final, everything else is worth another attempt. */
function outcomeOfError(error: unknown, timeoutMs: number): Outcome {
  if (error instanceof AttemptTimeout) return { kind: 'retry', error: `timed out after ${timeoutMs} ms` };
  if (error instanceof TargetError && error.kind === 'ssrf') return { kind: 'refused', error: error.message };
  if (invalidHeaderCodes.has((error as NodeJS.ErrnoException).code ?? '')) {
    return { kind: 'refused', error: `headers must be valid HTTP header names and values; ${messageOf(error)}` };
  }
  return { kind: 'retry', error: messageOf(error) };
}

function outcomeOfStatus(status: number, statusText: string): Outcome {
  if (status >= 200 && status < 300) return { kind: 'delivered' };
  const redirect = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
  return { kind: 'retry', error: `HTTP ${status}${statusText ? ` ${statusText}` : ''}${redirect}` };
}

export class WebhookDeliverer {
  private readonly outbox: WebhookOutbox;
  private readonly clock: Clock;
  private readonly guard: SsrfGuard;
  private readonly agents: { 'http:': http.Agent; 'https:': https.Agent };
  private readonly allowHttp: boolean;
  private readonly secret: WebhookDelivererOptions['secret'];
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly backoff: (attempt: number) => number;
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly logger: WebhookLogger | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private running: { stop: AbortController; loop: Promise<void> } | undefined;

  constructor(options: WebhookDelivererOptions) {
    this.outbox = options.outbox;
    this.clock = options.clock;
    this.guard = new SsrfGuard({
      allowPrivateHosts: options.allowPrivateHosts,
      howToAllow: options.privateHostsHint ?? 'allow it with the `allowPrivateHosts` option of the WebhookDeliverer',
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });
    const lookup = this.guard.lookup;
    const ca = options.ca === undefined ? {} : { ca: [...tls.rootCertificates, ...[options.ca].flat()] };
    this.agents = { 'http:': new nodeHttp.Agent({ keepAlive: true, lookup }), 'https:': new https.Agent({ keepAlive: true, lookup, ...ca }) };
    this.allowHttp = options.allowHttp;
    this.secret = options.secret;
    this.timeoutMs = options.timeoutMs ?? defaults.timeoutMs;
    this.maxAttempts = options.maxAttempts ?? defaults.maxAttempts;
    this.backoff = options.backoff ?? ((attempt) => webhookBackoff(attempt));
    this.concurrency = options.concurrency ?? defaults.concurrency;
    this.pollMs = options.pollMs ?? defaults.pollMs;
    this.leaseMs = this.timeoutMs + leaseSlackMs;
    this.logger = options.logger;
  }

  /** Starts delivering in the background: due events are leased every `pollMs`. Idempotent. */
  start(): void {
    if (this.running) return;
    const stop = new AbortController();
    this.running = { stop, loop: this.run(stop.signal) };
  }

  /**
   * Stops leasing and waits for the posts in flight to finish and be recorded (at most about
   * `timeoutMs`). Events not yet leased stay in the outbox for the next deliverer. Idempotent;
   * `start` may be called again afterwards.
   */
  async stop(): Promise<void> {
    const running = this.running;
    if (running) {
      running.stop.abort();
      await running.loop;
      this.running = undefined;
    }
    await Promise.all(this.inFlight);
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }

  /**
   * Delivers every event due now, `concurrency` at a time, and returns when the outbox has none
   * left due (events rescheduled into the future stay for later). For tests and one-shot use.
   */
  async drain(): Promise<void> {
    for (;;) {
      const leased = await this.outbox.lease(this.concurrency, this.leaseMs);
      if (leased.length === 0) return;
      await Promise.all(leased.map((entry) => this.deliver(entry)));
    }
  }

  private async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      if (this.inFlight.size >= this.concurrency) {
        await Promise.race(this.inFlight);
        continue;
      }
      const leased = await this.outbox.lease(this.concurrency - this.inFlight.size, this.leaseMs).catch((error: unknown) => {
        this.logger?.warn({ error: messageOf(error) }, 'webhook outbox lease failed; retrying after the poll interval');
        return [];
      });
      for (const entry of leased) this.track(this.deliver(entry));
      if (leased.length === 0) await this.idle(signal);
    }
  }

  /**
   * Waits `pollMs`, or less when a post in flight ends first: the outbox holds a job's pages until
   * its started event is done, and its last event until the others are, so the end of a post may
   * make them due at once.
   */
  private async idle(signal: AbortSignal): Promise<void> {
    const woken = new AbortController();
    try {
      await Promise.race([this.clock.sleep(this.pollMs, AbortSignal.any([signal, woken.signal])).catch(() => undefined), ...this.inFlight]);
    } finally {
      woken.abort();
    }
  }

  private track(delivery: Promise<void>): void {
    this.inFlight.add(delivery);
    void delivery.finally(() => this.inFlight.delete(delivery));
  }

  /** One attempt at a leased event, and its outcome written to the outbox. Never throws. */
  private async deliver(entry: OutboxEntry): Promise<void> {
    const attempt = entry.attempts + 1;
    const outcome = await this.attempt(entry);
    try {
      if (outcome.kind === 'delivered') await this.outbox.markDelivered(entry.id);
      else await this.recordFailure(entry, attempt, outcome);
    } catch (error) {
      // The lease expires and the event is sent again: at least once, never lost.
      this.logger?.warn({ deliveryId: entry.id, error: messageOf(error) }, 'could not record a webhook outcome in the outbox');
    }
  }

  /** A refusal fails the event at once; another failure is retried until `maxAttempts`. */
  private async recordFailure(entry: OutboxEntry, attempt: number, outcome: Exclude<Outcome, { kind: 'delivered' }>): Promise<void> {
    const details = { deliveryId: entry.id, jobId: entry.jobId, attempt, error: outcome.error };
    if (outcome.kind === 'refused') {
      this.logger?.warn(details, 'webhook refused; marked failed');
      await this.outbox.markFailed(entry.id, outcome.error);
      return;
    }
    // Recorded first, so that the entry keeps its attempt count once failed.
    await this.outbox.reschedule(entry.id, attempt, this.clock.now() + this.backoff(attempt), outcome.error);
    if (attempt < this.maxAttempts) {
      this.logger?.warn(details, 'webhook attempt failed; will retry');
      return;
    }
    this.logger?.warn(details, 'webhook failed on its last attempt; giving up');
    await this.outbox.markFailed(entry.id, `gave up after ${attempt} attempts: ${outcome.error}`);
  }

  private async attempt(entry: OutboxEntry): Promise<Outcome> {
    let url: URL;
    try {
      url = checkWebhookUrl(entry.url, { allowHttp: this.allowHttp });
      this.guard.checkUrl(url);
    } catch (error) {
      return { kind: 'refused', error: error instanceof QuarryError ? error.message : messageOf(error) };
    }
    let headers: Record<string, string>;
    try {
      headers = await this.headersFor(entry);
    } catch (error) {
      return { kind: 'retry', error: `could not read the team's webhook secret: ${messageOf(error)}` };
    }
    try {
      const { status, statusText } = await this.post(url, headers, entry.body);
      return outcomeOfStatus(status, statusText);
    } catch (error) {
      return outcomeOfError(error, this.timeoutMs);
    }
  }

  /** The user's headers (minus the transport's), then ours, which win. */
  private async headersFor(entry: OutboxEntry): Promise<Record<string, string>> {
    const ours: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'Quarry-Webhooks',
      'x-quarry-delivery': entry.id,
    };
    const type = eventTypeOf(entry.body);
    if (type) ours['x-quarry-event'] = type;
    const secret = await this.secret?.(entry.teamId);
    if (secret) ours['x-quarry-signature'] = ours['x-firecrawl-signature'] = signWebhookBody(entry.body, secret);
    const theirs = Object.entries(entry.headers).filter(([name]) => {
      const lower = name.toLowerCase();
      return !transportHeaders.has(lower) && !(lower in ours);
    });
    return { ...Object.fromEntries(theirs), ...ours };
  }

  /** One POST; resolves with the response head (the body is drained, not read). */
  private post(url: URL, headers: Record<string, string>, body: string): Promise<{ status: number; statusText: string }> {
    const protocol = url.protocol as 'http:' | 'https:';
    const client = protocol === 'https:' ? https : nodeHttp;
    return new Promise((resolve, reject) => {
      const request = client.request(url, { method: 'POST', headers, agent: this.agents[protocol] }, (response) => {
        clearTimeout(timer);
        response.on('error', () => undefined).resume();
        resolve({ status: response.statusCode ?? 0, statusText: response.statusMessage ?? '' });
      });
      const timer = setTimeout(() => request.destroy(new AttemptTimeout()), this.timeoutMs);
      request.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      request.end(body);
    });
  }
}

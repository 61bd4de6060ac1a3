import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemoryWebhookOutbox, type OutboxEntry, type OutboxEvent, type WebhookOutbox } from '@quarry/core';
import { ManualClock } from '@quarry/core/testing';
import { createSqliteStorage } from '@quarry/storage';
import { WebhookDeliverer, verifyWebhookSignature, webhookBackoff, type WebhookDelivererOptions } from '../src/index.js';
import { selfSignedCertificate, startHttp, startHttps, tableResolver, type LocalServer } from './local-servers.js';

/** What a receiver got: headers and the exact raw body. */
interface Received {
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** Answers each request with the next reply (the last one repeats); `hold` keeps the request open. */
type Reply = number | { status: number; headers?: Record<string, string> } | 'hold';

interface Receiver {
  server: LocalServer;
  received: Received[];
  /** Replies used in order; reset per test. */
  replies: Reply[];
  /** Responses held open by a 'hold' reply, to answer later. */
  held: ServerResponse[];
  /** Most requests open at the same time. */
  peakOpen: number;
}

async function startReceiver(start: (handler: Parameters<typeof startHttp>[0]) => Promise<LocalServer>): Promise<Receiver> {
  let open = 0;
  const receiver: Receiver = { server: undefined as unknown as LocalServer, received: [], replies: [200], held: [], peakOpen: 0 };
  receiver.server = await start((request, response) => {
    open++;
    receiver.peakOpen = Math.max(receiver.peakOpen, open);
    response.on('close', () => open--);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      receiver.received.push({ url: request.url ?? '', headers: request.headers as IncomingMessage['headers'], body: Buffer.concat(chunks).toString('utf8') });
      const reply = receiver.replies.length > 1 ? receiver.replies.shift()! : receiver.replies[0]!;
      if (reply === 'hold') return void receiver.held.push(response as ServerResponse);
      const { status, headers = {} } = typeof reply === 'number' ? { status: reply } : reply;
      response.writeHead(status, headers);
      response.end(status === 200 ? 'ok' : 'no');
    });
  });
  return receiver;
}

function reset(receiver: Receiver): void {
  for (const response of receiver.held.splice(0)) response.destroy();
  receiver.received.length = 0;
  receiver.replies = [200];
  receiver.peakOpen = 0;
}

/** Polls `probe` until it returns something, or fails after a deadline. */
async function until<T>(probe: () => Promise<T | undefined> | T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const payload = (type: string, webhookId: string) =>
  JSON.stringify({
    success: true,
    type,
    id: 'job-1',
    webhookId,
    data: [{ markdown: '# Café “ü”', metadata: { statusCode: 200 } }],
    metadata: { tenant: 'acme', run: 7 },
  });

function webhookEvent(id: string, url: string, clock: ManualClock, overrides: Partial<OutboxEvent> = {}): OutboxEvent {
  return {
    id,
    jobId: 'job-1',
    teamId: 'team-a',
    url,
    headers: { Authorization: 'Bearer hook-token', 'X-Custom': 'yes' },
    body: payload('crawl.page', id),
    createdAt: clock.now(),
    ...overrides,
  };
}

const entryOf = async (outbox: WebhookOutbox, id: string): Promise<OutboxEntry> => (await outbox.list()).find((entry) => entry.id === id)!;

let tlsPair: { key: string; cert: string };
let secure: Receiver;
let plain: Receiver;

beforeAll(async () => {
  tlsPair = await selfSignedCertificate();
  secure = await startReceiver((handler) => startHttps(handler, tlsPair));
  plain = await startReceiver(startHttp);
});
afterAll(async () => {
  await secure.server.close();
  await plain.server.close();
});
afterEach(() => {
  reset(secure);
  reset(plain);
});

describe('webhookBackoff', () => {
  it('doubles from about 1 s, spread by ±20 %, capped at 1 h', () => {
    expect([1, 2, 3, 4].map((attempt) => webhookBackoff(attempt, () => 0.5))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(webhookBackoff(1, () => 0)).toBe(800);
    expect(webhookBackoff(1, () => 1)).toBe(1_200);
    expect(webhookBackoff(13, () => 0.5)).toBe(3_600_000);
    expect(webhookBackoff(40, () => 1)).toBe(3_600_000);
  });
});

describe('WebhookDeliverer', () => {
  let clock: ManualClock;
  let outbox: MemoryWebhookOutbox;
  const deliverers: WebhookDeliverer[] = [];

  /** A deliverer trusting the test certificate; stopped after the test. */
  const deliverer = (options: Partial<WebhookDelivererOptions> = {}) => {
    const created = new WebhookDeliverer({
      outbox,
      clock,
      allowPrivateHosts: ['127.0.0.1'],
      allowHttp: false,
      ca: tlsPair.cert,
      backoff: (attempt) => 1_000 * attempt,
      ...options,
    });
    deliverers.push(created);
    return created;
  };

  beforeEach(() => {
    clock = new ManualClock();
    outbox = new MemoryWebhookOutbox(clock);
  });
  afterEach(async () => {
    await Promise.all(deliverers.splice(0).map((created) => created.stop()));
  });

  it('POSTs the exact body over https with the user headers, its own headers and a signature the receiver can verify', async () => {
    const event = webhookEvent('d-1', `${secure.server.origin}/hooks/quarry?source=test`, clock, {
      headers: { Authorization: 'Bearer hook-token', 'Content-Length': '1', 'x-quarry-delivery': 'spoofed' },
    });
    await outbox.add([event]);
    await deliverer({ secret: async (teamId) => (teamId === 'team-a' ? 'team-a-secret' : undefined) }).drain();

    expect(secure.received).toHaveLength(1);
    const [received] = secure.received;
    expect(received!.url).toBe('/hooks/quarry?source=test');
    expect(received!.body).toBe(event.body);
    expect(JSON.parse(received!.body)).toMatchObject({ type: 'crawl.page', webhookId: 'd-1', metadata: { tenant: 'acme', run: 7 } });
    expect(received!.headers).toMatchObject({
      authorization: 'Bearer hook-token',
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(event.body)),
      'user-agent': 'Quarry-Webhooks',
      'x-quarry-event': 'crawl.page',
      'x-quarry-delivery': 'd-1',
    });
    expect(verifyWebhookSignature(received!.body, 'team-a-secret', received!.headers['x-quarry-signature'])).toBe(true);
    expect(received!.headers['x-firecrawl-signature']).toBe(received!.headers['x-quarry-signature']);
    expect(await entryOf(outbox, 'd-1')).toMatchObject({ state: 'delivered', attempts: 0, finishedAt: clock.now() });
  });

  it('delivers over http when allowed, unsigned when the team has no secret', async () => {
    await outbox.add([webhookEvent('d-2', `${plain.server.origin}/in`, clock, { teamId: 'team-b' })]);
    await deliverer({ allowHttp: true, secret: (teamId) => (teamId === 'team-a' ? 'team-a-secret' : undefined) }).drain();

    expect(plain.received).toHaveLength(1);
    expect(plain.received[0]!.headers).toMatchObject({ 'x-custom': 'yes', 'x-quarry-delivery': 'd-2' });
    expect(plain.received[0]!.headers).not.toHaveProperty('x-quarry-signature');
    expect(plain.received[0]!.headers).not.toHaveProperty('x-firecrawl-signature');
    expect((await entryOf(outbox, 'd-2')).state).toBe('delivered');
  });

  it('retries after a 500 with backoff, then delivers (attempts recorded)', async () => {
    secure.replies = [500, 502, 200];
    await outbox.add([webhookEvent('r-1', `${secure.server.origin}/flaky`, clock)]);
    const sender = deliverer();
    const start = clock.now();

    await sender.drain();
    expect(await entryOf(outbox, 'r-1')).toMatchObject({
      state: 'pending',
      attempts: 1,
      nextAttemptAt: start + 1_000,
      lastError: 'HTTP 500 Internal Server Error',
    });
    await sender.drain(); // not due yet: nothing sent
    expect(secure.received).toHaveLength(1);

    clock.advance(1_000);
    await sender.drain();
    expect(await entryOf(outbox, 'r-1')).toMatchObject({ state: 'pending', attempts: 2, nextAttemptAt: start + 3_000, lastError: 'HTTP 502 Bad Gateway' });

    clock.advance(2_000);
    await sender.drain();
    expect(await entryOf(outbox, 'r-1')).toMatchObject({ state: 'delivered', attempts: 2 });
    expect(secure.received.map((request) => request.headers['x-quarry-delivery'])).toEqual(['r-1', 'r-1', 'r-1']);
  });

  it('gives up after maxAttempts with the last error', async () => {
    secure.replies = [503];
    await outbox.add([webhookEvent('g-1', `${secure.server.origin}/down`, clock)]);
    const logged: string[] = [];
    const sender = deliverer({ maxAttempts: 3, logger: { warn: (details, message) => logged.push(`${message} (attempt ${String(details.attempt)})`) } });
    for (let round = 0; round < 5; round++) {
      await sender.drain();
      clock.advance(3_600_000);
    }
    expect(secure.received).toHaveLength(3);
    expect(logged).toEqual([
      'webhook attempt failed; will retry (attempt 1)',
      'webhook attempt failed; will retry (attempt 2)',
      'webhook failed on its last attempt; giving up (attempt 3)',
    ]);
    expect(await entryOf(outbox, 'g-1')).toMatchObject({ state: 'failed', attempts: 3, lastError: 'gave up after 3 attempts: HTTP 503 Service Unavailable' });
  });

  it('counts a timeout as a failed attempt', async () => {
    secure.replies = ['hold', 200];
    await outbox.add([webhookEvent('t-1', `${secure.server.origin}/slow`, clock)]);
    const sender = deliverer({ timeoutMs: 300 });
    await sender.drain();
    expect(await entryOf(outbox, 't-1')).toMatchObject({ state: 'pending', attempts: 1, lastError: 'timed out after 300 ms' });
    clock.advance(1_000);
    await sender.drain();
    expect((await entryOf(outbox, 't-1')).state).toBe('delivered');
  });

  it('verifies the receiver certificate: an untrusted one is a failed attempt', async () => {
    await outbox.add([webhookEvent('u-1', `${secure.server.origin}/untrusted`, clock)]);
    await deliverer({ ca: undefined }).drain();
    expect(secure.received).toHaveLength(0);
    expect(await entryOf(outbox, 'u-1')).toMatchObject({ state: 'pending', attempts: 1, lastError: 'DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate' });
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    secure.replies = [{ status: 302, headers: { location: `${secure.server.origin}/elsewhere` } }];
    await outbox.add([webhookEvent('x-1', `${secure.server.origin}/moved`, clock)]);
    await deliverer().drain();
    expect(secure.received.map((request) => request.url)).toEqual(['/moved']);
    expect(await entryOf(outbox, 'x-1')).toMatchObject({ state: 'pending', attempts: 1, lastError: 'HTTP 302 Found (redirects are not followed)' });
  });

  it('refuses private receivers unless allowed, and marks them failed at once', async () => {
    const connectionsBefore = secure.server.connections();
    const resolve = tableResolver({ 'site.test': ['127.0.0.1'] });
    const url = new URL(secure.server.origin);
    await outbox.add([webhookEvent('p-ip', `${secure.server.origin}/in`, clock), webhookEvent('p-name', `https://site.test:${url.port}/in`, clock)]);
    await deliverer({ allowPrivateHosts: [], resolve }).drain();

    const failed = await outbox.list({ state: 'failed' });
    expect(failed.map((entry) => [entry.id, entry.attempts])).toEqual([
      ['p-ip', 0],
      ['p-name', 0],
    ]);
    expect(failed[0]!.lastError).toMatch(/^Refused to connect to 127\.0\.0\.1:\d+: .*loopback.*`allowPrivateHosts` option of the WebhookDeliverer/);
    expect(failed[1]!.lastError).toMatch(/^Refused to connect to site\.test: it resolves to 127\.0\.0\.1, a loopback address/);
    expect(secure.server.connections()).toBe(connectionsBefore);
    expect(secure.received).toHaveLength(0);
  });

  it('connects an allowed host name to the address the guard checked', async () => {
    const resolve = tableResolver({ 'site.test': ['127.0.0.1'] });
    await outbox.add([webhookEvent('n-1', `https://site.test:${new URL(secure.server.origin).port}/named`, clock)]);
    await deliverer({ allowPrivateHosts: ['site.test'], resolve }).drain();
    expect(resolve.calls).toEqual(['site.test']);
    expect(secure.received.map((request) => [request.url, request.headers.host])).toEqual([['/named', `site.test:${new URL(secure.server.origin).port}`]]);
    expect((await entryOf(outbox, 'n-1')).state).toBe('delivered');
  });

  it('refuses http receivers unless allowHttp, and marks them failed at once', async () => {
    const connectionsBefore = plain.server.connections();
    await outbox.add([webhookEvent('h-1', `${plain.server.origin}/in`, clock)]);
    await deliverer().drain();
    expect(await entryOf(outbox, 'h-1')).toMatchObject({
      state: 'failed',
      attempts: 0,
      lastError: `\`webhook.url\`: webhook URLs must use https; allow http with QUARRY_WEBHOOK_ALLOW_HTTP=true; got "${plain.server.origin}/in"`,
    });
    expect(plain.server.connections()).toBe(connectionsBefore);
  });

  it('marks an event whose headers cannot be sent failed at once', async () => {
    await outbox.add([webhookEvent('v-1', `${secure.server.origin}/in`, clock, { headers: { 'X-Bad': 'line\r\nInjected: yes' } })]);
    await deliverer().drain();
    expect(await entryOf(outbox, 'v-1')).toMatchObject({ state: 'failed', attempts: 0 });
    expect((await entryOf(outbox, 'v-1')).lastError).toMatch(/^headers must be valid HTTP header names and values; .*X-Bad/);
    expect(secure.received).toHaveLength(0);
  });

  it('keeps events across a restart: a stopped deliverer leaves them to the next one', async () => {
    secure.replies = [503, 200];
    await outbox.add([webhookEvent('s-1', `${secure.server.origin}/restart`, clock), webhookEvent('s-2', `${secure.server.origin}/restart`, clock)]);
    const first = deliverer({ concurrency: 1 });
    first.start();
    // s-1 fails once; s-2 goes out and is delivered; then stop.
    await until(async () => ((await entryOf(outbox, 's-2')).state === 'delivered' ? true : undefined), 's-2 delivered');
    await first.stop();
    expect(await entryOf(outbox, 's-1')).toMatchObject({ state: 'pending', attempts: 1, lastError: 'HTTP 503 Service Unavailable' });

    clock.advance(1_000);
    const second = deliverer();
    second.start();
    await until(async () => ((await entryOf(outbox, 's-1')).state === 'delivered' ? true : undefined), 's-1 delivered');
    await second.stop();
    expect(secure.received.map((request) => request.headers['x-quarry-delivery'])).toEqual(['s-1', 's-2', 's-1']);
  });

  it('stop() waits for the post in flight and records it', async () => {
    secure.replies = ['hold'];
    await outbox.add([webhookEvent('w-1', `${secure.server.origin}/held`, clock)]);
    const sender = deliverer();
    sender.start();
    await until(() => secure.held[0], 'the receiver to hold the request');
    const stopping = sender.stop();
    secure.held[0]!.writeHead(204).end();
    await stopping;
    expect((await entryOf(outbox, 'w-1')).state).toBe('delivered');
  });

  it('delivers at least once: a post whose success was not recorded is sent again after its lease', async () => {
    await outbox.add([webhookEvent('a-1', `${secure.server.origin}/twice`, clock)]);
    // The first deliverer "dies" between the receiver's 2xx and markDelivered.
    const crashing = new Proxy(outbox, {
      get: (target, name: keyof WebhookOutbox) =>
        name === 'markDelivered' ? () => Promise.reject(new Error('process died')) : (target[name] as (...args: unknown[]) => unknown).bind(target),
    });
    await deliverer({ outbox: crashing }).drain();
    expect(await entryOf(outbox, 'a-1')).toMatchObject({ state: 'pending', attempts: 0 });

    await deliverer().drain(); // still leased by the dead deliverer
    expect(secure.received).toHaveLength(1);
    clock.advance(60_000);
    await deliverer().drain();
    expect((await entryOf(outbox, 'a-1')).state).toBe('delivered');
    expect(secure.received.map((request) => request.headers['x-quarry-delivery'])).toEqual(['a-1', 'a-1']);
  });

  it('sends a job’s last event after its other events, as soon as they are done', async () => {
    secure.replies = ['hold'];
    const url = `${secure.server.origin}/ordered`;
    await outbox.add([
      webhookEvent('o-page-1', url, clock),
      webhookEvent('o-page-2', url, clock),
      webhookEvent('o-completed', url, clock, { body: payload('crawl.completed', 'o-completed'), phase: 'last' }),
      webhookEvent('o-other-job', url, clock, { jobId: 'job-2' }),
    ]);
    // The clock never moves: the deliverer's poll interval never passes, so the completed event can
    // only go out because the end of the last page's post wakes the deliverer.
    const sender = deliverer({ pollMs: 60_000 });
    sender.start();
    await until(() => (secure.held.length === 3 ? true : undefined), 'both pages and the other job’s event in flight');
    const sent = () => secure.received.map((request) => request.headers['x-quarry-delivery']);
    expect(sent().sort()).toEqual(['o-other-job', 'o-page-1', 'o-page-2']);
    secure.replies = [200];
    for (const response of secure.held.splice(0)) response.writeHead(200).end();
    await until(async () => ((await entryOf(outbox, 'o-completed')).state === 'delivered' ? true : undefined), 'the completed event delivered');
    expect(sent()).toHaveLength(4);
    expect(sent()[3]).toBe('o-completed');
  });

  it('sends a job’s pages after its started event, as soon as it is done', async () => {
    secure.replies = ['hold'];
    const url = `${secure.server.origin}/started-first`;
    await outbox.add([
      webhookEvent('s-started', url, clock, { body: payload('crawl.started', 's-started'), phase: 'first' }),
      webhookEvent('s-page-1', url, clock),
      webhookEvent('s-page-2', url, clock),
      webhookEvent('s-completed', url, clock, { body: payload('crawl.completed', 's-completed'), phase: 'last' }),
    ]);
    // The clock never moves: the pages can only go out because the end of started's post wakes the deliverer.
    const sender = deliverer({ pollMs: 60_000 });
    sender.start();
    await until(() => (secure.held.length === 1 ? true : undefined), 'the started event in flight');
    const sent = () => secure.received.map((request) => request.headers['x-quarry-delivery']);
    expect(sent()).toEqual(['s-started']);
    secure.held.splice(0)[0]!.writeHead(200).end();
    await until(() => (secure.held.length === 2 ? true : undefined), 'both pages in flight');
    expect(sent().slice(1).sort()).toEqual(['s-page-1', 's-page-2']);
    secure.replies = [200];
    for (const response of secure.held.splice(0)) response.writeHead(200).end();
    await until(async () => ((await entryOf(outbox, 's-completed')).state === 'delivered' ? true : undefined), 'the completed event delivered');
    expect(sent()).toHaveLength(4);
    expect(sent()[3]).toBe('s-completed');
  });

  it('keeps at most `concurrency` posts in flight', async () => {
    await outbox.add(Array.from({ length: 12 }, (_, index) => webhookEvent(`c-${index}`, `${secure.server.origin}/many`, clock)));
    const sender = deliverer({ concurrency: 3 });
    sender.start();
    await until(async () => ((await outbox.list({ state: 'delivered' })).length === 12 ? true : undefined), 'all delivered');
    await sender.stop();
    expect(secure.received).toHaveLength(12);
    expect(secure.peakOpen).toBeLessThanOrEqual(3);
  });
});

describe('WebhookDeliverer on the SQLite outbox', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps undelivered events in the database file across a restart of the process', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'quarry-webhooks-'));
    dirs.push(dataDir);
    const clock = new ManualClock();
    const options = { clock, allowPrivateHosts: ['127.0.0.1'], allowHttp: false, ca: tlsPair.cert, backoff: () => 1_000 };
    secure.replies = [503, 200];

    const before = createSqliteStorage({ dataDir, clock });
    await before.outbox.add([webhookEvent('q-1', `${secure.server.origin}/sqlite`, clock)]);
    const first = new WebhookDeliverer({ ...options, outbox: before.outbox });
    await first.drain();
    await first.stop();
    before.close();

    clock.advance(1_000);
    const after = createSqliteStorage({ dataDir, clock });
    try {
      const second = new WebhookDeliverer({ ...options, outbox: after.outbox });
      await second.drain();
      await second.stop();
      expect(await after.outbox.list()).toMatchObject([{ id: 'q-1', state: 'delivered', attempts: 1, lastError: 'HTTP 503 Service Unavailable' }]);
      expect(secure.received.map((request) => request.body)).toEqual([payload('crawl.page', 'q-1'), payload('crawl.page', 'q-1')]);
    } finally {
      after.close();
    }
  });
});

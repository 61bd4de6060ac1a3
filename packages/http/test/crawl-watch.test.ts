import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import Firecrawl from '@mendable/firecrawl-js';
import { startTestServer, waitFor, type TestServer } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';
import { runWithNode22 } from './support/node22.js';

/**
 * Live crawl watching over WebSockets (`/v{1,2}/crawl/{id}`, `/v{1,2}/batch/scrape/{id}`), the
 * API key as the sub-protocol: raw `ws` clients for the protocol and refusals, the official SDK's
 * watchers on Node 22 (global WebSocket) and its polling fallback on Node 20.
 */
const pages = ['/a', '/b', '/c', '/d', '/e'];
let site: TestServer;
let quarry: TestQuarry;
let key: string;
let otherKey: string;

beforeAll(async () => {
  // Each page answers after a short delay, so a watcher connected early sees pages arrive one by one.
  site = await startTestServer(async (_request, response, url) => {
    await new Promise((resolve) => setTimeout(resolve, url.pathname === '/' ? 0 : 150));
    const links = url.pathname === '/' ? pages.map((path) => `<a href="${path}">${path}</a>`).join(' ') : '';
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<html><head><title>Page ${url.pathname}</title></head><body><h1>Page ${url.pathname}</h1><p>Words on ${url.pathname}.</p>${links}</body></html>`,
    );
  });
  quarry = await startQuarry({ QUARRY_RATE_LIMITS: '' });
  await quarry.services.ledger.ensureTeam('acme', 'acme');
  await quarry.services.ledger.ensureTeam('other', 'other');
  key = (await quarry.services.ledger.createKey('acme', 'watch')).key;
  otherKey = (await quarry.services.ledger.createKey('other', 'other')).key;
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await site?.close();
});

const wsUrl = (path: string) => `${quarry.url.replace(/^http/, 'ws')}${path}`;
const allUrls = () => ['/', ...pages].map((path) => `${site.url}${path}`).sort();

async function startCrawl(apiKey = key): Promise<string> {
  const response = await fetch(`${quarry.url}/v2/crawl`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${site.url}/`, limit: 10, scrapeOptions: { maxAge: 0 } }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

interface Watched {
  messages: Array<{ type: string; data?: any; error?: string }>;
  closeCode: number;
  closeReason: string;
}

function watch(path: string, protocol?: string): Promise<Watched> {
  return new Promise((resolve, reject) => {
    const socket = protocol === undefined ? new WebSocket(wsUrl(path)) : new WebSocket(wsUrl(path), protocol);
    const messages: Watched['messages'] = [];
    socket.on('message', (data) => messages.push(JSON.parse(String(data))));
    socket.on('close', (code, reason) => resolve({ messages, closeCode: code, closeReason: String(reason) }));
    socket.on('error', reject);
  });
}

/** The HTTP status of a refused handshake. */
function refusal(path: string, protocol?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = protocol === undefined ? new WebSocket(wsUrl(path)) : new WebSocket(wsUrl(path), protocol);
    socket.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('open', () => reject(new Error('handshake accepted')));
    socket.on('error', () => undefined);
  });
}

const documentUrls = (watched: Watched) =>
  [
    ...(watched.messages.find((message) => message.type === 'catchup')?.data.data ?? []),
    ...watched.messages.filter((message) => message.type === 'document').map((message) => message.data),
  ].map((document: { metadata: { sourceURL: string } }) => document.metadata.sourceURL);

describe('crawl watch (WebSocket)', () => {
  it('streams catchup, one document per page, then done (also as the close reason)', async () => {
    const id = await startCrawl();
    const watched = await watch(`/v2/crawl/${id}`, key);
    expect(watched.messages[0]?.type).toBe('catchup');
    expect(watched.messages[0]?.data).toMatchObject({ status: expect.any(String), data: expect.any(Array) });
    expect(watched.messages.some((message) => message.type === 'document')).toBe(true);
    expect(documentUrls(watched).sort()).toEqual(allUrls());
    expect(watched.messages.at(-1)).toMatchObject({ type: 'done', data: { status: 'completed', completed: 6, total: 6 } });
    expect(watched.closeCode).toBe(1000);
    expect(JSON.parse(watched.closeReason)).toEqual({ type: 'done' });
  });

  it('after the crawl finished: catchup holds every document, then done', async () => {
    const id = await startCrawl();
    await waitFor(async () => (await new Firecrawl({ apiKey: key, apiUrl: quarry.url }).getCrawlStatus(id)).status === 'completed');
    const watched = await watch(`/v1/crawl/${id}`, key);
    expect(watched.messages.map((message) => message.type)).toEqual(['catchup', 'done']);
    expect(watched.messages[0]?.data.status).toBe('completed');
    expect(documentUrls(watched).sort()).toEqual(allUrls());
  });

  it('batch scrapes are watched on /batch/scrape/{id} and on /v1/crawl/{id}', async () => {
    const response = await fetch(`${quarry.url}/v2/batch/scrape`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ urls: [`${site.url}/a`, `${site.url}/b`], maxAge: 0 }),
    });
    const { id } = (await response.json()) as { id: string };
    const [onBatch, onCrawl] = await Promise.all([watch(`/v2/batch/scrape/${id}`, key), watch(`/v1/crawl/${id}`, key)]);
    for (const watched of [onBatch, onCrawl]) {
      expect(documentUrls(watched).sort()).toEqual([`${site.url}/a`, `${site.url}/b`]);
      expect(watched.messages.at(-1)?.type).toBe('done');
    }
  });

  it('a cancelled crawl ends the watch with error, also as the close reason', async () => {
    const id = await startCrawl();
    const watching = watch(`/v2/crawl/${id}`, key);
    await fetch(`${quarry.url}/v2/crawl/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
    const watched = await watching;
    expect(watched.messages.at(-1)).toMatchObject({ type: 'error', error: expect.stringMatching(/cancel/i) });
    expect(JSON.parse(watched.closeReason)).toMatchObject({ type: 'error' });
  });

  it("refuses the handshake without a key, with a wrong key, and for another team's or an unknown id", async () => {
    const id = await startCrawl();
    expect(await refusal(`/v2/crawl/${id}`)).toBe(401);
    expect(await refusal(`/v2/crawl/${id}`, 'fc-not-a-key')).toBe(401);
    expect(await refusal(`/v2/crawl/${id}`, otherKey)).toBe(404);
    expect(await refusal(`/v1/crawl/${id}`, otherKey)).toBe(404);
    expect(await refusal(`/v2/batch/scrape/${id}`, key)).toBe(404);
    expect(await refusal('/v2/crawl/00000000-0000-4000-8000-000000000000', key)).toBe(404);
  });

  it('the SDK watcher on Node 20 (no global WebSocket) falls back to polling and still finishes', async () => {
    const firecrawl = new Firecrawl({ apiKey: key, apiUrl: quarry.url });
    const started = await firecrawl.startCrawl(`${site.url}/`, { limit: 10 });
    const watcher = firecrawl.watcher(started.id, { kind: 'crawl', pollInterval: 0.2 });
    const seen = new Set<string>();
    watcher.on('document', (document: { metadata?: { sourceURL?: string } }) => seen.add(document.metadata?.sourceURL ?? ''));
    const status = await new Promise<string>((resolve) => {
      watcher.on('done', (state: { status: string }) => resolve(state.status));
      watcher.on('error', (state: { error?: string }) => resolve(`error: ${state.error}`));
      void watcher.start();
    });
    expect(status).toBe('completed');
    expect([...seen].sort()).toEqual(allUrls());
  });
});

describe('crawl watch with the official SDK on Node 22 (global WebSocket)', () => {
  const script = fileURLToPath(new URL('./support/watch-with-sdk.mjs', import.meta.url));
  const sdk = async (...args: string[]) => JSON.parse((await runWithNode22(script, args)).trim().split('\n').at(-1) ?? '{}');

  it('v2 watcher(): every page as a document event, then done', async () => {
    const result = await sdk('v2', quarry.url, key, `${site.url}/`);
    expect(result.node).toMatch(/^v22\./);
    expect(result.globalWebSocket).toBe('function');
    expect(result).toMatchObject({ event: 'done', status: 'completed' });
    expect([...new Set(result.urls as string[])].sort()).toEqual(allUrls());
  }, 300_000);

  it("v2 watcher() on another team's crawl: an error, not its pages", async () => {
    const id = await startCrawl(otherKey);
    expect(await sdk('v2-other-id', quarry.url, key, id)).toEqual({ event: 'error', error: 'WebSocket error' });
  }, 300_000);

  it('v1 crawlUrlAndWatch and batchScrapeUrlsAndWatch: documents, then done', async () => {
    const crawl = await sdk('v1', quarry.url, key, `${site.url}/`);
    // (the v1 watcher's done carries only the catchup documents: its own bookkeeping)
    expect(crawl).toMatchObject({ event: 'done', status: 'completed' });
    expect([...new Set(crawl.urls as string[])].sort()).toEqual(allUrls());
    const batch = await sdk('v1-batch', quarry.url, key, `${site.url}/c,${site.url}/d`);
    expect(batch).toMatchObject({ event: 'done' });
    expect([...new Set(batch.urls as string[])].sort()).toEqual([`${site.url}/c`, `${site.url}/d`]);
  }, 300_000);
});

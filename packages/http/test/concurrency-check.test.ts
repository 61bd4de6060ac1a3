import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl from '@mendable/firecrawl-js';
import { startTestServer, waitFor, type TestServer } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/** /concurrency-check reports the calling team's own work, never another team's. */
let slow: TestServer;
let quarry: TestQuarry;
let release: () => void = () => undefined;
const gate = new Promise<void>((resolve) => (release = resolve));

beforeAll(async () => {
  slow = await startTestServer(async (_request, response, url) => {
    if (url.pathname === '/robots.txt') return void response.writeHead(404).end();
    if (url.pathname !== '/') await gate; // every page but the start waits until the test lets go
    const links = Array.from({ length: 6 }, (_, index) => `<a href="/p${index}">p${index}</a>`).join(' ');
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(`<html><head><title>Slow</title></head><body><main><p>Pages that take their time.</p>${links}</main></body></html>`);
  });
  quarry = await startQuarry({ QUARRY_RATE_LIMITS: '' });
});

afterAll(async () => {
  release();
  await quarry?.close();
  await slow?.close();
});

describe('concurrency-check', () => {
  it("counts the calling team's pages in flight, and shows another team none of them", async () => {
    const ledger = quarry.services.ledger;
    await ledger.ensureTeam('busy', 'busy');
    await ledger.ensureTeam('idle', 'idle');
    const busy = new Firecrawl({ apiKey: (await ledger.createKey('busy', 'k')).key, apiUrl: quarry.url });
    const idle = new Firecrawl({ apiKey: (await ledger.createKey('idle', 'k')).key, apiUrl: quarry.url });
    const started = await busy.startCrawl(`${slow.url}/`, { limit: 7 });
    const seen = await waitFor(
      async () => {
        const { concurrency } = await busy.getConcurrency();
        return concurrency > 0 ? concurrency : undefined;
      },
      { timeoutMs: 15_000, message: 'the busy team to have pages in flight' },
    );
    expect(seen).toBeGreaterThan(0);
    expect((await idle.getConcurrency()).concurrency).toBe(0);
    release();
    await waitFor(async () => ((await busy.getCrawlStatus(started.id)).status === 'completed' ? true : undefined), { timeoutMs: 30_000, message: 'crawl end' });
    expect((await busy.getConcurrency()).concurrency).toBe(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, waitFor, type TestServer } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/** A team's pages in flight never exceed QUARRY_TEAM_CONCURRENCY, across its crawls and batches. */
let site: TestServer;
let quarry: TestQuarry;
let active = 0;
let peak = 0;

beforeAll(async () => {
  site = await startTestServer(async (_request, response, url) => {
    active++;
    peak = Math.max(peak, active);
    await new Promise((resolve) => setTimeout(resolve, 80));
    active--;
    const index = Number(/\d+/.exec(url.pathname)?.[0] ?? 0);
    const links = Array.from({ length: 12 }, (_, next) => `<a href="/p${next}">p${next}</a>`).join(' ');
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(`<html><body><main><h1>Page ${index}</h1><p>Some text for page ${index} that is long enough.</p>${links}</main></body></html>`);
  });
  quarry = await startQuarry({ QUARRY_TEAM_CONCURRENCY: '2' });
});

afterAll(async () => {
  await quarry?.close();
  await site?.close();
});

describe('team concurrency', () => {
  it('peaks at exactly the team limit with a crawl and a batch at once', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${quarry.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
        (response) => response.json() as Promise<{ id: string }>,
      );
    const crawl = await post('/v2/crawl', { url: `${site.url}/p0`, crawlEntireDomain: true, sitemap: 'skip', maxConcurrency: 10, ignoreRobotsTxt: true });
    const batch = await post('/v2/batch/scrape', { urls: Array.from({ length: 6 }, (_, index) => `${site.url}/b${index}`), maxConcurrency: 10 });
    for (const [route, id] of [
      ['crawl', crawl.id],
      ['batch/scrape', batch.id],
    ] as const) {
      await waitFor(async () => ((await (await fetch(`${quarry.url}/v2/${route}/${id}`)).json()) as { status: string }).status === 'completed', {
        timeoutMs: 30_000,
      });
    }
    expect(peak).toBe(2);
  });
});

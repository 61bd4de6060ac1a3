import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { findChromium } from '@quarry/adapters';
import { startTestServer, waitFor, type TestServer } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';
import { articlePage } from './support/mutable-site.js';

/**
 * Targets that cannot be reached are the target's error, never "unexpected": a name that does not
 * resolve or a closed port answers a single scrape 422 naming the host (in both engines), is a
 * per-page error in a crawl, and a crawl or map whose start URL is refused or unreachable says so.
 */
let quarry: TestQuarry;
let site: TestServer;
let closedPort: number;
const hasBrowser = findChromium(process.env.QUARRY_CHROMIUM_PATH) !== undefined || process.env.CI === 'true';

beforeAll(async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  site = await startTestServer((_request, response, url) => {
    if (url.pathname === '/to-private') {
      response.writeHead(302, { location: 'http://10.255.255.1/' });
      response.end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(articlePage('Links out', ['A page linking to a closed port.'], { links: [`http://127.0.0.1:${closedPort}/gone`] }));
  });
  quarry = await startQuarry();
});

afterAll(async () => {
  await quarry?.close();
  await site?.close();
});

async function post(path: string, body: unknown) {
  const response = await fetch(`${quarry.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as { success: boolean; error?: string; code?: string; id?: string; links?: unknown[] } };
}

async function crawlEnd(id: string) {
  return waitFor(
    async () => {
      const answer = (await (await fetch(`${quarry.url}/v1/crawl/${id}`)).json()) as { status: string; error?: string; data: unknown[] };
      return answer.status === 'scraping' ? undefined : answer;
    },
    { timeoutMs: 30_000, message: 'crawl end' },
  );
}

describe('a target that cannot be reached, single scrape', () => {
  it('a host name that does not resolve is a 422 naming the host', async () => {
    const { status, body } = await post('/v1/scrape', { url: 'http://nothing.invalid/' });
    expect(status).toBe(422);
    expect(body).toMatchObject({ success: false, code: 'SCRAPE_DNS_RESOLUTION_ERROR' });
    expect(body.error).toMatch(/nothing\.invalid.*does not resolve/);
  });

  it('a closed port is a 422 "connection refused" naming host and port', async () => {
    const { status, body } = await post('/v2/scrape', { url: `http://127.0.0.1:${closedPort}/` });
    expect(status).toBe(422);
    expect(body).toMatchObject({ success: false, code: 'SCRAPE_SITE_ERROR' });
    expect(body.error).toContain(`127.0.0.1:${closedPort}`);
    expect(body.error).toMatch(/connection refused/);
  });

  it.skipIf(!hasBrowser)(
    'a closed port through the browser engine is the same refusal, not ERR_HTTP_RESPONSE_CODE_FAILURE',
    async () => {
      const { status, body } = await post('/v1/scrape', { url: `http://127.0.0.1:${closedPort}/`, waitFor: 50 });
      expect(status).toBe(422);
      expect(body.error).toContain(`127.0.0.1:${closedPort}`);
      expect(body.error).toMatch(/connection refused|refused the connection/);
      expect(body.error).not.toMatch(/ERR_HTTP_RESPONSE_CODE_FAILURE/);
    },
    30_000,
  );
});

describe('a target that cannot be reached, in a crawl and a map', () => {
  it('a linked page on a closed port is a per-page error of the crawl', async () => {
    const { status, body } = await post('/v1/crawl', { url: `${site.url}/`, limit: 5, allowExternalLinks: true });
    expect(status, JSON.stringify(body)).toBe(200);
    const end = await crawlEnd(body.id!);
    expect(end.status).toBe('completed');
    expect(end.data).toHaveLength(1);
    const errors = (await (await fetch(`${quarry.url}/v1/crawl/${body.id}/errors`)).json()) as { errors: Array<{ url: string; error: string }> };
    expect(errors.errors).toEqual([
      expect.objectContaining({ url: `http://127.0.0.1:${closedPort}/gone`, error: expect.stringMatching(/connection refused/) }),
    ]);
  }, 40_000);

  it.each([
    ['a closed port', () => `http://127.0.0.1:${closedPort}/`, /connection refused/],
    ['a redirect to a private address', () => `${site.url}/to-private`, /Refused to connect to 10\.255\.255\.1/],
  ])(
    'a crawl whose start URL is %s fails saying so',
    async (_name, url, reason) => {
      const { status, body } = await post('/v1/crawl', { url: url(), limit: 5 });
      expect(status).toBe(200);
      const end = await crawlEnd(body.id!);
      expect(end.status).toBe('failed');
      expect(end.error).toContain(`The start URL ${url()}`);
      expect(end.error).toMatch(reason);
    },
    40_000,
  );

  it.each([
    ['a closed port', () => `http://127.0.0.1:${closedPort}/`, 422, /connection refused/],
    ['a redirect to a private address', () => `${site.url}/to-private`, 403, /Refused to connect to 10\.255\.255\.1/],
  ])(
    'a map whose start URL is %s answers the refusal, not the start URL alone',
    async (_name, url, expected, reason) => {
      const { status, body } = await post('/v1/map', { url: url() });
      expect(status, JSON.stringify(body)).toBe(expected);
      expect(body.success).toBe(false);
      expect(body.error).toMatch(reason);
    },
    40_000,
  );
});

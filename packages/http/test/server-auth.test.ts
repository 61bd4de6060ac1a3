import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsSiteRoutes, startTestServer, waitFor, type TestServer } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/** Teams, keys, credits and rate limits through the HTTP API. */
let site: TestServer;
let quarry: TestQuarry;
let keyA: string;
let keyB: string;
let keyPoor: string;

async function call(method: string, path: string, key: string | undefined, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${quarry.url}${path}`, {
    method,
    headers: {
      ...(key !== undefined ? { authorization: `Bearer ${key}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
}

beforeAll(async () => {
  site = await startTestServer(docsSiteRoutes());
  quarry = await startQuarry({ QUARRY_RATE_LIMITS: 'map=3' });
  const ledger = quarry.services.ledger;
  await ledger.ensureTeam('alpha', 'alpha');
  await ledger.setCredits('alpha', 1_000);
  await ledger.ensureTeam('beta', 'beta');
  await ledger.setCredits('beta', 1_000);
  await ledger.ensureTeam('poor', 'poor');
  await ledger.setCredits('poor', 3);
  keyA = (await ledger.createKey('alpha', 'ci')).key;
  keyB = (await ledger.createKey('beta', 'ci')).key;
  keyPoor = (await ledger.createKey('poor', 'ci')).key;
});

afterAll(async () => {
  await quarry?.close();
  await site?.close();
});

describe('authentication', () => {
  it('requires a key once any key exists', async () => {
    expect((await call('POST', '/v2/scrape', undefined, { url: `${site.url}/about` })).status).toBe(401);
    expect((await call('POST', '/v2/scrape', '', { url: `${site.url}/about` })).status).toBe(401);
    const wrong = await call('POST', '/v2/scrape', 'fc-wrong', { url: `${site.url}/about` });
    expect(wrong).toMatchObject({ status: 401, body: { success: false, error: 'Unauthorized: Invalid token' } });
    expect((await call('POST', '/v2/scrape', keyA, { url: `${site.url}/about` })).status).toBe(200);
  });

  it('stops a revoked key on the next request', async () => {
    const created = await quarry.services.ledger.createKey('alpha', 'temporary');
    expect((await call('GET', '/v2/team/credit-usage', created.key)).status).toBe(200);
    await quarry.services.ledger.revokeKey(created.id);
    expect((await call('GET', '/v2/team/credit-usage', created.key)).status).toBe(401);
  });
});

describe('isolation', () => {
  it("answers another team's job exactly like an unknown id", async () => {
    const started = await call('POST', '/v2/crawl', keyA, { url: `${site.url}/`, limit: 2 });
    expect(started.status).toBe(200);
    const id = started.body.id as string;
    const foreign = await call('GET', `/v2/crawl/${id}`, keyB);
    const unknown = await call('GET', '/v2/crawl/00000000-0000-4000-8000-000000000000', keyB);
    expect(foreign).toMatchObject({ status: 404, body: unknown.body });
    expect((await call('GET', `/v2/crawl/${id}/errors`, keyB)).status).toBe(404);
    expect((await call('DELETE', `/v2/crawl/${id}`, keyB)).status).toBe(404);
    expect((await call('GET', `/v2/crawl/${id}`, keyA)).status).toBe(200);
    const active = await call('GET', '/v2/crawl/active', keyB);
    expect(active.body.crawls.map((crawl: { id: string }) => crawl.id)).not.toContain(id);
  });
});

describe('credits', () => {
  it('charges per page, caps a crawl at the credits left, and answers 402 when they run out', async () => {
    const crawl = await call('POST', '/v2/crawl', keyPoor, { url: `${site.url}/`, crawlEntireDomain: true, limit: 50 });
    expect(crawl.status).toBe(200);
    const done = await waitFor(async () => {
      const status = await call('GET', `/v2/crawl/${crawl.body.id}`, keyPoor);
      return status.body.status === 'completed' ? status : undefined;
    });
    expect(done.body.data).toHaveLength(3);
    expect(done.body.creditsUsed).toBe(3);
    const usage = await call('GET', '/v2/team/credit-usage', keyPoor);
    expect(usage.body.data.remainingCredits).toBe(0);
    const refused = await call('POST', '/v2/scrape', keyPoor, { url: `${site.url}/about` });
    expect(refused).toMatchObject({ status: 402, body: { success: false, error: expect.stringContaining('Insufficient credits') } });
    expect((await call('POST', '/v1/map', keyPoor, { url: `${site.url}/` })).status).toBe(402);
  });
});

describe('rate limits', () => {
  it('answers 429 with the limit headers, per team, whatever X-Forwarded-For says', async () => {
    await quarry.services.ledger.ensureTeam('gamma', 'gamma');
    const key = (await quarry.services.ledger.createKey('gamma', 'ci')).key;
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | undefined;
    // The limit is per fixed minute: on a slow machine the requests may straddle a window's end, and
    // the count starts again; so send until refused (at most two windows' worth) and check that the
    // refusal follows exactly the limit's worth of successes in its window.
    for (let index = 0; index < 8 && last?.status !== 429; index++) {
      last = await call('POST', '/v2/map', key, { url: `${site.url}/`, sitemap: 'only' }, { 'x-forwarded-for': `10.0.0.${index}` });
      statuses.push(last.status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(-4)).toEqual([200, 200, 200, 429]);
    expect(last!.headers.get('x-ratelimit-limit')).toBe('3');
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(last!.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    expect(last!.body.error).toMatch(/^Rate limit exceeded/);
    // Another team is not affected.
    expect((await call('POST', '/v2/map', keyA, { url: `${site.url}/`, sitemap: 'only' })).status).toBe(200);
  });
});

describe('statuses of the reference', () => {
  it('408 for a scrape or map that runs out of time, 422 for a target that refuses the connection', async () => {
    const slow = await startTestServer({ '/slow': () => new Promise<void>(() => undefined) });
    try {
      const scrape = await call('POST', '/v2/scrape', keyA, { url: `${slow.url}/slow`, timeout: 1_000 });
      expect(scrape).toMatchObject({ status: 408, body: { success: false, code: 'SCRAPE_TIMEOUT' } });
      const map = await call('POST', '/v2/map', keyB, { url: `${site.url}/`, timeout: 1 });
      expect(map).toMatchObject({ status: 408, body: { success: false, error: 'Map timed out' } });
    } finally {
      await slow.close();
    }
    // A closed port is the target's refusal (Firecrawl's SCRAPE_SITE_ERROR), not a server failure.
    const refused = await call('POST', '/v2/scrape', keyA, { url: 'http://127.0.0.1:9/' });
    expect(refused).toMatchObject({ status: 422, body: { success: false, code: 'SCRAPE_SITE_ERROR' } });
  });
});

describe('bad bodies are a 400 naming the field', () => {
  const cases: Array<[string, string, unknown, RegExp]> = [
    ['POST', '/v2/scrape', {}, /`url` is required/],
    ['POST', '/v2/scrape', { url: 'ftp://x.com' }, /`url` must use http or https/],
    ['POST', '/v2/scrape', { url: 'https://a.com', formats: ['pdfs'] }, /`formats\[0\]\.type` must be one of/],
    ['POST', '/v1/scrape', { url: 'https://a.com', timeout: -1 }, /`timeout` must be >= 1000/],
    ['POST', '/v2/scrape', { url: 'https://a.com', waitFor: 40_000, timeout: 60_000 }, /waitFor/],
    ['POST', '/v2/scrape', { url: 'https://a.com', unknownThing: 1 }, /Unrecognized key in body: `unknownThing`/],
    ['POST', '/v2/crawl', { url: 'https://a.com', limit: 'ten' }, /`limit` must be an integer/],
    ['POST', '/v2/crawl', { url: 'https://a.com', includePaths: ['(?<=x)'] }, /includePaths\[0\]/],
    ['POST', '/v1/crawl', { url: 'https://a.com/a/b/c', maxDepth: 1 }, /URL depth exceeds the specified maxDepth/],
    ['POST', '/v2/crawl', { url: 'https://a.com', scrapeOptions: { formats: 'markdown' } }, /`scrapeOptions\.formats` must be an array/],
    ['POST', '/v2/crawl', { url: 'https://a.com', maxDepth: 2 }, /Unrecognized key in body: `maxDepth`/],
    ['POST', '/v2/batch/scrape', { urls: [] }, /`urls` must have at least 1 items/],
    ['POST', '/v1/batch/scrape', { urls: ['nope'] }, /`urls\[0\]` must/],
    ['POST', '/v2/batch/scrape', { urls: ['https://a.com'], formats: [{ type: 'markdown', extra: 1 }] }, /formats\[0\]\.extra/],
    ['POST', '/v2/map', { url: 'https://a.com', limit: 30_001 }, /`limit` must be <= 30000/],
    ['POST', '/v1/map', { url: 'https://a.com', sitemap: 'only' }, /Unrecognized key in body: `sitemap`/],
    ['GET', '/v2/crawl/some-id?skip=-1', undefined, /`skip` must be an integer >= 0/],
  ];
  it.each(cases)('%s %s', async (method, path, body, message) => {
    const response = await call(method, path, keyA, body);
    if (path.includes('some-id')) {
      expect([400, 404]).toContain(response.status);
      return;
    }
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, error: expect.stringMatching(message) });
  });

  it('a body that is not JSON', async () => {
    const response = await fetch(`${quarry.url}/v2/scrape`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keyA}`, 'content-type': 'application/json' },
      body: '{"url":',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/not valid JSON/);
  });
});

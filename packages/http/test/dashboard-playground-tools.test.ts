import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsSiteRoutes, startTestServer, tokenOf, type TestServer } from '@quarry/core/testing';
import { csrfOf, DashboardClient } from './support/dashboard-client.js';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/** The playground beyond scrape: crawl, map, search and extract (with a JSON schema), as the API answers them. */
let site: TestServer;
let quarry: TestQuarry;
let client: DashboardClient;
let csrf: string;

beforeAll(async () => {
  site = await startTestServer(docsSiteRoutes());
  quarry = await startQuarry({ QUARRY_TRANSFORM_THREADS: '1' });
  await quarry.services.ledger.ensureTeam('play', 'play');
  await quarry.services.ledger.setCredits('play', 1000);
  const { key } = await quarry.services.ledger.createKey('play', 'main');
  // A stored page for the built-in search index.
  await fetch(`${quarry.url}/v2/scrape`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${site.url}/docs/install` }),
  });
  client = new DashboardClient(quarry.url);
  await client.signIn(key);
  csrf = csrfOf((await client.page('/dashboard/playground/map')).text);
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await site?.close();
});

describe('playground tools', () => {
  it('every tool has a tab; crawl starts a job', async () => {
    const scrape = await client.page('/dashboard/playground');
    for (const tool of ['crawl', 'map', 'search', 'extract']) expect(scrape.text).toContain(`href="/dashboard/playground/${tool}"`);
    const crawl = await client.page('/dashboard/playground/crawl');
    expect(crawl.text).toContain('action="/dashboard/jobs/crawl"');
  });

  it('map lists the site’s links', async () => {
    const response = await client.post('/dashboard/playground/map', { _csrf: csrf, url: `${site.url}/docs/` });
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).toContain('id="map-links"');
    expect(text).toContain(`${site.url}/docs/install`);
  });

  it('search answers from the built-in index', async () => {
    const response = await client.post('/dashboard/playground/search', { _csrf: csrf, query: tokenOf('/docs/install'), limit: '5' });
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).toContain('id="search-results"');
    expect(text).toContain(`${site.url}/docs/install`);
  });

  it('extract with a JSON schema starts a job; bad JSON is refused naming the field', async () => {
    const schema = JSON.stringify({ type: 'object', properties: { title: { type: 'string' } } });
    const started = await client.post('/dashboard/playground/extract', { _csrf: csrf, urls: `${site.url}/docs/install`, prompt: '', schema });
    expect(started.status).toBe(303);
    const location = started.headers.get('location')!;
    expect(location).toMatch(/^\/dashboard\/jobs\/[\w-]+$/);
    await expect.poll(async () => (await client.page(location)).text, { timeout: 30_000 }).toMatch(/completed/);
    const refused = await client.post('/dashboard/playground/extract', { _csrf: csrf, urls: `${site.url}/docs/install`, prompt: '', schema: '{not json' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('`schema` must be JSON');
  });
});

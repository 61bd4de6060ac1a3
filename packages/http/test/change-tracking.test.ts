import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiDouble, type LlmDouble } from '@quarry/core/testing';
import Firecrawl, { type ScrapeOptions } from '@mendable/firecrawl-js';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';
import { articlePage, startMutableSite, type MutableSite } from './support/mutable-site.js';

/**
 * The changeTracking format through the API (v1 and v2) and the official SDK, against a local site
 * the tests change: new, same, changed (with the right diff), removed; tags keep separate
 * histories; json mode compares fields filled from structured data.
 */
let site: MutableSite;
let quarry: TestQuarry;
let firecrawl: Firecrawl;

beforeAll(async () => {
  site = await startMutableSite();
  quarry = await startQuarry();
  firecrawl = new Firecrawl({ apiKey: '', apiUrl: quarry.url });
});

afterAll(async () => {
  await quarry?.close();
  await site?.close();
});

async function scrape(version: 'v1' | 'v2', body: Record<string, unknown>) {
  const response = await fetch(`${quarry.url}/${version}/scrape`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  expect(response.status, JSON.stringify(json)).toBe(200);
  return json.data;
}

const gitDiff = { type: 'changeTracking', modes: ['git-diff'] };

describe('changeTracking', () => {
  it('says new, same, changed with the diff, then removed (v2)', async () => {
    site.set('/pricing', articlePage('Pricing', ['The basic plan costs 10 euros.', 'Support is included.']));
    const url = `${site.url}/pricing`;
    const first = await scrape('v2', { url, formats: ['markdown', gitDiff] });
    expect(first.changeTracking).toEqual({ previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' });
    expect(first.metadata.cacheState).toBeUndefined();

    const second = await scrape('v2', { url, formats: ['markdown', gitDiff] });
    expect(second.changeTracking).toMatchObject({ changeStatus: 'same', visibility: 'visible' });
    expect(Date.parse(second.changeTracking.previousScrapeAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(site.hits('/pricing')).toBe(2);

    site.set('/pricing', articlePage('Pricing', ['The basic plan costs 12 euros.', 'Support is included.']));
    const changed = await scrape('v2', { url, formats: ['markdown', gitDiff] });
    expect(changed.changeTracking.changeStatus).toBe('changed');
    expect(changed.changeTracking.diff.text).toContain('-The basic plan costs 10 euros.\n+The basic plan costs 12 euros.');
    const [file] = changed.changeTracking.diff.json.files;
    expect(file).toMatchObject({ from: 'previous', to: 'current', additions: 1, deletions: 1 });
    const changes = file.chunks.flatMap((chunk: { changes: object[] }) => chunk.changes);
    expect(changes).toContainEqual({ type: 'del', del: true, ln: 3, content: '-The basic plan costs 10 euros.' });
    expect(changes).toContainEqual({ type: 'add', add: true, ln: 3, content: '+The basic plan costs 12 euros.' });

    site.remove('/pricing');
    const removed = await scrape('v2', { url, formats: ['markdown', gitDiff] });
    expect(removed.metadata.statusCode).toBe(404);
    expect(removed.changeTracking).toMatchObject({ changeStatus: 'removed', visibility: 'visible' });
  });

  it('keeps separate histories per tag, and v1 options work', async () => {
    site.set('/tagged', articlePage('Tagged', ['Version one.']));
    const url = `${site.url}/tagged`;
    const tagged = (tag: string | null) => scrape('v2', { url, formats: ['markdown', { type: 'changeTracking', tag }] });
    expect((await tagged('daily')).changeTracking.changeStatus).toBe('new');
    expect((await tagged('daily')).changeTracking.changeStatus).toBe('same');
    expect((await tagged('weekly')).changeTracking.changeStatus).toBe('new');
    expect((await tagged(null)).changeTracking.changeStatus).toBe('new');
    site.set('/tagged', articlePage('Tagged', ['Version two.']));
    expect((await tagged('daily')).changeTracking.changeStatus).toBe('changed');
    expect((await tagged('daily')).changeTracking.changeStatus).toBe('same');
    const v1 = await scrape('v1', { url, formats: ['markdown', 'changeTracking'], changeTrackingOptions: { tag: 'weekly', modes: ['git-diff'] } });
    expect(v1.changeTracking.changeStatus).toBe('changed');
    expect(v1.changeTracking.diff.text).toContain('+Version two.');
    expect(v1.metadata.creditsUsed).toBe(1);
  });

  it('compares fields filled from structured data in json mode, and says which it could not compare', async () => {
    const product = (price: number) =>
      articlePage('Widget', ['A fine widget.'], {
        jsonLd: { '@context': 'https://schema.org', '@type': 'Product', name: 'Widget', offers: { '@type': 'Offer', price, priceCurrency: 'EUR' } },
      });
    site.set('/widget', product(10));
    const options = {
      modes: ['json'],
      schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' }, color: { type: 'string' } } },
    };
    const body = { url: `${site.url}/widget`, formats: ['markdown', 'changeTracking'], changeTrackingOptions: options };
    const first = await scrape('v1', body);
    expect(first.changeTracking.changeStatus).toBe('new');
    expect(first.metadata.creditsUsed).toBe(5);
    expect(first.warning).toContain('not compared: color');
    site.set('/widget', product(12));
    const changed = await scrape('v1', body);
    expect(changed.changeTracking).toMatchObject({ changeStatus: 'changed', json: { price: { previous: 10, current: 12 } } });
    expect(Object.keys(changed.changeTracking.json)).toEqual(['price']);
  });

  it('serves the SDK (v2 objects and v1 strings)', async () => {
    site.set('/sdk', articlePage('SDK page', ['Before.']));
    const url = `${site.url}/sdk`;
    const first = await firecrawl.scrape(url, { formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'] }] });
    expect(first.changeTracking).toMatchObject({ changeStatus: 'new', previousScrapeAt: null });
    site.set('/sdk', articlePage('SDK page', ['After.']));
    const second = await firecrawl.scrape(url, { formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'] }] });
    expect(second.changeTracking).toMatchObject({ changeStatus: 'changed' });
    expect((second.changeTracking as { diff?: { text?: string } }).diff?.text).toContain('+After.');
    const v1 = await firecrawl.v1.scrapeUrl(url, { formats: ['markdown', 'changeTracking'] });
    expect((v1 as { changeTracking?: { changeStatus?: string } }).changeTracking?.changeStatus).toBe('same');
  });

  it('reports pages of the previous crawl the new one did not reach, as hidden', async () => {
    site.set('/shop', articlePage('Shop', ['Welcome.'], { links: ['/shop/a', '/shop/b'] }));
    site.set('/shop/a', articlePage('Item A', ['Item A costs 5.']));
    site.set('/shop/b', articlePage('Item B', ['Item B costs 7.']));
    const options = {
      limit: 10,
      sitemap: 'skip' as const,
      scrapeOptions: { formats: ['markdown' as const, { type: 'changeTracking' as const, modes: ['git-diff' as const], tag: 'crawls' }] },
    };
    const first = await firecrawl.crawl(`${site.url}/shop`, { ...options, pollInterval: 1, timeout: 60 });
    expect(first.data.map((page) => page.changeTracking?.changeStatus)).toEqual(['new', 'new', 'new']);

    // /shop/b is no longer linked, /shop/a changed.
    site.set('/shop', articlePage('Shop', ['Welcome.'], { links: ['/shop/a'] }));
    site.set('/shop/a', articlePage('Item A', ['Item A costs 6.']));
    const second = await firecrawl.crawl(`${site.url}/shop`, { ...options, pollInterval: 1, timeout: 60 });
    expect(second.status).toBe('completed');
    const byPath = Object.fromEntries(second.data.map((page) => [new URL(page.metadata?.sourceURL ?? '').pathname, page.changeTracking]));
    expect(byPath['/shop']).toMatchObject({ changeStatus: 'changed', visibility: 'visible' }); // its list of links changed
    expect(byPath['/shop/a']).toMatchObject({ changeStatus: 'changed', visibility: 'visible' });
    expect(byPath['/shop/b']).toMatchObject({ changeStatus: 'same', visibility: 'hidden' });
    expect(second.data).toHaveLength(3);

    // Gone from the site too: hidden and removed.
    site.remove('/shop/b');
    const third = await firecrawl.crawl(`${site.url}/shop`, { ...options, pollInterval: 1, timeout: 60 });
    const hidden = third.data.filter((page) => page.changeTracking?.visibility === 'hidden');
    expect(hidden.map((page) => [new URL(page.metadata?.sourceURL ?? '').pathname, page.changeTracking?.changeStatus])).toEqual([['/shop/b', 'removed']]);
  });

  // Last: once keys exist, requests need one.
  it('keeps separate histories per team', async () => {
    site.set('/shared', articlePage('Shared', ['Seen by two teams.']));
    const ledger = quarry.services.ledger;
    const keys: string[] = [];
    for (const team of ['team-a', 'team-b']) {
      await ledger.ensureTeam(team, team);
      keys.push((await ledger.createKey(team, 'test')).key);
    }
    const track = async (key: string) => {
      const response = await fetch(`${quarry.url}/v2/scrape`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ url: `${site.url}/shared`, formats: ['markdown', 'changeTracking'] }),
      });
      return (await response.json()).data.changeTracking.changeStatus;
    };
    expect(await track(keys[0]!)).toBe('new');
    expect(await track(keys[0]!)).toBe('same');
    expect(await track(keys[1]!)).toBe('new');
  });
});

describe('changeTracking json mode with an LLM provider', () => {
  let openai: LlmDouble;
  let withModel: TestQuarry;

  beforeAll(async () => {
    openai = await startOpenAiDouble({ apiKey: 'sk-double' });
    withModel = await startQuarry({ OPENAI_BASE_URL: openai.url, OPENAI_API_KEY: 'sk-double', MODEL_NAME: 'double-1' });
  });
  afterAll(async () => {
    await withModel?.close();
    await openai?.close();
  });

  it('compares the fields the model extracts, and charges its tokens', async () => {
    const plan = (price: string) => articlePage('Plan', [`Plan: Basic`, `Price: ${price}`, 'Nothing in the structured data.']);
    site.set('/plan', plan('10'));
    const format = { type: 'changeTracking', modes: ['json'], schema: { type: 'object', properties: { plan: { type: 'string' }, price: { type: 'number' } } } };
    const post = async () => {
      const response = await fetch(`${withModel.url}/v2/scrape`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${site.url}/plan`, formats: ['markdown', format], maxAge: 0 }),
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { data: any }).data;
    };
    const first = await post();
    expect(first.changeTracking.changeStatus).toBe('new');
    expect(first.warning).toBeUndefined();
    expect(first.metadata.tokensUsed).toBeGreaterThan(0);
    site.set('/plan', plan('12'));
    const changed = await post();
    expect(changed.changeTracking).toMatchObject({ changeStatus: 'changed', json: { price: { previous: 10, current: 12 } } });
    expect(Object.keys(changed.changeTracking.json)).toEqual(['price']);
    expect(openai.requests.length).toBeGreaterThanOrEqual(2);
  });

  it('an unchanged page is same when the previous scrape kept no fields; a changed one compares the previous extraction (SDK)', async () => {
    const client = new Firecrawl({ apiKey: '', apiUrl: withModel.url });
    const plan = (price: string) => articlePage('Steady', ['Plan: Pro', `Price: ${price}`, 'Nothing in the structured data.']);
    site.set('/steady', plan('20'));
    const schema = { type: 'object', properties: { plan: { type: 'string' }, price: { type: 'number' } } };
    const plain = await client.scrape(`${site.url}/steady`, { formats: ['markdown', { type: 'changeTracking' }], maxAge: 0 } as ScrapeOptions);
    expect(plain.changeTracking?.changeStatus).toBe('new');
    const jsonMode = { formats: ['markdown', { type: 'changeTracking', modes: ['json'], schema }], maxAge: 0 } as ScrapeOptions;
    const same = await client.scrape(`${site.url}/steady`, jsonMode);
    expect(same.changeTracking).toMatchObject({ changeStatus: 'same', previousScrapeAt: expect.any(String) });
    expect(same.changeTracking?.json).toBeUndefined();
    const again = await client.scrape(`${site.url}/steady`, jsonMode);
    expect(again.changeTracking?.changeStatus).toBe('same');

    site.set('/other-steady', plan('30'));
    await client.scrape(`${site.url}/other-steady`, { formats: ['markdown', { type: 'changeTracking' }], maxAge: 0 } as ScrapeOptions);
    site.set('/other-steady', plan('35'));
    const changed = await client.scrape(`${site.url}/other-steady`, jsonMode);
    expect(changed.changeTracking).toMatchObject({ changeStatus: 'changed', json: { price: { previous: 30, current: 35 } } });
    expect(Object.keys(changed.changeTracking?.json as object)).toEqual(['price']);
  });
});

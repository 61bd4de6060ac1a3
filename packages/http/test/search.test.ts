import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl from '@mendable/firecrawl-js';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';
import { articlePage, startMutableSite, type MutableSite } from './support/mutable-site.js';

/**
 * /search with no outside service: the embedded full-text index over the pages this instance
 * stored, through the API (v1 and v2) and the official SDK; map's search and link sources read the
 * same index.
 */
let site: MutableSite;
let quarry: TestQuarry;
let firecrawl: Firecrawl;

beforeAll(async () => {
  site = await startMutableSite({
    '/': articlePage('Travel notes', ['Notes on ways to travel.'], { links: ['/airships', '/trains', '/boats'] }),
    '/airships': articlePage('Lighter than air', ['The zeppelin floated over the lake at dawn.', 'Hydrogen gave way to helium in every zeppelin.']),
    '/trains': articlePage('Rails', ['A night train crosses the mountains; the zeppelin is faster only in stories.']),
    '/boats': articlePage('Sailing', ['The ferry leaves at noon.']),
    '/orphan': articlePage('Unlinked page', ['Nobody links to the quokka page.']),
  });
  quarry = await startQuarry();
  firecrawl = new Firecrawl({ apiKey: '', apiUrl: quarry.url });
  const crawl = await firecrawl.crawl(`${site.url}/`, { limit: 10, sitemap: 'skip', pollInterval: 1, timeout: 60 });
  expect(crawl.data).toHaveLength(4);
  await post('v2', 'scrape', { url: `${site.url}/orphan` });
});

afterAll(async () => {
  await quarry?.close();
  await site?.close();
});

async function post(version: 'v1' | 'v2', path: string, body: Record<string, unknown>, status = 200) {
  const response = await fetch(`${quarry.url}/${version}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  expect(response.status, JSON.stringify(json)).toBe(status);
  return json;
}

describe('search over the embedded index', () => {
  it('v2 finds crawled pages by words of their body, best first, with snippets and credits', async () => {
    const answer = await post('v2', 'search', { query: 'zeppelin lake' });
    expect(answer.success).toBe(true);
    expect(answer.data.web.map((result: { url: string }) => new URL(result.url).pathname)).toEqual(['/airships', '/trains']);
    expect(answer.data.web[0]).toMatchObject({ title: 'Lighter than air', position: 1 });
    expect(answer.data.web[0].description).toContain('zeppelin');
    expect(answer.data.images).toBeUndefined();
    expect(answer.creditsUsed).toBe(2);
    const none = await post('v2', 'search', { query: 'submarine' });
    expect(none).toEqual({ success: true, data: { web: [] }, creditsUsed: 0 });
  });

  it('v1 answers a list of documents; limit and tbs apply', async () => {
    const answer = await post('v1', 'search', { query: 'zeppelin', limit: 1, lang: 'en', country: 'us', scrapeOptions: { formats: [] } });
    expect(answer.data).toHaveLength(1);
    expect(answer.data[0]).toMatchObject({ url: `${site.url}/airships`, title: 'Lighter than air' });
    expect((await post('v2', 'search', { query: 'zeppelin', tbs: 'qdr:h' })).data.web).toHaveLength(2);
    expect((await post('v2', 'search', { query: 'zeppelin', tbs: 'cdr:1,cd_min:1/1/2000,cd_max:12/31/2000' })).data.web).toEqual([]);
    for (const body of [{ query: 'x', limit: 0 }, { query: 'x', limit: 101 }, { query: 'x', tbs: 'qdr:z' }, { query: '' }, { limit: 5 }]) {
      const error = await post('v2', 'search', body, 400);
      expect(error.success).toBe(false);
    }
  });

  it('scrapes the results with scrapeOptions, concurrently, and charges per page', async () => {
    const answer = await post('v2', 'search', { query: 'ferry noon', scrapeOptions: { formats: ['markdown', 'links'] } });
    expect(answer.data.web).toHaveLength(1);
    expect(answer.data.web[0]).toMatchObject({ url: `${site.url}/boats`, title: 'Sailing', position: 1, links: [] });
    expect(answer.data.web[0].markdown).toContain('The ferry leaves at noon.');
    expect(answer.data.web[0].metadata).toMatchObject({ statusCode: 200, sourceURL: `${site.url}/boats` });
    expect(answer.creditsUsed).toBe(1);
  });

  it('serves the SDK: v2 search (with scraping) and v1 search', async () => {
    const results = await firecrawl.search('zeppelin', { limit: 5 });
    expect(results.web?.map((result) => ('url' in result ? result.url : undefined))).toEqual([`${site.url}/airships`, `${site.url}/trains`]);
    const scraped = await firecrawl.search('quokka', { limit: 3, scrapeOptions: { formats: ['markdown'] } });
    expect((scraped.web?.[0] as { markdown?: string } | undefined)?.markdown).toContain('Nobody links to the quokka page.');
    const v1 = await firecrawl.v1.search('helium', {});
    expect(v1.success).toBe(true);
    expect(v1.data.map((result) => result.url)).toEqual([`${site.url}/airships`]);
  });

  it("map's search ranks the pages whose words match first, and map knows stored pages nobody links to", async () => {
    const ranked = await post('v2', 'map', { url: `${site.url}/`, search: 'helium', sitemap: 'skip' });
    expect(ranked.links[0]).toMatchObject({ url: `${site.url}/airships`, title: 'Lighter than air' });
    const all = await post('v2', 'map', { url: `${site.url}/`, sitemap: 'skip' });
    expect(all.links.map((link: { url: string }) => link.url)).toContain(`${site.url}/orphan`);
  });
});

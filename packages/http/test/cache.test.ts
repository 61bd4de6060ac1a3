import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl from '@mendable/firecrawl-js';
import { waitFor } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';
import { articlePage, startMutableSite, type MutableSite } from './support/mutable-site.js';

/**
 * maxAge and storeInCache through the API (v1 and v2) and the official SDK: every successful
 * scrape, crawl page and batch page is stored; a scrape with maxAge answers the stored copy
 * (cacheState hit, byte-identical content) without fetching; error pages are never served.
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

describe('maxAge', () => {
  it('v2 (default maxAge two days): the second scrape is a hit, byte-identical, without a fetch', async () => {
    site.set('/v2-page', articlePage('Version one', ['The first words of the page.', 'Ünïcödé and “quotes” survive.']));
    const url = `${site.url}/v2-page`;
    const first = await scrape('v2', { url, formats: ['markdown', 'html', 'links'] });
    expect(first.metadata.cacheState).toBe('miss');
    expect(first.metadata.cachedAt).toBeUndefined();
    site.set('/v2-page', articlePage('Version two', ['Changed after the first scrape.']));
    const second = await scrape('v2', { url, formats: ['markdown', 'html', 'links'] });
    expect(second.metadata).toMatchObject({ cacheState: 'hit', sourceURL: url, statusCode: 200, title: 'Version one' });
    expect(Date.parse(second.metadata.cachedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(second.metadata.scrapeId).not.toBe(first.metadata.scrapeId);
    const { metadata: _m1, ...content1 } = first;
    const { metadata: _m2, ...content2 } = second;
    expect(JSON.stringify(content2)).toBe(JSON.stringify(content1));
    expect(site.hits('/v2-page')).toBe(1);

    // maxAge 0 fetches again (and stores the new version); other formats are another entry.
    const fresh = await scrape('v2', { url, formats: ['markdown', 'html', 'links'], maxAge: 0 });
    expect(fresh.markdown).toContain('Changed after the first scrape');
    expect(fresh.metadata.cacheState).toBeUndefined();
    const again = await scrape('v2', { url, formats: ['markdown', 'html', 'links'] });
    expect(again.markdown).toBe(fresh.markdown);
    expect(again.metadata.cacheState).toBe('hit');
    const other = await scrape('v2', { url, formats: ['rawHtml'] });
    expect(other.metadata.cacheState).toBe('miss');
    expect(site.hits('/v2-page')).toBe(3);
  });

  it('v1 defaults to maxAge 0 and hits when given one; the URL is matched normalized', async () => {
    site.set('/v1-page', articlePage('V1 page', ['Words of the v1 page.']));
    const url = `${site.url}/v1-page`;
    const plain = await scrape('v1', { url });
    expect(plain.metadata.cacheState).toBeUndefined();
    const hit = await scrape('v1', { url: `${url}/#section`, maxAge: 60_000 });
    expect(hit.metadata).toMatchObject({ cacheState: 'hit', sourceURL: `${url}/#section` });
    expect(hit.markdown).toBe(plain.markdown);
    expect(site.hits('/v1-page')).toBe(1);
  });

  it('does not store with storeInCache false, custom headers or actions, and never serves error pages', async () => {
    site.set('/private', articlePage('Private', ['Only with a cookie.']));
    await scrape('v2', { url: `${site.url}/private`, storeInCache: false });
    await scrape('v2', { url: `${site.url}/private`, headers: { cookie: 'session=1' } });
    expect((await scrape('v2', { url: `${site.url}/private` })).metadata.cacheState).toBe('miss');
    expect(site.hits('/private')).toBe(3);
    // With headers the cache is not read either.
    expect((await scrape('v2', { url: `${site.url}/private`, headers: { cookie: 'session=1' } })).metadata.cacheState).toBeUndefined();
    expect(site.hits('/private')).toBe(4);

    site.set('/flaky', articlePage('Oops', ['Server error.']), 500);
    expect((await scrape('v2', { url: `${site.url}/flaky` })).metadata).toMatchObject({ statusCode: 500, cacheState: 'miss' });
    expect((await scrape('v2', { url: `${site.url}/flaky` })).metadata).toMatchObject({ statusCode: 500, cacheState: 'miss' });
    expect(site.hits('/flaky')).toBe(2);
  });

  it('stores crawl and batch pages, and the SDK (v2 and v1) reads them back as hits', async () => {
    site.set('/docs', articlePage('Docs home', ['Start here.'], { links: ['/docs/a', '/docs/b'] }));
    site.set('/docs/a', articlePage('Page A', ['Alpha content.']));
    site.set('/docs/b', articlePage('Page B', ['Beta content.']));
    site.set('/batch-one', articlePage('Batch one', ['From a batch.']));
    const crawl = await firecrawl.crawl(`${site.url}/docs`, { limit: 5, pollInterval: 1, timeout: 60 });
    expect(crawl.data).toHaveLength(3);
    const batch = await firecrawl.batchScrape([`${site.url}/batch-one`], { pollInterval: 1, timeout: 60 });
    expect(batch.data).toHaveLength(1);
    const before = site.hits('/docs/a') + site.hits('/batch-one');

    const document = await firecrawl.scrape(`${site.url}/docs/a`, { formats: ['markdown'] });
    expect(document.metadata?.cacheState).toBe('hit');
    expect(document.markdown).toContain('Alpha content.');
    const v1 = await firecrawl.v1.scrapeUrl(`${site.url}/batch-one`, { formats: ['markdown'], maxAge: 3_600_000 });
    expect(v1.success).toBe(true);
    expect((v1 as { metadata?: { cacheState?: string } }).metadata?.cacheState).toBe('hit');
    expect(site.hits('/docs/a') + site.hits('/batch-one')).toBe(before);

    // A second crawl with maxAge reads its pages (and their links) from the cache too.
    const again = await firecrawl.crawl(`${site.url}/docs`, { limit: 5, pollInterval: 1, timeout: 60 });
    expect(again.data.map((page) => page.metadata?.cacheState).sort()).toEqual(['hit', 'hit', 'hit']);
    await waitFor(() => again.status === 'completed');
    expect(site.hits('/docs/b')).toBe(1);
  });
});

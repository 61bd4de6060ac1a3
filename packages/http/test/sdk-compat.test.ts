import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl from '@mendable/firecrawl-js';
import { docsSiteRoutes, startTestServer, tokenOf, type TestServer } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/**
 * The official Firecrawl SDK (default v2 client and .v1) pointed at Quarry by base URL, against a
 * local multi-page site. Keyless local mode (no keys exist, loopback): the SDK sends no key (v2)
 * or an empty bearer (v1).
 */
let site: TestServer;
let quarry: TestQuarry;
let firecrawl: Firecrawl;

beforeAll(async () => {
  site = await startTestServer(docsSiteRoutes());
  quarry = await startQuarry();
  firecrawl = new Firecrawl({ apiKey: '', apiUrl: quarry.url });
});

afterAll(async () => {
  await quarry?.close();
  await site?.close();
});

const pathOf = (url: string | undefined) => new URL(url ?? '').pathname;

describe('v2 client', () => {
  it('scrapes with every non-browser format', async () => {
    const document = await firecrawl.scrape(`${site.url}/docs/install`, { formats: ['markdown', 'html', 'rawHtml', 'links'] });
    expect(document.markdown).toContain(tokenOf('/docs/install'));
    expect(document.html).toContain('<h1>Install</h1>');
    expect(document.rawHtml).toContain('<footer');
    expect(document.links).toContain(`${site.url}/docs/config`);
    expect(document.metadata).toMatchObject({ title: 'Install | Docs Site', statusCode: 200, sourceURL: `${site.url}/docs/install`, creditsUsed: 1 });
  });

  it('crawls and waits, with include paths, limit and robots', async () => {
    const job = await firecrawl.crawl(`${site.url}/`, { crawlEntireDomain: true, includePaths: ['^/docs'], limit: 4, pollInterval: 1, timeout: 60 });
    expect(job.status).toBe('completed');
    expect(job.data.length).toBeLessThanOrEqual(4);
    for (const document of job.data) expect(pathOf(document.metadata?.url).startsWith('/docs')).toBe(true);
    expect(job.creditsUsed).toBe(job.data.length);
  });

  it('starts a crawl, pages its status, lists it as active, reads errors and cancels', async () => {
    const started = await firecrawl.startCrawl(`${site.url}/`, { crawlEntireDomain: true, delay: 0.3 });
    expect(started.url).toBe(`${quarry.url}/v2/crawl/${started.id}`);
    const active = await firecrawl.getActiveCrawls();
    expect(active.crawls.map((crawl) => crawl.id)).toContain(started.id);
    const status = await firecrawl.getCrawlStatus(started.id);
    expect(status.status).toBe('scraping');
    expect(await firecrawl.cancelCrawl(started.id)).toBe(true);
    const after = await firecrawl.getCrawlStatus(started.id);
    expect(after.status).toBe('cancelled');
    const errors = await firecrawl.getCrawlErrors(started.id);
    expect(errors).toMatchObject({ errors: [], robotsBlocked: expect.any(Array) });
  });

  it('follows next across pages of a finished crawl', async () => {
    const job = await firecrawl.crawl(`${site.url}/`, { crawlEntireDomain: true, pollInterval: 1, timeout: 60 });
    expect(job.status).toBe('completed');
    const firstPage = await fetch(`${quarry.url}/v2/crawl/${job.id}?limit=5`).then((response) => response.json());
    expect(firstPage.data).toHaveLength(5);
    expect(firstPage.next).toBe(`${quarry.url}/v2/crawl/${job.id}?skip=5&limit=5`);
    const all = await firecrawl.getCrawlStatus(job.id);
    expect(all.data.length).toBe(job.data.length);
    expect(new Set(all.data.map((document) => document.metadata?.url)).size).toBe(all.data.length);
    const errors = await firecrawl.getCrawlErrors(job.id);
    expect(errors.robotsBlocked).toContain(`${site.url}/private/secret`);
  });

  it('batch scrapes (wait and async), with status, errors and cancel', async () => {
    const urls = [`${site.url}/about`, `${site.url}/blog/`, 'not a url'];
    const job = await firecrawl.batchScrape(urls, { options: { formats: ['markdown'] }, pollInterval: 1, timeout: 60 });
    expect(job.status).toBe('completed');
    expect(job.data.map((document) => pathOf(document.metadata?.sourceURL)).sort()).toEqual(['/about', '/blog/']);
    const started = await firecrawl.startBatchScrape([`${site.url}/docs/`], { options: { formats: ['links'] } });
    expect(started.invalidURLs).toEqual([]);
    const errors = await firecrawl.getBatchScrapeErrors(started.id);
    expect(errors.errors).toEqual([]);
    await firecrawl.cancelBatchScrape(started.id);
  });

  it('maps a site', async () => {
    const map = await firecrawl.map(`${site.url}/`, { search: 'install' });
    expect(map.links[0]?.url).toBe(`${site.url}/docs/install`);
    expect(map.links.length).toBeGreaterThan(5);
  });

  it('reports credit and token usage, concurrency and queue status', async () => {
    const credits = await firecrawl.getCreditUsage();
    expect(typeof credits.remainingCredits).toBe('number');
    const tokens = await firecrawl.getTokenUsage();
    expect(typeof tokens.remainingTokens).toBe('number');
    const concurrency = await firecrawl.getConcurrency();
    expect(concurrency.maxConcurrency).toBeGreaterThan(0);
    const queue = await firecrawl.getQueueStatus();
    expect(queue).toMatchObject({ jobsInQueue: expect.any(Number) });
  });

  it('turns bad input into an SdkError with the field named', async () => {
    await expect(firecrawl.scrape(`${site.url}/`, { timeout: 5 })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('`timeout` must be >= 1000'),
    });
  });
});

describe('v1 client', () => {
  const v1 = () => firecrawl.v1;

  it('scrapes', async () => {
    const result = await v1().scrapeUrl(`${site.url}/about`, { formats: ['markdown', 'links'] });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.markdown).toContain(tokenOf('/about'));
  });

  it('crawls with depth and limit, and pages to the end without next', async () => {
    const result = await v1().crawlUrl(`${site.url}/docs/`, { maxDepth: 1, limit: 20 }, 1);
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.status).toBe('completed');
    const paths = result.data.map((document) => pathOf(document.metadata?.url)).sort();
    expect(paths).toEqual(['/docs/', '/docs/api/', '/docs/config', '/docs/install']);
  });

  it('batch scrapes, polling the crawl route', async () => {
    const result = await v1().batchScrapeUrls([`${site.url}/about`, `${site.url}/docs/`], { formats: ['markdown'] }, 1);
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data).toHaveLength(2);
  });

  it('reads crawl errors (with the SDK’s DELETE) and maps to strings', async () => {
    const started = await v1().asyncCrawlUrl(`${site.url}/`, { limit: 2 });
    expect(started.success).toBe(true);
    if (!started.success) return;
    const errors = await v1().checkCrawlErrors(started.id!);
    expect(errors).toMatchObject({ errors: expect.any(Array) });
    const map = await v1().mapUrl(`${site.url}/`, {});
    expect(map.success).toBe(true);
    if (map.success) expect(map.links?.[0]).toBe(`${site.url}`);
  });

  it('reports credit usage in snake_case', async () => {
    const response = await fetch(`${quarry.url}/v1/team/credit-usage`, { headers: { authorization: 'Bearer ' } });
    const body = await response.json();
    expect(body).toMatchObject({ success: true, data: { remaining_credits: expect.any(Number) } });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GotFetcher } from '@quarry/adapters';
import { createEngine, ValidationError, type CrawlEvent, type CrawlOptionsInput, type Engine } from '@quarry/core';
import { docsSiteRoutes, startTestServer, tokenOf, type TestServer } from '@quarry/core/testing';

/** engine.crawl and engine.map end to end against the local docs site. */
let site: TestServer;
let engine: Engine;

beforeAll(async () => {
  site = await startTestServer(docsSiteRoutes());
  engine = createEngine({ fetcher: new GotFetcher({ allowPrivateHosts: ['127.0.0.1'] }) });
});

afterAll(async () => {
  await engine?.close();
  await site?.close();
});

async function crawl(path: string, options: CrawlOptionsInput = {}, signal?: AbortSignal) {
  const events: CrawlEvent[] = [];
  for await (const event of engine.crawl(`${site.url}${path}`, options, signal ? { signal } : {})) events.push(event);
  const pages = events.flatMap((event) => (event.type === 'page' ? [new URL(event.document.metadata.url).pathname] : []));
  const errors = events.flatMap((event) => (event.type === 'error' ? [event] : []));
  const done = events.at(-1);
  if (done?.type !== 'done') throw new Error('crawl did not end with done');
  return { events, pages: pages.sort(), errors, done };
}

describe('engine.crawl', () => {
  it('crawls the whole site once, honouring robots.txt and reporting failures per page', async () => {
    const { pages, errors, done } = await crawl('/', { crawlEntireDomain: true });
    expect(pages).toEqual([
      '/',
      '/about',
      '/blog/',
      '/blog/first-post',
      '/blog/second-post',
      '/broken',
      '/docs/',
      '/docs/api/',
      '/docs/api/crawl',
      '/docs/api/scrape',
      '/docs/config',
      '/docs/install',
      '/missing',
      '/sitemap-only',
    ]);
    // /moved redirects to /docs/config, which the crawl already has: one page, not two.
    expect(pages.filter((path) => path === '/docs/config')).toHaveLength(1);
    expect(done).toMatchObject({ status: 'completed', robotsBlocked: [`${site.url}/private/secret`] });
    expect(done.type === 'done' && done.progress).toMatchObject({ completed: 14, pending: 0 });
    expect(errors).toEqual([]);
  });

  it('gives the same set of pages every time', async () => {
    const first = await crawl('/', { crawlEntireDomain: true, maxConcurrency: 8 });
    const second = await crawl('/', { crawlEntireDomain: true, maxConcurrency: 2 });
    expect(second.pages).toEqual(first.pages);
  });

  it('stays below the start path unless crawlEntireDomain', async () => {
    const { pages } = await crawl('/docs/');
    expect(pages).toEqual(['/docs/', '/docs/api/', '/docs/api/crawl', '/docs/api/scrape', '/docs/config', '/docs/install']);
  });

  it('applies include and exclude paths', async () => {
    const included = await crawl('/', { crawlEntireDomain: true, includePaths: ['^/blog/'] });
    expect(included.pages).toEqual(['/blog/', '/blog/first-post', '/blog/second-post']);
    expect(included.errors.map((error) => error.error.message)).toEqual(['URL does not match required include pattern']);
    const excluded = await crawl('/', { crawlEntireDomain: true, excludePaths: ['^/docs', 'about$'] });
    expect(excluded.pages).toEqual(['/', '/blog/', '/blog/first-post', '/blog/second-post', '/sitemap-only']);
  });

  it('stops at the limit and at maxDiscoveryDepth', async () => {
    const limited = await crawl('/', { crawlEntireDomain: true, limit: 3 });
    expect(limited.pages).toHaveLength(3);
    const shallow = await crawl('/', { crawlEntireDomain: true, maxDiscoveryDepth: 0, sitemap: 'skip' });
    expect(shallow.pages).toEqual(['/']);
    const oneHop = await crawl('/', { crawlEntireDomain: true, maxDiscoveryDepth: 1, sitemap: 'skip' });
    expect(oneHop.pages).toEqual(['/', '/about', '/blog/', '/docs/', '/docs/install']);
  });

  it('reports a failing page as an error and carries on', async () => {
    const { events, errors, done } = await crawl('/', { crawlEntireDomain: true });
    // /broken answers 500 and /missing 404: both are documents with their status (as Firecrawl returns them).
    const statusOf = (path: string) =>
      events.flatMap((event) => (event.type === 'page' && event.document.metadata.url.endsWith(path) ? [event.document.metadata.statusCode] : []))[0];
    expect(statusOf('/broken')).toBe(500);
    expect(statusOf('/missing')).toBe(404);
    expect(done.type === 'done' && done.status).toBe('completed');
    expect(errors).toEqual([]);
  });

  it("crawls only the sitemap with sitemap only, and matches robots groups by the crawl's user agent", async () => {
    const { pages } = await crawl('/', { crawlEntireDomain: true, sitemap: 'only' });
    expect(pages).toEqual(['/', '/blog/first-post', '/docs/', '/sitemap-only']);
    const strict = await startTestServer({
      ...docsSiteRoutes({ robots: 'User-agent: StrictBot\nDisallow: /docs/\n\nUser-agent: *\nAllow: /\n' }),
    });
    try {
      const run = async (options: CrawlOptionsInput) => {
        const events: CrawlEvent[] = [];
        for await (const event of engine.crawl(`${strict.url}/`, { crawlEntireDomain: true, sitemap: 'skip', ...options })) events.push(event);
        return events.flatMap((event) => (event.type === 'page' ? [new URL(event.document.metadata.url).pathname] : []));
      };
      expect(await run({ robotsUserAgent: 'StrictBot' })).not.toContain('/docs/install');
      expect(await run({})).toContain('/docs/install');
    } finally {
      await strict.close();
    }
  });

  it('turns a page that cannot be fetched into an error and completes', async () => {
    const hanging = await startTestServer({
      '/': {
        body: '<html><body><main><h1>Start</h1><p>Links to a fine page and a page that never answers.</p><a href="/ok">ok</a> <a href="/hang">hang</a></main></body></html>',
      },
      '/ok': { body: '<html><body><main><h1>Fine</h1><p>This page answers at once with enough text to count.</p></main></body></html>' },
      '/hang': () => new Promise<void>(() => undefined),
    });
    try {
      const events: CrawlEvent[] = [];
      for await (const event of engine.crawl(`${hanging.url}/`, { scrapeOptions: { timeout: 1_000 }, sitemap: 'skip' })) events.push(event);
      expect(events.filter((event) => event.type === 'page')).toHaveLength(2);
      expect(events.filter((event) => event.type === 'error')).toMatchObject([{ url: `${hanging.url}/hang`, error: { code: 'timeout' } }]);
      expect(events.at(-1)).toMatchObject({ type: 'done', status: 'completed', progress: { completed: 2, failed: 1, total: 2 } });
    } finally {
      await hanging.close();
    }
  });

  it('honours robots.txt unless told to ignore it', async () => {
    const { pages } = await crawl('/', { crawlEntireDomain: true, ignoreRobotsTxt: true });
    expect(pages).toContain('/private/secret');
  });

  it('returns every page with its token in the markdown', async () => {
    const { events } = await crawl('/blog/');
    for (const event of events) {
      if (event.type !== 'page') continue;
      expect(event.document.markdown).toContain(tokenOf(new URL(event.document.metadata.url).pathname));
    }
  });

  it('stops at once when cancelled and keeps what was done', async () => {
    const controller = new AbortController();
    const events: CrawlEvent[] = [];
    for await (const event of engine.crawl(`${site.url}/`, { crawlEntireDomain: true, delay: 0.2 }, { signal: controller.signal })) {
      events.push(event);
      if (event.type === 'page') controller.abort();
    }
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'cancelled' });
    expect(events.filter((event) => event.type === 'page')).toHaveLength(1);
  });

  it('rejects bad rules before crawling', async () => {
    await expect(crawl('/', { includePaths: ['(?<=x)'] })).rejects.toThrow(ValidationError);
    await expect(crawl('/', { includePaths: ['(?<=x)'] })).rejects.toThrow(/includePaths\[0\]/);
    await expect(crawl('/', { limit: 0 })).rejects.toThrow(/`limit` must be >= 1/);
  });
});

describe('engine.map', () => {
  it('merges the sitemap with a walk of the site, with titles', async () => {
    const links = await engine.map(`${site.url}/`);
    const paths = links.map((link) => new URL(link.url).pathname);
    expect(paths).toEqual(expect.arrayContaining(['/', '/docs/', '/docs/api/scrape', '/blog/second-post', '/sitemap-only', '/private/secret']));
    expect(links.find((link) => link.url === `${site.url}/docs/install`)).toMatchObject({
      title: 'Install | Docs Site',
      description: 'The Install page of the docs site.',
    });
    expect(new Set(links.map((link) => link.url)).size).toBe(links.length);
  });

  it('ranks by relevance of the search to path words, titles and descriptions', async () => {
    const links = await engine.map(`${site.url}/`, { search: 'scrape api' });
    expect(links[0]?.url).toBe(`${site.url}/docs/api/scrape`);
  });

  it('returns only sitemap links with sitemap only, within the limit', async () => {
    const links = await engine.map(`${site.url}/`, { sitemap: 'only' });
    // The start URL is there because the sitemap lists it.
    expect(links.map((link) => new URL(link.url).pathname).sort()).toEqual(['/', '/blog/first-post', '/docs/', '/sitemap-only']);
    expect(await engine.map(`${site.url}/`, { limit: 2 })).toHaveLength(2);
  });

  it('times out with "Map timed out"', async () => {
    await expect(engine.map(`${site.url}/`, { timeout: 1 })).rejects.toThrow('Map timed out');
  });
});

import { describe, expect, it } from 'vitest';
import type { ScrapeDocument } from '../document.js';
import { parseScrapeOptions } from '../options/normalize-scrape-options.js';
import type { CachedDocumentEntry, DocumentCache } from '../ports/document-cache.js';
import type { IndexedPage, PageIndex } from '../ports/page-index.js';
import { ManualClock } from '../ports/testing/manual-clock.js';
import { withDocumentCache, type ScrapeRun } from './cached-scrape.js';

class MapCache implements DocumentCache {
  readonly entries = new Map<string, CachedDocumentEntry>();
  async put(entry: CachedDocumentEntry) {
    this.entries.set(entry.key, structuredClone(entry));
  }
  async get(key: string, maxAgeMs: number, now: number) {
    const entry = this.entries.get(key);
    if (!entry || maxAgeMs <= 0 || entry.storedAt < now - maxAgeMs) return undefined;
    return { document: structuredClone(entry.document), storedAt: entry.storedAt, ...(entry.links ? { links: entry.links } : {}) };
  }
}

class ListIndex implements PageIndex {
  readonly pages = new Map<string, IndexedPage>();
  async add(page: IndexedPage) {
    this.pages.set(page.url, page);
  }
  async remove(url: string) {
    this.pages.delete(url);
  }
  async search() {
    return [];
  }
  async pagesOf() {
    return [];
  }
}

function setup(status = 200) {
  const clock = new ManualClock(1_700_000_000_000);
  const cache = new MapCache();
  const index = new ListIndex();
  let fetches = 0;
  const run: ScrapeRun = async (url, options) => {
    fetches++;
    const wants = new Set(options.formats.map((format) => format.type));
    const document: ScrapeDocument = {
      ...(wants.has('markdown') ? { markdown: `# Page ${fetches}` } : {}),
      ...(wants.has('html') ? { html: `<h1>Page ${fetches}</h1>` } : {}),
      metadata: {
        sourceURL: url,
        url,
        statusCode: status,
        scrapeId: `s${fetches}`,
        creditsUsed: 1,
        proxyUsed: 'basic',
        engine: 'http',
        title: 'Page',
        ...(status >= 400 ? { error: 'HTTP error' } : {}),
      },
    };
    return { document, links: ['https://example.com/next'] };
  };
  let ids = 0;
  const scrape = withDocumentCache(run, { cache, index, clock, ids: { next: () => `id${++ids}` } });
  return { clock, cache, index, scrape, fetches: () => fetches };
}

describe('withDocumentCache', () => {
  const options = (input: Record<string, unknown> = {}) => parseScrapeOptions('v2', input);

  it('answers a stored copy younger than maxAge, with fresh request metadata', async () => {
    const { clock, scrape, fetches } = setup();
    const first = await scrape('https://example.com/a', options(), {}, false);
    expect(first.document.metadata.cacheState).toBe('miss');
    clock.advance(1_000);
    const second = await scrape('https://www.example.com/a/', options(), { scrapeId: 'req-2' }, false);
    expect(fetches()).toBe(1);
    expect(second.document.markdown).toBe('# Page 1');
    expect(second.document.metadata).toMatchObject({
      cacheState: 'hit',
      cachedAt: new Date(1_700_000_000_000).toISOString(),
      sourceURL: 'https://www.example.com/a/',
      scrapeId: 'req-2',
    });
    clock.advance(172_800_000);
    expect((await scrape('https://example.com/a', options(), {}, false)).document.metadata.cacheState).toBe('miss');
    expect(fetches()).toBe(2);
  });

  it('indexes the page text even when markdown was not asked, without returning it', async () => {
    const { scrape, index } = setup();
    const page = await scrape('https://example.com/a', options({ formats: ['html'] }), {}, false);
    expect(page.document.markdown).toBeUndefined();
    expect(page.document.html).toBe('<h1>Page 1</h1>');
    expect(index.pages.get('https://example.com/a')).toMatchObject({ text: '# Page 1', title: 'Page' });
  });

  it('needs stored links to answer a crawl, and stores them when the crawl fetches', async () => {
    const { scrape, fetches } = setup();
    await scrape('https://example.com/a', options(), {}, false);
    const crawled = await scrape('https://example.com/a', options(), {}, true);
    expect(crawled.document.metadata.cacheState).toBe('miss');
    const again = await scrape('https://example.com/a', options(), {}, true);
    expect(again).toMatchObject({ links: ['https://example.com/next'], document: { metadata: { cacheState: 'hit' } } });
    expect(fetches()).toBe(2);
  });

  it('keeps nothing of error pages and of private or unstored scrapes', async () => {
    const broken = setup(500);
    await broken.scrape('https://example.com/a', options(), {}, false);
    expect(broken.cache.entries.size).toBe(0);
    const { scrape, cache } = setup();
    await scrape('https://example.com/a', options({ storeInCache: false }), {}, false);
    await scrape('https://example.com/a', options({ headers: { cookie: 'x' } }), {}, false);
    await scrape('https://example.com/a', options({ zeroDataRetention: true }), {}, false);
    expect(cache.entries.size).toBe(0);
    const tracked = await scrape('https://example.com/a', options({ formats: ['markdown', { type: 'changeTracking' }] }), {}, false);
    expect(tracked.document.metadata.cacheState).toBeUndefined();
    expect(cache.entries.size).toBe(1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GotFetcher, WorkerPoolTransformer } from '@quarry/adapters';
import { createEngine, type ElementRule, type Engine } from '@quarry/core';
import { startTestServer, type TestServer } from '@quarry/core/testing';

/** The engine's `elementRules`: a library user's markdown rules per element, on scrapes and crawls of a local site. */
let site: TestServer;
let engine: Engine;
const mark: ElementRule = (element, converter) => converter.renderWrapped(element, '==', '==');

beforeAll(async () => {
  const page = (body: string) => ({ body: `<html><head><title>t</title></head><body><main>${body}</main></body></html>` });
  site = await startTestServer({
    '/': page('<h1>Home</h1><p>A <mark>highlighted</mark> word and a <a href="/next">next page</a>.</p>'),
    '/next': page('<h1>Next</h1><p>Another <mark>marked</mark> word.</p>'),
  });
  engine = createEngine({ fetcher: new GotFetcher({ allowPrivateHosts: ['127.0.0.1'] }), elementRules: { mark, h1: null } });
});

afterAll(async () => {
  await engine?.close();
  await site?.close();
});

describe('createEngine({ elementRules })', () => {
  it('converts scraped pages with the overridden rules', async () => {
    const document = await engine.scrape(`${site.url}/`, { formats: ['markdown'] });
    expect(document.markdown).toContain('A ==highlighted== word');
    expect(document.markdown).not.toContain('# Home');
  });

  it('converts every page of a crawl with them', async () => {
    const markdown: string[] = [];
    for await (const event of engine.crawl(`${site.url}/`, { limit: 5, sitemap: 'skip' }))
      if (event.type === 'page') markdown.push(event.document.markdown ?? '');
    expect(markdown).toHaveLength(2);
    expect(markdown.some((text) => text.includes('==highlighted=='))).toBe(true);
    expect(markdown.some((text) => text.includes('==marked=='))).toBe(true);
  });

  it('refuses rules together with a transformer of other threads, and a malformed table, naming the field', () => {
    const pool = new WorkerPoolTransformer({ workers: 1 });
    expect(() => createEngine({ fetcher: new GotFetcher(), transformer: pool, elementRules: { mark } })).toThrow(
      expect.objectContaining({ code: 'invalid_request', message: expect.stringContaining('elementRules') }),
    );
    expect(() => createEngine({ fetcher: new GotFetcher(), elementRules: { mark: 1 as unknown as ElementRule } })).toThrow(
      expect.objectContaining({ message: expect.stringContaining('elementRules.mark') }),
    );
    return pool.close();
  });
});

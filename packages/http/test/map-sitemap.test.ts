import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl from '@mendable/firecrawl-js';
import { startTestServer, type TestServer } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';
import { articlePage } from './support/mutable-site.js';

/**
 * Map's sitemap modes through the API and the official SDK: "only" answers exactly the sitemap's
 * URLs (the start URL too when listed; never pages the walk or the index found), "skip" never
 * reads the sitemap.
 */
let site: TestServer;
let quarry: TestQuarry;
let firecrawl: Firecrawl;
const hits = new Map<string, number>();

beforeAll(async () => {
  site = await startTestServer((_request, response, url) => {
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    if (url.pathname === '/sitemap.xml') {
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.url}/</loc></url><url><loc>${site.url}/listed</loc></url></urlset>`,
      );
      return;
    }
    if (url.pathname === '/robots.txt') {
      response.writeHead(404);
      response.end();
      return;
    }
    const pages: Record<string, string> = {
      '/': articlePage('Home', ['The home page.'], { links: ['/listed', '/walked-only'] }),
      '/listed': articlePage('Listed', ['In the sitemap.']),
      '/walked-only': articlePage('Walked', ['Linked, not in the sitemap.'], { links: ['/deeper'] }),
      '/deeper': articlePage('Deeper', ['Only found by walking.']),
    };
    response.writeHead(pages[url.pathname] ? 200 : 404, { 'content-type': 'text/html' });
    response.end(pages[url.pathname] ?? 'not found');
  });
  quarry = await startQuarry();
  firecrawl = new Firecrawl({ apiKey: '', apiUrl: quarry.url });
  // The index now knows every page of the site (a crawl stores them).
  const crawl = await firecrawl.crawl(`${site.url}/`, { limit: 10, pollInterval: 1 });
  expect(crawl.status).toBe('completed');
});

afterAll(async () => {
  await quarry?.close();
  await site?.close();
});

const paths = (urls: string[]) => urls.map((url) => new URL(url).pathname).sort();

describe('map sitemap modes', () => {
  it('v2 sitemap "only" (SDK): exactly the sitemap, start URL included because it is listed', async () => {
    const result = await firecrawl.map(`${site.url}/`, { sitemap: 'only' });
    expect(paths(result.links.map((link) => link.url))).toEqual(['/', '/listed']);
  });

  it('v1 sitemapOnly: the same', async () => {
    const response = await fetch(`${quarry.url}/v1/map`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.url}/`, sitemapOnly: true }),
    });
    const body = (await response.json()) as { links: string[] };
    expect(paths(body.links)).toEqual(['/', '/listed']);
  });

  it('sitemap "skip" never reads the sitemap', async () => {
    const before = hits.get('/sitemap.xml') ?? 0;
    const result = await firecrawl.map(`${site.url}/`, { sitemap: 'skip' });
    expect(paths(result.links.map((link) => link.url))).toEqual(expect.arrayContaining(['/', '/listed', '/walked-only', '/deeper']));
    expect(hits.get('/sitemap.xml') ?? 0).toBe(before);
  });
});

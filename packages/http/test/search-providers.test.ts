import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl from '@mendable/firecrawl-js';
import { startTestServer, type TestServer } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';
import { articlePage, startMutableSite, type MutableSite } from './support/mutable-site.js';

/**
 * /search behind outside providers, each a double on 127.0.0.1 speaking the real wire format:
 * SearXNG's JSON API (GET /search?format=json) and the Serper Google Search API (POST /search,
 * /images, /news with X-API-KEY). Results point at a local site, so scrapeOptions scrape them.
 */
let site: MutableSite;
const yesterday = new Date(Date.now() - 86_400_000).toISOString();

beforeAll(async () => {
  site = await startMutableSite({ '/result-one': articlePage('Result one', ['The body of the first result.']) });
});
afterAll(async () => {
  await site?.close();
});

async function post(quarry: TestQuarry, path: string, body: Record<string, unknown>, status = 200) {
  const response = await fetch(`${quarry.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = await response.json();
  expect(response.status, JSON.stringify(json)).toBe(status);
  return json;
}

describe('SearXNG', () => {
  let searxng: TestServer;
  let quarry: TestQuarry;
  const seen: URLSearchParams[] = [];

  beforeAll(async () => {
    searxng = await startTestServer(async (_request, response, url) => {
      if (url.pathname !== '/search' || url.searchParams.get('format') !== 'json') {
        response.writeHead(403).end('format not allowed');
        return;
      }
      seen.push(url.searchParams);
      const q = url.searchParams.get('q') ?? '';
      if (q === 'slow') await new Promise((resolve) => setTimeout(resolve, 2_000));
      const page = Number(url.searchParams.get('pageno'));
      const category = url.searchParams.get('categories');
      const results =
        page > 2
          ? []
          : category === 'images'
            ? [
                {
                  url: 'https://photos.example/p/1',
                  title: 'A photo',
                  content: '',
                  img_src: 'https://photos.example/1.jpg',
                  resolution: '800 x 600',
                  engine: 'bing images',
                },
              ]
            : category === 'news'
              ? [
                  {
                    url: 'https://news.example/a',
                    title: 'News A',
                    content: 'Something happened',
                    publishedDate: yesterday,
                    thumbnail: 'https://news.example/a.jpg',
                  },
                ]
              : Array.from({ length: 3 }, (_, index) => ({
                  url: page === 1 && index === 0 ? `${site.url}/result-one` : `https://example.org/${page}/${index}`,
                  title: `Result ${page}.${index}`,
                  content: `About ${q} (${page}.${index})`,
                  engine: 'duckduckgo',
                  category: 'general',
                })).concat(page === 1 ? [{ url: 'ftp://files.example/x', title: 'FTP', content: 'not http', engine: 'duckduckgo', category: 'general' }] : []);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          query: q,
          number_of_results: results.length,
          results,
          answers: [],
          corrections: [],
          infoboxes: [],
          suggestions: [],
          unresponsive_engines: [],
        }),
      );
    });
    quarry = await startQuarry({ SEARXNG_ENDPOINT: searxng.url, SEARXNG_ENGINES: 'duckduckgo,wikipedia', SEARXNG_CATEGORIES: 'general,it' });
  });
  afterAll(async () => {
    await quarry?.close();
    await searxng?.close();
  });

  it('answers web, images and news from its JSON API, with engines, categories, language and time range', async () => {
    const answer = await post(quarry, '/v2/search', {
      query: 'rust async',
      limit: 5,
      sources: ['web', 'images', { type: 'news' }],
      tbs: 'qdr:w',
      lang: 'de',
      country: 'de',
      ignoreInvalidURLs: true,
    });
    expect(answer.data.web.map((result: { url: string }) => result.url)).toEqual([
      `${site.url}/result-one`,
      'https://example.org/1/1',
      'https://example.org/1/2',
      'https://example.org/2/0',
      'https://example.org/2/1',
    ]);
    expect(answer.data.web[0]).toEqual({ url: `${site.url}/result-one`, title: 'Result 1.0', description: 'About rust async (1.0)', position: 1 });
    expect(answer.data.images).toEqual([
      { title: 'A photo', imageUrl: 'https://photos.example/1.jpg', imageWidth: 800, imageHeight: 600, url: 'https://photos.example/p/1', position: 1 },
    ]);
    expect(answer.data.news).toEqual([
      { title: 'News A', url: 'https://news.example/a', snippet: 'Something happened', date: yesterday, imageUrl: 'https://news.example/a.jpg', position: 1 },
    ]);
    expect(answer.creditsUsed).toBe(7);
    const web = seen.find((params) => params.get('categories') === 'general,it')!;
    expect(Object.fromEntries(web)).toMatchObject({
      q: 'rust async',
      format: 'json',
      engines: 'duckduckgo,wikipedia',
      language: 'de-DE',
      time_range: 'week',
      pageno: '1',
    });
    expect(seen.some((params) => params.get('categories') === 'images')).toBe(true);
  });

  it('keeps invalid URLs unless told to drop them, and scrapes results with scrapeOptions', async () => {
    const kept = await post(quarry, '/v1/search', { query: 'files', limit: 4 });
    expect(kept.data.map((result: { url: string }) => result.url)).toContain('ftp://files.example/x');
    const scraped = await post(quarry, '/v2/search', { query: 'first', limit: 1, scrapeOptions: { formats: ['markdown'] } });
    expect(scraped.data.web[0].markdown).toContain('The body of the first result.');
    const firecrawl = new Firecrawl({ apiKey: '', apiUrl: quarry.url });
    const viaSdk = await firecrawl.search('sdk', { limit: 2, sources: ['web', 'news'] });
    expect(viaSdk.web?.map((result) => ('url' in result ? result.url : undefined))).toEqual([`${site.url}/result-one`, 'https://example.org/1/1']);
    expect(viaSdk.news).toHaveLength(1);
  });

  it('answers 408 "Request timed out" past the timeout', async () => {
    const answer = await post(quarry, '/v2/search', { query: 'slow', timeout: 300 }, 408);
    expect(answer).toMatchObject({ success: false, error: 'Request timed out' });
  });
});

describe('Serper', () => {
  let serper: TestServer;
  let quarry: TestQuarry;
  const bodies: Array<{ path: string; key: string | undefined; body: Record<string, unknown> }> = [];

  beforeAll(async () => {
    serper = await startTestServer(async (request, response, url) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      const key = request.headers['x-api-key'] as string | undefined;
      bodies.push({ path: url.pathname, key, body });
      if (request.method !== 'POST' || key !== 'serper-test-key') {
        response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Unauthorized.', statusCode: 401 }));
        return;
      }
      const answers: Record<string, object> = {
        '/search': {
          searchParameters: { q: body.q, type: 'search', engine: 'google' },
          organic: [
            { title: 'Serper one', link: `${site.url}/result-one`, snippet: 'First organic result', position: 1 },
            { title: 'Serper two', link: 'https://example.com/two', snippet: 'Second organic result', position: 2, date: 'Jan 5, 2025' },
          ],
          relatedSearches: [],
        },
        '/images': {
          images: [
            {
              title: 'Img',
              imageUrl: 'https://img.example/1.png',
              imageWidth: 640,
              imageHeight: 480,
              thumbnailUrl: 'https://t',
              source: 'x',
              domain: 'img.example',
              link: 'https://img.example/page',
              googleUrl: 'https://g',
              position: 1,
            },
          ],
        },
        '/news': {
          news: [
            {
              title: 'Breaking',
              link: 'https://news.example/b',
              snippet: 'It broke',
              date: '2025-03-01T00:00:00Z',
              source: 'News',
              imageUrl: 'https://news.example/b.jpg',
              position: 1,
            },
          ],
        },
      };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answers[url.pathname] ?? {}));
    });
    quarry = await startQuarry({ SERPER_API_KEY: 'serper-test-key', SERPER_ENDPOINT: serper.url });
  });
  afterAll(async () => {
    await quarry?.close();
    await serper?.close();
  });

  it('speaks the Serper API for web, images and news', async () => {
    const answer = await post(quarry, '/v2/search', {
      query: 'quarry',
      limit: 2,
      sources: ['web', 'images', 'news'],
      tbs: 'qdr:d',
      country: 'DE',
      lang: 'de',
      location: 'Berlin',
    });
    expect(answer.data.web).toEqual([
      { url: `${site.url}/result-one`, title: 'Serper one', description: 'First organic result', position: 1 },
      { url: 'https://example.com/two', title: 'Serper two', description: 'Second organic result', position: 2 },
    ]);
    expect(answer.data.images).toEqual([
      { title: 'Img', imageUrl: 'https://img.example/1.png', imageWidth: 640, imageHeight: 480, url: 'https://img.example/page', position: 1 },
    ]);
    expect(answer.data.news).toEqual([
      {
        title: 'Breaking',
        url: 'https://news.example/b',
        snippet: 'It broke',
        date: '2025-03-01T00:00:00.000Z',
        imageUrl: 'https://news.example/b.jpg',
        position: 1,
      },
    ]);
    expect(bodies.find((entry) => entry.path === '/search')).toEqual({
      path: '/search',
      key: 'serper-test-key',
      body: { q: 'quarry', num: 2, gl: 'de', hl: 'de', location: 'Berlin', tbs: 'qdr:d' },
    });
    expect(bodies.map((entry) => entry.path).sort()).toEqual(['/images', '/news', '/search']);
    const v1 = await post(quarry, '/v1/search', { query: 'quarry', limit: 1, scrapeOptions: { formats: ['markdown'] } });
    expect(v1.data[0]).toMatchObject({ url: `${site.url}/result-one`, title: 'Serper one' });
    expect(v1.data[0].markdown).toContain('The body of the first result.');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl from '@mendable/firecrawl-js';
import { startOpenAiDouble, startTestServer, waitFor, type LlmDouble, type RouteTable, type TestServer } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/**
 * Deep research through the HTTP API and the v1 SDK: a local site, a local SearXNG (its JSON API)
 * as the search provider and the local OpenAI double as the model. The first page asks two
 * questions (`Questions: ...`, which the double reads as the next questions), whose searches find
 * two more pages; those ask nothing, so the research ends at depth 2.
 */
let site: TestServer;
let searxng: TestServer;
let openai: LlmDouble;
let quarry: TestQuarry;

const page = (title: string, lines: string[]) =>
  `<!doctype html><html><head><title>${title}</title><meta name="description" content="About ${title.toLowerCase()}."><link rel="icon" href="/favicon.ico"></head>
<body><main><article><h1>${title}</h1>${lines.map((line) => `<p>${line}</p>`).join('')}
<p>More words about ${title.toLowerCase()} so that the page has some prose to read and analyze.</p></article></main></body></html>`;

const siteRoutes: RouteTable = {
  '/kettles': { body: page('Kettles', ['Kettles boil water.', 'Questions: kettle boiling time, kettle materials']) },
  '/boiling': { body: page('Boiling', ['Boiling time: 3 minutes']) },
  '/materials': { body: page('Materials', ['Materials: steel, glass']) },
};

const searchResults: Record<string, string[]> = {
  'best kettle': ['/kettles'],
  'kettle boiling time': ['/boiling'],
  'kettle materials': ['/materials', '/kettles'],
};

beforeAll(async () => {
  site = await startTestServer(siteRoutes);
  searxng = await startTestServer((_request, response, url) => {
    const paths = url.searchParams.get('pageno') === '1' ? (searchResults[url.searchParams.get('q') ?? ''] ?? []) : [];
    const results = paths.map((path) => ({ url: `${site.url}${path}`, title: `Result ${path}`, content: `Snippet of ${path}`, engine: 'double' }));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ query: url.searchParams.get('q'), number_of_results: results.length, results }));
  });
  openai = await startOpenAiDouble();
  quarry = await startQuarry({ OPENAI_BASE_URL: openai.url, MODEL_NAME: 'double-model', QUARRY_LLM_MAX_RETRIES: '0', SEARXNG_ENDPOINT: searxng.url });
});

afterAll(async () => {
  await quarry?.close();
  await openai?.close();
  await searxng?.close();
  await site?.close();
});

const post = (body: unknown) =>
  fetch(`${quarry.url}/v1/deep-research`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function finished(id: string) {
  return waitFor(async () => {
    const body = await fetch(`${quarry.url}/v1/deep-research/${id}`).then((response) => response.json());
    return body.status === 'processing' ? undefined : body;
  });
}

describe('POST /v1/deep-research', () => {
  it('searches, reads, analyzes and follows the next questions, then writes the analysis and the json', async () => {
    const response = await post({
      query: 'best kettle',
      maxDepth: 3,
      maxUrls: 10,
      timeLimit: 60,
      formats: ['markdown', 'json'],
      jsonOptions: { schema: { type: 'object', properties: { materials: { type: 'array', items: { type: 'string' } } } } },
      analysisPrompt: 'Keep it short.',
    });
    expect(response.status).toBe(200);
    const started = await response.json();
    expect(started).toEqual({ success: true, id: expect.any(String) });
    const body = await finished(started.id);
    expect(body).toMatchObject({ success: true, status: 'completed', currentDepth: 2, maxDepth: 3, totalUrls: 3, expiresAt: expect.any(String) });
    expect(body.sources.map((source: { url: string }) => new URL(source.url).pathname)).toEqual(['/kettles', '/boiling', '/materials']);
    expect(body.sources[0]).toEqual({
      url: `${site.url}/kettles`,
      title: 'Result /kettles',
      description: 'Snippet of /kettles',
      favicon: `${site.url}/favicon.ico`,
    });
    expect(body.data.sources).toEqual(body.sources);
    expect(body.data.activities).toEqual(body.activities);
    expect(body.activities.map((activity: { type: string; status: string; depth: number }) => `${activity.depth}:${activity.type}:${activity.status}`)).toEqual(
      [
        '1:search:processing',
        '1:search:complete',
        '1:extract:complete',
        '1:analyze:processing',
        '1:analyze:complete',
        '1:reasoning:complete',
        '2:search:processing',
        '2:search:complete',
        '2:search:processing',
        '2:search:complete',
        '2:extract:complete',
        '2:analyze:processing',
        '2:analyze:complete',
        '2:reasoning:complete',
        '2:synthesis:processing',
        '2:synthesis:complete',
      ],
    );
    expect(body.activities[5].message).toBe('Next questions: kettle boiling time | kettle materials');
    for (const activity of body.activities) expect(Date.parse(activity.timestamp)).not.toBeNaN();
    expect(body.data.finalAnalysis).toMatch(/^Summary: /);
    expect(body.data.json).toEqual(expect.any(Object));
    const synthesis = openai.requests.at(-2)!;
    expect(JSON.stringify(synthesis.body)).toContain('Keep it short.');
  });

  it('charges the pages read and the tokens of the analysis', async () => {
    const started = await post({ query: 'kettle materials', maxDepth: 1, timeLimit: 30 }).then((response) => response.json());
    const body = await finished(started.id);
    expect(body).toMatchObject({ status: 'completed', currentDepth: 1, totalUrls: 2 });
    const usage = (await quarry.services.ledger.listUsage('local')).filter((row) => row.jobId === started.id);
    expect(usage.map((row) => [row.kind, row.reason])).toEqual([
      ['credits', 'deep_research'],
      ['tokens', 'deep_research'],
    ]);
    expect(usage[0]!.amount).toBe(2 + Math.ceil(usage[1]!.amount / 15));
  });

  it('fails with the reason and charges nothing when the model is down', async () => {
    openai.script(...Array.from({ length: 5 }, () => ({ status: 500, message: 'model crashed' })));
    const started = await post({ query: 'kettle boiling time', maxDepth: 1, timeLimit: 30 }).then((response) => response.json());
    const body = await finished(started.id);
    openai.reset();
    expect(body).toMatchObject({ success: false, status: 'failed' });
    expect(body.error).toMatch(/500|crashed/);
    expect((await quarry.services.ledger.listUsage('local')).filter((row) => row.jobId === started.id)).toEqual([]);
  });

  const bad: Array<[string, unknown, string]> = [
    ['no query', { maxDepth: 2 }, '`query` is required'],
    ['maxDepth above 12', { query: 'q', maxDepth: 13 }, '`maxDepth` must be <= 12; got number 13'],
    ['timeLimit below 30', { query: 'q', timeLimit: 10 }, '`timeLimit` must be >= 30; got number 10'],
    ['maxUrls above 1000', { query: 'q', maxUrls: 1001 }, '`maxUrls` must be <= 1000'],
    ['json without jsonOptions', { query: 'q', formats: ['json'] }, '`jsonOptions` is required'],
    [
      'a malformed json schema',
      { query: 'q', formats: ['json'], jsonOptions: { schema: { type: 'object', properties: { a: { type: 7 } } } } },
      '`jsonOptions.schema` is not a valid JSON Schema',
    ],
    ['a query too long', { query: 'q'.repeat(10_001) }, '`query` must not be longer than 10000 characters'],
  ];
  for (const [name, body, message] of bad) {
    it(`answers 400 naming the field for ${name}`, async () => {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect((await response.json()).error).toContain(message);
    });
  }
});

describe('v1 SDK deepResearch', () => {
  it('polls until completed, reporting activities and sources', async () => {
    const firecrawl = new Firecrawl({ apiKey: '', apiUrl: quarry.url });
    const activities: string[] = [];
    const sources: string[] = [];
    const result = await firecrawl.v1.deepResearch(
      'best kettle',
      { maxDepth: 1, timeLimit: 30, maxUrls: 5 },
      (activity) => activities.push(activity.type),
      (source) => sources.push(source.url),
    );
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.status).toBe('completed');
    expect(result.data.finalAnalysis).toMatch(/^Summary: /);
    expect(result.data.sources.map((source) => source.url)).toEqual([`${site.url}/kettles`]);
    expect(activities).toContain('synthesis');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl from '@mendable/firecrawl-js';
import { startOpenAiDouble, startTestServer, waitFor, type LlmDouble, type TestServer } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';
import { shopRoutes } from './support/shop-site.js';

/**
 * Extract jobs through the HTTP API (v1 and v2) and the Firecrawl SDK, against a local shop and
 * the local OpenAI double (which answers from the `Key: value` facts of each page).
 */
let shop: TestServer;
let openai: LlmDouble;
let quarry: TestQuarry;

const productSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, price: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['name'],
};

beforeAll(async () => {
  shop = await startTestServer(shopRoutes());
  openai = await startOpenAiDouble();
  quarry = await startQuarry({ OPENAI_BASE_URL: openai.url, MODEL_NAME: 'double-model', QUARRY_LLM_MAX_RETRIES: '0', QUARRY_WEBHOOK_ALLOW_HTTP: 'true' });
});

afterAll(async () => {
  await quarry?.close();
  await openai?.close();
  await shop?.close();
});

const post = (server: TestQuarry, path: string, body: unknown) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function finished(server: TestQuarry, version: 'v1' | 'v2', id: string) {
  return waitFor(async () => {
    const body = await fetch(`${server.url}/${version}/extract/${id}`).then((response) => response.json());
    return body.status === 'processing' ? undefined : body;
  });
}

describe('extract with a model', () => {
  it('expands a glob through the map, reads each page, merges by agreement and names the sources', async () => {
    const response = await post(quarry, '/v2/extract', { urls: [`${shop.url}/products/*`], schema: productSchema, showSources: true });
    expect(response.status).toBe(200);
    const started = await response.json();
    expect(started).toEqual({ success: true, id: expect.any(String), urlTrace: [], invalidURLs: [] });
    const body = await finished(quarry, 'v2', started.id);
    expect(body).toMatchObject({ success: true, status: 'completed', expiresAt: expect.any(String) });
    expect(body.data.name).toBe('Kettle');
    expect(body.data.price).toBe(39.5);
    expect([...body.data.tags].sort()).toEqual(['kitchen', 'sale', 'steel', 'tea']);
    const page = (path: string) => `${shop.url}${path}`;
    expect(body.sources.name).toEqual([page('/products/'), page('/products/kettle')]);
    expect([...body.sources.price].sort()).toEqual([page('/products/kettle'), page('/products/pot')]);
    expect(body.tokensUsed).toBeGreaterThan(0);
    expect(body.creditsUsed).toBe(15);
  });

  it('answers v1 the same way, and lists invalid URLs when asked to ignore them', async () => {
    const started = await post(quarry, '/v1/extract', {
      urls: [`${shop.url}/products/kettle`, 'nope'],
      prompt: 'The product name and price',
      ignoreInvalidURLs: true,
    }).then((response) => response.json());
    expect(started.invalidURLs).toEqual(['nope']);
    const body = await finished(quarry, 'v1', started.id);
    expect(body).toMatchObject({ success: true, status: 'completed', data: { name: 'Kettle', price: '39.50' } });
    expect(body.sources).toBeUndefined();
  });

  it('charges the pages and records the tokens', async () => {
    const before = (await quarry.services.ledger.getTeam('local'))!.tokensUsed;
    const started = await post(quarry, '/v1/extract', { urls: [`${shop.url}/products/pot`], schema: productSchema }).then((response) => response.json());
    const body = await finished(quarry, 'v1', started.id);
    const usage = (await quarry.services.ledger.listUsage('local')).filter((row) => row.jobId === started.id);
    expect(usage.map((row) => [row.kind, row.reason])).toEqual([
      ['credits', 'extract'],
      ['tokens', 'extract'],
    ]);
    expect(usage[0]!.amount).toBe(5);
    expect(usage[1]!.amount).toBe(body.tokensUsed);
    expect((await quarry.services.ledger.getTeam('local'))!.tokensUsed).toBe(before + body.tokensUsed);
  });

  it('works through the SDK: v2 extract and v1 extract', async () => {
    const firecrawl = new Firecrawl({ apiKey: '', apiUrl: quarry.url });
    const v2 = await firecrawl.extract({ urls: [`${shop.url}/products/kettle`], schema: productSchema, showSources: true, pollInterval: 1, timeout: 60 });
    expect(v2).toMatchObject({ success: true, status: 'completed', data: { name: 'Kettle', price: 39.5, tags: ['steel', 'tea'] } });
    expect(v2.sources).toMatchObject({ name: [`${shop.url}/products/kettle`] });
    const v1 = await firecrawl.v1.extract([`${shop.url}/products/pot`], { schema: productSchema });
    expect(v1).toMatchObject({ success: true, data: { name: 'Pot', price: 39.5 } });
  });

  it('sends extract.started and extract.completed to the webhook (v2)', async () => {
    const received: Array<Record<string, any>> = [];
    const receiver = await startTestServer(async (request, response) => {
      let raw = '';
      for await (const chunk of request) raw += chunk;
      received.push(JSON.parse(raw) as Record<string, any>);
      response.writeHead(200).end('ok');
    });
    try {
      const started = await post(quarry, '/v2/extract', {
        urls: [`${shop.url}/products/pot`],
        schema: productSchema,
        webhook: { url: `${receiver.url}/hook`, metadata: { run: 'extract' } },
      }).then((response) => response.json());
      await finished(quarry, 'v2', started.id);
      const events = await waitFor(() => (received.length >= 2 ? received : undefined));
      // Both events, once each. Their arrival order is not promised: with API and workers in
      // separate processes, two outbox dispatchers may deliver them at the same time.
      expect(events.map((event) => [event.type, event.id, event.success, event.metadata]).sort()).toEqual([
        ['extract.completed', started.id, true, { run: 'extract' }],
        ['extract.started', started.id, true, { run: 'extract' }],
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('finds pages through the search provider (the embedded index) when no URL is given', async () => {
    // The index holds the pages this instance read: the earlier tests read the shop.
    const started = await post(quarry, '/v2/extract', { prompt: 'kitchen pot', schema: productSchema, showSources: true }).then((response) => response.json());
    const body = await finished(quarry, 'v2', started.id);
    expect(body).toMatchObject({ success: true, status: 'completed' });
    expect(Object.values(body.sources).flat()).toContain(`${shop.url}/products/pot`);
  });

  it('fails the job with the reason, charging nothing, when the provider is down', async () => {
    openai.script(...Array.from({ length: 10 }, () => ({ status: 503, message: 'model overloaded' })));
    // A URL not read before: a cached page would need no model.
    const started = await post(quarry, '/v2/extract', { urls: [`${shop.url}/products/kettle?down=1`], schema: productSchema }).then((response) =>
      response.json(),
    );
    const body = await finished(quarry, 'v2', started.id);
    openai.reset();
    expect(body).toMatchObject({ success: false, status: 'failed', data: null });
    expect(body.error).toContain('No data could be extracted from the page');
    expect(body.error).toMatch(/503|overloaded/);
    expect((await quarry.services.ledger.listUsage('local')).filter((row) => row.jobId === started.id)).toEqual([]);
  });
});

describe('extract bad input', () => {
  const cases: Array<[string, unknown, string]> = [
    [
      'a malformed schema',
      { urls: ['https://example.com/'], schema: { type: 'object', properties: { a: { type: 'strnig' } } } },
      '`schema` is not a valid JSON Schema',
    ],
    ['a schema that is not an object schema', { urls: ['https://example.com/'], schema: { type: 'array' } }, '`schema` must describe an object'],
    ['a schema too deep', { urls: ['https://example.com/'], schema: deepSchema(20) }, '`schema` is nested too deep'],
    [
      'a schema too large',
      {
        urls: ['https://example.com/'],
        schema: { type: 'object', properties: Object.fromEntries(Array.from({ length: 600 }, (_, index) => [`f${index}`, { type: 'string' }])) },
      },
      '`schema` is too large',
    ],
    ['a prompt too long', { urls: ['https://example.com/'], prompt: 'x'.repeat(10_001) }, '`prompt` must not be longer than 10000 characters'],
    ['neither prompt nor schema', { urls: ['https://example.com/'] }, '`prompt` or `schema` is required'],
    ['no urls and no prompt', { schema: { type: 'object' } }, '`urls` is required unless a `prompt` is given'],
    ['an invalid URL', { urls: ['not a url'], prompt: 'x' }, '`urls[0]` must be a valid URL'],
    ['too many URLs', { urls: Array.from({ length: 11 }, (_, index) => `https://example.com/${index}`), prompt: 'x' }, '`urls` must have at most 10 items'],
    ['an unknown option', { urls: ['https://example.com/'], prompt: 'x', pages: 3 }, '`pages` is not a known option'],
  ];
  for (const [name, body, message] of cases) {
    it(`answers 400 naming the field for ${name}`, async () => {
      const response = await post(quarry, '/v1/extract', body);
      expect(response.status).toBe(400);
      expect((await response.json()).error).toContain(message);
    });
  }

  it('answers 404 for an unknown job', async () => {
    expect((await fetch(`${quarry.url}/v2/extract/nope`)).status).toBe(404);
  });
});

describe('extract without a model', () => {
  let plain: TestQuarry;
  beforeAll(async () => {
    plain = await startQuarry({ QUARRY_LLM_PROVIDER: 'none' });
  });
  afterAll(async () => {
    await plain?.close();
  });

  it("fills the schema from each page's structured data, with a warning", async () => {
    const started = await post(plain, '/v2/extract', {
      urls: [`${shop.url}/products/kettle`],
      schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } },
    }).then((response) => response.json());
    const body = await finished(plain, 'v2', started.id);
    expect(body).toMatchObject({ success: true, status: 'completed', data: { name: 'Kettle', price: 39.5 } });
    expect(body.warning).toContain('No LLM provider is configured');
  });

  it('refuses a prompt-only extract, and deep research, with how to configure a provider', async () => {
    for (const [path, body] of [
      ['/v2/extract', { urls: [`${shop.url}/products/kettle`], prompt: 'The price' }],
      ['/v1/deep-research', { query: 'kettles' }],
    ] as const) {
      const response = await post(plain, path, body);
      expect(response.status).toBe(501);
      const answer = (await response.json()) as { success: boolean; error: string };
      expect(answer.success).toBe(false);
      expect(answer.error).toContain('needs an LLM provider');
      expect(answer.error).toContain('OPENAI_BASE_URL');
    }
  });
});

function deepSchema(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < depth; level++) schema = { type: 'object', properties: { next: schema } };
  return schema;
}

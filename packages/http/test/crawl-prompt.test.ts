import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl from '@mendable/firecrawl-js';
import { docsSiteRoutes, startOpenAiDouble, startTestServer, type LlmDouble, type TestServer } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/**
 * v2 crawl `prompt`: the model (a local OpenAI-compatible double that answers from the facts in the
 * prompt) turns it into crawl options, merged under the explicit ones and echoed; params-preview
 * answers them without crawling; without a model, 501 saying how to configure one.
 */
let site: TestServer;
let openai: LlmDouble;
let quarry: TestQuarry;
let firecrawl: Firecrawl;

beforeAll(async () => {
  site = await startTestServer(docsSiteRoutes());
  openai = await startOpenAiDouble({ apiKey: 'sk-double' });
  quarry = await startQuarry({ OPENAI_BASE_URL: openai.url, OPENAI_API_KEY: 'sk-double', MODEL_NAME: 'double-1', QUARRY_RATE_LIMITS: '' });
  firecrawl = new Firecrawl({ apiKey: '', apiUrl: quarry.url });
});

afterAll(async () => {
  await quarry?.close();
  await openai?.close();
  await site?.close();
});

// What the double reads as facts: one "option: value" per line (a real model reads the sentence).
const blogPrompt = 'Only the blog posts, please.\nincludePaths: ^/blog/\nsitemap: skip\nmaxDiscoveryDepth: 2\ncrawlEntireDomain: true';
const pathOf = (url: string | undefined) => new URL(url ?? '').pathname;

describe('crawl with a prompt', () => {
  it('previews the options the model generates (SDK crawlParamsPreview)', async () => {
    const preview = await firecrawl.crawlParamsPreview(`${site.url}/`, blogPrompt);
    expect(preview).toMatchObject({ url: `${site.url}/`, includePaths: ['^/blog/'], sitemap: 'skip', maxDiscoveryDepth: 2, crawlEntireDomain: true });
  });

  it('crawls with the generated options, explicit options winning, and echoes both (SDK and HTTP)', async () => {
    const response = await fetch(`${quarry.url}/v2/crawl`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.url}/`, prompt: blogPrompt, maxDiscoveryDepth: 5, limit: 10, delay: 1 }),
    });
    const started = (await response.json()) as Record<string, any>;
    expect(response.status, JSON.stringify(started)).toBe(200);
    expect(started.promptGeneratedOptions).toMatchObject({ includePaths: ['^/blog/'], sitemap: 'skip', maxDiscoveryDepth: 2 });
    expect(started.finalCrawlerOptions).toMatchObject({ includePaths: ['^/blog/'], sitemap: 'skip', maxDiscoveryDepth: 5, limit: 10, crawlEntireDomain: true });
    // The delay keeps it running while /crawl/active lists the prompt with its options.
    const listed = (await firecrawl.getActiveCrawls()).crawls.find((crawl) => crawl.id === started.id);
    expect(listed?.options).toMatchObject({
      prompt: blogPrompt,
      promptGeneratedOptions: { includePaths: ['^/blog/'] },
      includePaths: ['^/blog/'],
      maxDiscoveryDepth: 5,
    });
    expect(await firecrawl.cancelCrawl(started.id)).toBe(true);

    const job = await firecrawl.crawl(`${site.url}/`, { prompt: blogPrompt, limit: 10, pollInterval: 1, timeout: 60 });
    expect(job.status).toBe('completed');
    const paths = job.data.map((document) => pathOf(document.metadata?.url ?? document.metadata?.sourceURL)).sort();
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(path === '/' || path.startsWith('/blog/'), path).toBe(true);
    expect(paths).toContain('/blog/first-post');
  });

  it("charges the model's tokens to the team", async () => {
    const before = (await quarry.services.ledger.getTeam('local'))!.tokensUsed;
    await firecrawl.crawlParamsPreview(`${site.url}/`, blogPrompt);
    expect((await quarry.services.ledger.getTeam('local'))!.tokensUsed).toBeGreaterThan(before);
  });

  it('refuses a preview without a prompt, naming the field', async () => {
    const response = await fetch(`${quarry.url}/v2/crawl/params-preview`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.url}/` }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { details: unknown }).details).toEqual([expect.objectContaining({ path: ['prompt'] })]);
  });
});

describe('crawl with a prompt, without a model', () => {
  let plain: TestQuarry;
  beforeAll(async () => {
    plain = await startQuarry({ QUARRY_LLM_PROVIDER: 'none' });
  });
  afterAll(async () => {
    await plain?.close();
  });

  it.each(['/v2/crawl', '/v2/crawl/params-preview'])('%s answers 501 saying how to configure a model', async (path) => {
    const response = await fetch(`${plain.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.url}/`, prompt: 'only the blog' }),
    });
    const body = (await response.json()) as { error: string; code: string };
    expect(response.status).toBe(501);
    expect(body.code).toBe('NOT_CONFIGURED');
    expect(body.error).toMatch(/needs an LLM provider.*OPENAI_BASE_URL/);
  });
});

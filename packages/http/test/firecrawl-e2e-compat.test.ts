import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl from '@mendable/firecrawl-js';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';
import { articlePage, startMutableSite, type MutableSite } from './support/mutable-site.js';

/** Behaviours Firecrawl's own end-to-end tests expect of the API. */
let site: MutableSite;
let quarry: TestQuarry;

beforeAll(async () => {
  site = await startMutableSite({ '/': articlePage('Compat', ['A page for the compatibility checks.']) });
  quarry = await startQuarry();
});

afterAll(async () => {
  await quarry?.close();
  await site?.close();
});

async function post(path: string, body: unknown) {
  const response = await fetch(`${quarry.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('Firecrawl end-to-end behaviours', () => {
  it.each(['v1', 'v2'])('%s: unknown __experimental_* flags are accepted and ignored', async (version) => {
    const answer = await post(`/${version}/scrape`, { url: `${site.url}/`, __experimental_cache: true, __experimental_omceDomain: 'x' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(JSON.stringify(answer.body)).toContain('A page for the compatibility checks.');
    const crawl = await post(`/${version}/crawl`, { url: `${site.url}/`, limit: 1, __experimental_streamSteps: true });
    expect(crawl.status, JSON.stringify(crawl.body)).toBe(200);
  });

  it('accepts a scrape timeout of 450000 (long PDFs), refuses one past ten minutes naming the field', async () => {
    const answer = await post('/v1/scrape', { url: `${site.url}/`, timeout: 450_000 });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const tooLong = await post('/v2/scrape', { url: `${site.url}/`, timeout: 700_000 });
    expect(tooLong.status).toBe(400);
    expect(String(tooLong.body.error)).toMatch(/`timeout` must be <= 600000; got/);
  });

  it.each([
    ['waitFor over half the timeout', { waitFor: 20_000, timeout: 30_000 }, { code: 'custom', path: ['waitFor'] }, /`waitFor` must not exceed half of timeout/],
    ['parsers with a bad type', { parsers: ['docx'] }, { code: 'invalid_enum_value', path: ['parsers', 0] }, /`parsers\[0\]` must be/],
    ['parsers not an array', { parsers: 'pdf' }, { code: 'invalid_type', path: ['parsers'] }, /`parsers` must be an array/],
    ['parsers in the old object form', { parsers: { pdf: true } }, { code: 'invalid_type', path: ['parsers'] }, /`parsers` must be an array; got an object/],
    [
      'systemPrompt inside a v2 json format',
      { formats: [{ type: 'json', prompt: 'x', systemPrompt: 'y' }] },
      { code: 'unrecognized_keys', path: ['formats', 0, 'systemPrompt'] },
      /`formats\[0\]\.systemPrompt` is not a known option/,
    ],
  ])(
    "a validation error (%s): 400, the specific message in error, details as Firecrawl's list of {code, message, path}",
    async (_name, options, issue, message) => {
      const answer = await post('/v2/scrape', { url: `${site.url}/`, ...options });
      expect(answer.status).toBe(400);
      expect(String(answer.body.error)).toMatch(message);
      expect(answer.body.details).toEqual([{ ...issue, message: expect.stringMatching(message) }]);
    },
  );

  it('a crawl URL deeper than maxDepth: 400 with details [{path: ["url"]}]', async () => {
    const answer = await post('/v1/crawl', { url: `${site.url}/a/b/c`, maxDepth: 1 });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('URL depth exceeds the specified maxDepth');
    expect(answer.body.details).toEqual([{ code: 'custom', message: 'URL depth exceeds the specified maxDepth', path: ['url'] }]);
  });

  it('the official SDK shows the specific message (v2: error; v1: error and details) and hands over the details list', async () => {
    const firecrawl = new Firecrawl({ apiKey: '', apiUrl: quarry.url });
    const v2 = (await firecrawl.scrape(`${site.url}/`, { waitFor: 20_000, timeout: 30_000 }).catch((error: unknown) => error)) as {
      message: string;
      status: number;
      details: unknown;
    };
    expect(v2).toMatchObject({ status: 400, message: expect.stringMatching(/`waitFor` must not exceed half of timeout/) });
    expect(v2.details).toEqual([expect.objectContaining({ path: ['waitFor'] })]);
    const v1 = (await firecrawl.v1.crawlUrl(`${site.url}/a/b/c`, { maxDepth: 1 }).catch((error: unknown) => error)) as { message: string };
    expect(v1.message).toContain('URL depth exceeds the specified maxDepth');
    expect(v1.message).toContain('"path":["url"]');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl from '@mendable/firecrawl-js';
import { docsSiteRoutes, startTestServer, waitFor, type TestServer } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/**
 * llms.txt without a model, through the HTTP API and the v1 SDK, against the local docs site:
 * descriptions come from each page's meta description.
 */
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

const post = (path: string, body: unknown) =>
  fetch(`${quarry.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function finished(id: string) {
  return waitFor(async () => {
    const body = await fetch(`${quarry.url}/v1/llmstxt/${id}`).then((response) => response.json());
    return body.status === 'processing' ? undefined : body;
  });
}

describe('POST /v1/llmstxt', () => {
  it('maps the site, reads maxUrls pages (in map order) and writes llms.txt and llms-full.txt', async () => {
    const response = await post('/v1/llmstxt', { url: `${site.url}/`, maxUrls: 3, showFullText: true });
    expect(response.status).toBe(200);
    const started = await response.json();
    expect(started).toEqual({ success: true, id: expect.any(String) });
    const body = await finished(started.id);
    expect(body).toMatchObject({ success: true, status: 'completed', expiresAt: expect.any(String) });
    expect(body.data.llmstxt).toBe(
      [
        '# Docs Site',
        '',
        '> The Home page of the docs site.',
        '',
        '## Pages',
        '',
        `- [Home](${site.url}/): The Home page of the docs site.`,
        `- [Only in the sitemap](${site.url}/sitemap-only): The Only in the sitemap page of the docs site.`,
        '',
        '## Docs',
        '',
        `- [Docs](${site.url}/docs/): The Docs page of the docs site.`,
        '',
      ].join('\n'),
    );
    expect(body.data.llmsfulltxt).toContain(`## Docs\n\nSource: ${site.url}/docs/\n\n# Docs\n\nThis page is about docs.`);
    expect(body.data.llmsfulltxt).toContain('token-docs');
  });

  it('charges a credit per page read', async () => {
    const started = await post('/v1/llmstxt', { url: `${site.url}/`, maxUrls: 2 }).then((response) => response.json());
    await finished(started.id);
    const usage = await quarry.services.ledger.listUsage('local', { kind: 'credits' });
    expect(usage.filter((row) => row.jobId === started.id).map((row) => [row.amount, row.reason])).toEqual([[2, 'llmstxt']]);
  });

  it('answers 400 naming the field for bad input, and 404 for an unknown job', async () => {
    const bad = await post('/v1/llmstxt', { url: `${site.url}/`, maxUrls: 0 });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toContain('`maxUrls` must be >= 1; got number 0');
    const noUrl = await post('/v1/llmstxt', { url: 'not a url' });
    expect(noUrl.status).toBe(400);
    expect((await noUrl.json()).error).toContain('`url`');
    const unknown = await post('/v1/llmstxt', { url: `${site.url}/`, pages: 3 });
    expect((await unknown.json()).error).toContain('`pages` is not a known option');
    const missing = await fetch(`${quarry.url}/v1/llmstxt/nope`);
    expect(missing.status).toBe(404);
  });

  it('fails the job with the reason when no page can be read', async () => {
    const dead = await startTestServer({ '*': { status: 500, body: 'down' } });
    const started = await post('/v1/llmstxt', { url: `${dead.url}/`, maxUrls: 2 }).then((response) => response.json());
    const body = await finished(started.id);
    await dead.close();
    expect(body).toMatchObject({ success: false, status: 'failed', error: expect.stringContaining('None of the pages') });
    const usage = await quarry.services.ledger.listUsage('local');
    expect(usage.filter((row) => row.jobId === started.id)).toEqual([]);
  });
});

describe('v1 SDK generateLLMsText', () => {
  it('starts, polls and returns the files', async () => {
    const firecrawl = new Firecrawl({ apiKey: '', apiUrl: quarry.url });
    const result = await firecrawl.v1.generateLLMsText(`${site.url}/docs/`, { maxUrls: 2, showFullText: true });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.status).toBe('completed');
    expect(result.data.llmstxt).toMatch(/^# Docs Site\n\n> The Docs page of the docs site\.\n\n## Docs\n\n- \[Docs\]/);
    expect(result.data.llmsfulltxt).toContain('token-docs');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl from '@mendable/firecrawl-js';
import { startOpenAiDouble, startTestServer, waitFor, type LlmDouble, type RouteTable, type TestServer } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/**
 * The agent (POST/GET/DELETE /v2/agent and the list) through the official SDK's agent methods:
 * a local site, a local SearXNG (its JSON API) as the search provider and the local OpenAI double
 * as the model, which answers from `Key: value` facts on the pages it is given.
 */
let site: TestServer;
let searxng: TestServer;
let openai: LlmDouble;
let quarry: TestQuarry;
let bare: TestQuarry;
let teamA: Firecrawl;
let teamB: Firecrawl;
let keyA: string;
const searches: string[] = [];
let releaseSlow: () => void = () => undefined;
const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));

const page = (title: string, lines: string[]) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><article><h1>${title}</h1>${lines.map((line) => `<p>${line}</p>`).join('')}<p>More words about ${title.toLowerCase()} so that the page has prose.</p></article></main></body></html>`;

const siteRoutes: RouteTable = {
  '/kettle': { body: page('Kettle', ['Name: Acme Kettle', 'Price: 39.50', 'See also the <a href="/blender">blender</a> and the <a href="/about">shop</a>.']) },
  '/blender': { body: page('Blender', ['Name: Acme Blender', 'Price: 80']) },
  '/about': { body: page('About', ['We sell things.']) },
  '/toaster': { body: page('Toaster', ['Name: Acme Toaster', 'Price: 25']) },
  '/slow': async (_request, response) => {
    await slowGate;
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(page('Slow', ['Name: Slow']));
  },
};

const schema = { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } }, required: ['name', 'price'] };

const creditsOf = async (team: string) =>
  (await quarry.services.ledger.listUsage(team, { kind: 'credits' })).filter((row) => row.reason === 'agent').reduce((sum, row) => sum + row.amount, 0);

const post = async (target: TestQuarry, body: unknown, key = keyA) => {
  const response = await fetch(`${target.url}/v2/agent`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
};

beforeAll(async () => {
  site = await startTestServer(siteRoutes);
  searxng = await startTestServer((_request, response, url) => {
    searches.push(url.searchParams.get('q') ?? '');
    const results =
      url.searchParams.get('pageno') === '1' && /toaster/i.test(url.searchParams.get('q') ?? '')
        ? [{ url: `${site.url}/toaster`, title: 'Toaster', content: 'A toaster', engine: 'double' }]
        : [];
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ query: url.searchParams.get('q'), number_of_results: results.length, results }));
  });
  openai = await startOpenAiDouble();
  quarry = await startQuarry({ OPENAI_BASE_URL: openai.url, MODEL_NAME: 'double-model', QUARRY_LLM_MAX_RETRIES: '0', SEARXNG_ENDPOINT: searxng.url });
  bare = await startQuarry();
  const ledger = quarry.services.ledger;
  await ledger.ensureTeam('team-a', 'team-a');
  await ledger.ensureTeam('team-b', 'team-b');
  keyA = (await ledger.createKey('team-a', 'a')).key;
  teamA = new Firecrawl({ apiKey: keyA, apiUrl: quarry.url });
  teamB = new Firecrawl({ apiKey: (await ledger.createKey('team-b', 'b')).key, apiUrl: quarry.url });
});

afterAll(async () => {
  releaseSlow();
  await quarry?.close();
  await bare?.close();
  await openai?.close();
  await searxng?.close();
  await site?.close();
});

describe('the agent through the SDK', () => {
  it('reads the given URLs only and fills the schema, with sources and the credits charged', async () => {
    const before = await creditsOf('team-a');
    searches.length = 0;
    const result = await teamA.agent({
      prompt: 'The product and its price',
      urls: [`${site.url}/kettle`],
      schema,
      strictConstrainToURLs: true,
      pollInterval: 0.2,
      timeout: 60,
    });
    expect(result).toMatchObject({ success: true, status: 'completed', data: { name: 'Acme Kettle', price: 39.5 } });
    const status = result as typeof result & { sources: Array<{ url: string; title: string }> };
    expect(status.sources).toEqual([expect.objectContaining({ url: `${site.url}/kettle`, title: 'Kettle' })]);
    expect(result.creditsUsed).toBeGreaterThan(1);
    expect(await creditsOf('team-a')).toBe(before + result.creditsUsed!);
    // Only the given URL: the search provider was never asked.
    expect(searches).toEqual([]);
  });

  it('without URLs, searches the web for the prompt and answers in markdown', async () => {
    const result = await teamA.agent({ prompt: 'Tell me about the toaster', pollInterval: 0.2, timeout: 60 });
    expect(result.status).toBe('completed');
    expect(searches).toContain('Tell me about the toaster');
    expect((result.data as { answer: string }).answer).toMatch(/^Summary: /);
    expect((result as unknown as { sources: Array<{ url: string }> }).sources.map((source) => source.url)).toEqual([`${site.url}/toaster`]);
  });

  it('browses the given site for pages that match the prompt when not constrained to the URLs', async () => {
    searches.length = 0;
    const result = await teamA.agent({ prompt: 'What does the blender cost?', urls: [`${site.url}/kettle`], pollInterval: 0.2, timeout: 60 });
    expect(result.status).toBe('completed');
    const urls = (result as unknown as { sources: Array<{ url: string }> }).sources.map((source) => source.url);
    expect(urls).toContain(`${site.url}/kettle`);
    expect(urls).toContain(`${site.url}/blender`);
    expect(urls).not.toContain(`${site.url}/about`);
    expect(searches).toEqual(['What does the blender cost?']);
  });

  it('keeps within maxCredits, and fails uncharged when they cannot pay for an answer', async () => {
    const bounded = await teamA.agent({
      prompt: 'The product',
      urls: [`${site.url}/kettle`, `${site.url}/toaster`],
      schema,
      maxCredits: 155,
      pollInterval: 0.2,
      timeout: 60,
    });
    expect(bounded.status).toBe('completed');
    expect(bounded.creditsUsed).toBeLessThanOrEqual(155);
    expect((bounded as unknown as { sources: unknown[] }).sources).toHaveLength(1);
    const before = await creditsOf('team-a');
    const starved = await teamA.agent({ prompt: 'The product', urls: [`${site.url}/kettle`], schema, maxCredits: 20, pollInterval: 0.2, timeout: 60 });
    expect(starved).toMatchObject({ success: false, status: 'failed', error: expect.stringContaining('maxCredits 20') });
    expect(starved.creditsUsed).toBe(0);
    expect(await creditsOf('team-a')).toBe(before);
  });

  it("cancels a running agent, lists the team's runs, and hides them from another team (404)", async () => {
    const started = await teamA.startAgent({ prompt: 'The slow page', urls: [`${site.url}/slow`], strictConstrainToURLs: true });
    expect(started).toMatchObject({ success: true, id: expect.any(String) });
    expect((await teamA.getAgentStatus(started.id)).status).toBe('processing');
    await expect(teamB.getAgentStatus(started.id)).rejects.toMatchObject({ status: 404 });
    await expect(teamB.cancelAgent(started.id)).rejects.toMatchObject({ status: 404 });
    const list = await teamA.listAgents();
    expect(list.success).toBe(true);
    expect(list.agents![0]).toMatchObject({ id: started.id, status: 'processing', options: { prompt: 'The slow page', urls: [`${site.url}/slow`] } });
    expect((await teamB.listAgents()).agents).toEqual([]);
    expect(await teamA.cancelAgent(started.id)).toBe(true);
    releaseSlow();
    const status = await waitFor(async () => {
      const current = await teamA.getAgentStatus(started.id);
      return current.status === 'processing' ? undefined : current;
    });
    expect(status.status).toBe('cancelled');
  });
});

describe('POST /v2/agent refusals', () => {
  it('bad input answers 400 naming the field', async () => {
    const noPrompt = await post(quarry, { urls: [`${site.url}/kettle`] });
    expect(noPrompt.status).toBe(400);
    expect(noPrompt.body.details[0].path).toEqual(['prompt']);
    const badUrl = await post(quarry, { prompt: 'x', urls: ['ftp://example.com/file'] });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.details[0].path).toEqual(['urls', 0]);
    const strictWithout = await post(quarry, { prompt: 'x', strictConstrainToURLs: true });
    expect(strictWithout.body.details[0].path).toEqual(['urls']);
    const badCredits = await post(quarry, { prompt: 'x', maxCredits: 0 });
    expect(badCredits.status).toBe(400);
    expect(badCredits.body.error).toContain('maxCredits');
    const badList = await fetch(`${quarry.url}/v2/agent?before=yesterday`, { headers: { authorization: `Bearer ${keyA}` } });
    expect(badList.status).toBe(400);
  });

  it('traces, snapshots and threads (cloud features) answer a clear 501, not a 404', async () => {
    await expect(teamA.getAgentTrace('some-id')).rejects.toMatchObject({ status: 501, message: expect.stringContaining('not available') });
    await expect(teamA.getAgentThread('some-thread')).rejects.toMatchObject({ status: 501 });
  });

  it('without a model answers 501 saying how to configure one', async () => {
    const refused = await fetch(`${bare.url}/v2/agent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'x' }),
    });
    expect(refused.status).toBe(501);
    expect(((await refused.json()) as { error: string }).error).toMatch(/OPENAI_BASE_URL|OLLAMA_BASE_URL|ANTHROPIC_API_KEY/);
  });
});

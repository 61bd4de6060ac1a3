import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl from '@mendable/firecrawl-js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { findChromium } from '@quarry/adapters';
import { createServer, type Server } from 'node:http';
import { startOpenAiDouble, startTestServer, type LlmDouble, type TestServer } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/**
 * Interact through HTTP and the official SDK: JavaScript run inside the page kept for a scrape
 * (state kept between calls), console output, thrown errors, an endless loop stopped by the time
 * bound, the SSRF guard on the kept page, stop, per-team isolation, 400s naming the field, 501
 * for the `node` form, and credits charged only for runs that finished.
 */
const chromiumPath = findChromium(process.env.QUARRY_CHROMIUM_PATH);
const skip = !chromiumPath && process.env.CI !== 'true';

let site: TestServer;
let quarry: TestQuarry;
let keyA: string;
let teamA: Firecrawl;
let teamB: Firecrawl;
let openai: LlmDouble;
let withModel: TestQuarry;
let privateServer: Server;
let privateHits = 0;
let privateUrl: string;

const page = `<!doctype html><html><head><title>Counter page</title></head><body>
  <h1>Counter</h1><button id="inc" onclick="document.getElementById('n').textContent = String(Number(document.getElementById('n').textContent) + 1)">+1</button>
  <p id="n">0</p></body></html>`;

const creditsOf = async (team: string) =>
  (await quarry.services.ledger.listUsage(team, { kind: 'credits' })).filter((row) => row.reason === 'interact').reduce((sum, row) => sum + row.amount, 0);

async function post(id: string, body: unknown, key = keyA) {
  const response = await fetch(`${quarry.url}/v2/scrape/${id}/interact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  if (skip) return;
  site = await startTestServer({ '/counter': { body: page } });
  quarry = await startQuarry({ QUARRY_INTERACT_MAX_SESSIONS: '2' });
  const { ledger } = quarry.services;
  await ledger.ensureTeam('team-a', 'team-a');
  await ledger.ensureTeam('team-b', 'team-b');
  keyA = (await ledger.createKey('team-a', 'a')).key;
  teamA = new Firecrawl({ apiKey: keyA, apiUrl: quarry.url });
  teamB = new Firecrawl({ apiKey: (await ledger.createKey('team-b', 'b')).key, apiUrl: quarry.url });
  openai = await startOpenAiDouble();
  withModel = await startQuarry({ OPENAI_BASE_URL: openai.url, MODEL_NAME: 'double-model', QUARRY_LLM_MAX_RETRIES: '0' });
  // A private address the operator did not allow (only 127.0.0.1 is): it counts what reaches it.
  privateServer = createServer((_request, response) => {
    privateHits++;
    response.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/html' }).end('<p>internal secret</p>');
  });
  await new Promise<void>((resolve) => privateServer.listen(0, '127.0.0.2', resolve));
  privateUrl = `http://127.0.0.2:${(privateServer.address() as { port: number }).port}/`;
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await withModel?.close();
  await openai?.close();
  await new Promise((resolve) => privateServer?.close(resolve));
  await site?.close();
});

describe.skipIf(skip)('interact', () => {
  it('runs JavaScript in the page kept for a scrape, keeps its state, and stops', async () => {
    const scraped = await teamA.scrape(`${site.url}/counter`, { formats: ['markdown'] });
    const id = scraped.metadata!.scrapeId!;
    const before = await creditsOf('team-a');

    const title = await teamA.interact(id, { code: 'document.title', language: 'javascript' as never });
    expect(title).toMatchObject({ success: true, result: 'Counter page', exitCode: 0, killed: false });

    const clicked = await teamA.interact(id, {
      code: "document.getElementById('inc').click(); console.log('clicked'); console.warn('careful'); return document.getElementById('n').textContent;",
      language: 'javascript' as never,
    });
    expect(clicked).toMatchObject({ success: true, result: '1', stdout: 'clicked\n', stderr: 'careful\n' });
    // The same page: the click of the previous call is still there.
    const again = await post(id, { code: "document.getElementById('n').textContent" });
    expect(again.body.result).toBe('1');
    expect(await creditsOf('team-a')).toBe(before + 3);

    const stopped = await teamA.stopInteraction(id);
    expect(stopped).toMatchObject({ success: true, status: 'stopped' });
    expect(typeof stopped.sessionDurationMs).toBe('number');
    // A new call opens a fresh page at the scrape's URL.
    expect((await post(id, { code: "document.getElementById('n').textContent" })).body.result).toBe('0');
    await teamA.stopInteraction(id);
    await expect(teamA.stopInteraction(id)).rejects.toThrow(/No interact session/);
  }, 60_000);

  it("keeps the page of a browser scrape: interact continues where the scrape's actions left it", async () => {
    const scraped = await teamA.scrape(`${site.url}/counter`, {
      formats: ['markdown'],
      actions: [
        { type: 'click', selector: '#inc' },
        { type: 'click', selector: '#inc' },
      ],
    });
    expect(scraped.markdown).toContain('2');
    const id = scraped.metadata!.scrapeId!;
    expect(await teamA.interact(id, { code: "document.getElementById('n').textContent", language: 'javascript' as never })).toMatchObject({ result: '2' });
    await teamA.stopInteraction(id);
    // Once stopped, the next call opens the scrape's URL afresh.
    expect(await teamA.interact(id, { code: "document.getElementById('n').textContent", language: 'javascript' as never })).toMatchObject({ result: '0' });
    await teamA.stopInteraction(id);
  }, 60_000);

  it('reports thrown errors and stops endless code at its time bound, charging nothing', async () => {
    const id = (await teamA.scrape(`${site.url}/counter`, { formats: ['markdown'] })).metadata!.scrapeId!;
    const before = await creditsOf('team-a');
    const thrown = await post(id, { code: "throw new Error('boom')" });
    expect(thrown.status).toBe(200);
    expect(thrown.body).toMatchObject({ success: false, exitCode: 1, killed: false });
    expect(String(thrown.body.stderr)).toContain('boom');

    const started = Date.now();
    const endless = await post(id, { code: 'while (true) {}', timeout: 2 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(endless.body).toMatchObject({ success: false, exitCode: 124, killed: true });
    expect(await creditsOf('team-a')).toBe(before);
    // The stuck page was closed with its session; the next call gets a working one.
    expect((await post(id, { code: '1 + 1' })).body.result).toBe('2');
    await teamA.stopInteraction(id);
  }, 60_000);

  it('keeps the SSRF guard on the kept page: fetch and navigation to a private address never arrive', async () => {
    const id = (await teamA.scrape(`${site.url}/counter`, { formats: ['markdown'] })).metadata!.scrapeId!;
    const probe = await post(id, {
      code: `try { const r = await fetch(${JSON.stringify(privateUrl)}); return 'reached ' + (await r.text()); } catch (e) { return 'refused'; }`,
    });
    expect(probe.body.result).toBe('refused');
    const image = await post(id, {
      code: `await new Promise((resolve) => { const img = new Image(); img.onload = img.onerror = resolve; img.src = ${JSON.stringify(privateUrl + 'pixel.png')}; }); return 'tried'`,
    });
    expect(image.body.result).toBe('tried');
    await post(id, { code: `location.href = ${JSON.stringify(privateUrl)}; return 'sent'` });
    const where = await post(id, { code: 'document.body ? document.body.innerText : ""' });
    expect(String(where.body.result)).not.toContain('internal secret');
    expect(privateHits).toBe(0);
    await teamA.stopInteraction(id);
  }, 60_000);

  it('turns a prompt into actions with the configured model and runs them on the page', async () => {
    const firecrawl = new Firecrawl({ apiKey: '', apiUrl: withModel.url });
    const id = (await firecrawl.scrape(`${site.url}/counter`, { formats: ['markdown'] })).metadata!.scrapeId!;
    openai.script({
      object: {
        actions: [
          { type: 'click', selector: '#inc' },
          { type: 'click', selector: '#inc' },
          { type: 'executeJavascript', script: "return document.getElementById('n').textContent" },
        ],
      },
    });
    const done = await firecrawl.interact(id, { prompt: 'Press the +1 button twice and read the counter', language: 'javascript' as never });
    expect(done).toMatchObject({ success: true, exitCode: 0 });
    expect(JSON.parse(done.result!).javascriptReturns).toEqual([{ type: 'string', value: '2' }]);
    const prompt = JSON.stringify(openai.requests.at(-1)!.body);
    expect(prompt).toContain('Press the +1 button twice');
    expect(prompt).toContain('id=\\"inc\\"');
    // Actions the model made up that do not fit the schema are refused, not run.
    openai.script({ object: { actions: [{ type: 'launchMissiles' }] } });
    const refused = await fetch(`${withModel.url}/v2/scrape/${id}/interact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'do something odd' }),
    });
    expect(refused.status).toBeGreaterThanOrEqual(500);
    expect(((await refused.json()) as { error: string }).error).toContain('actions schema');
    await firecrawl.stopInteraction(id);
  }, 60_000);

  it('answers 404 for another team, 400 naming the field, 501 for the node form', async () => {
    const id = (await teamA.scrape(`${site.url}/counter`, { formats: ['markdown'] })).metadata!.scrapeId!;
    await expect(teamB.interact(id, { code: 'document.title', language: 'javascript' as never })).rejects.toMatchObject({ status: 404 });
    await expect(teamB.stopInteraction(id)).rejects.toMatchObject({ status: 404 });
    expect((await post('no-such-scrape', { code: '1' })).status).toBe(404);

    for (const [body, field] of [
      [{}, 'code'],
      [{ code: 42 }, 'code'],
      [{ code: '1', prompt: 'click' }, 'prompt'],
      [{ code: '1', language: 'ruby' }, 'language'],
      [{ code: '1', timeout: -1 }, 'timeout'],
      [{ code: '1', colour: 'red' }, 'colour'],
    ] as const) {
      const answer = await post(id, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error, JSON.stringify(body)).toContain(field);
    }
    const before = await creditsOf('team-a');
    // The SDK sends language "node" unless told otherwise.
    await expect(teamA.interact(id, { code: 'await page.title()' })).rejects.toMatchObject({ status: 501 });
    expect((await post(id, { code: 'x', language: 'python' })).status).toBe(501);
    expect((await post(id, { prompt: 'click the button' })).status).toBe(501);
    expect(await creditsOf('team-a')).toBe(before);
  }, 60_000);

  it('holds at most QUARRY_INTERACT_MAX_SESSIONS per team: the least recently used closes', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await teamA.scrape(`${site.url}/counter`, { formats: ['markdown'] })).metadata!.scrapeId!);
    for (const id of ids) expect((await post(id, { code: '1' })).body.result).toBe('1');
    await expect(teamA.stopInteraction(ids[0]!)).rejects.toMatchObject({ status: 404 });
    await teamA.stopInteraction(ids[1]!);
    await teamA.stopInteraction(ids[2]!);
  }, 60_000);

  it('keeps a browser page slot for scrapes: past the server-wide session cap a new session is a 429', async () => {
    const small = await startQuarry({ QUARRY_BROWSER_MAX_PAGES: '2' });
    try {
      const client = new Firecrawl({ apiKey: '', apiUrl: small.url });
      const first = (await client.scrape(`${site.url}/counter`, { formats: ['markdown'] })).metadata!.scrapeId!;
      const second = (await client.scrape(`${site.url}/counter`, { formats: ['markdown'] })).metadata!.scrapeId!;
      expect(await client.interact(first, { code: '1', language: 'javascript' as never })).toMatchObject({ result: '1' });
      await expect(client.interact(second, { code: '1', language: 'javascript' as never })).rejects.toMatchObject({ status: 429 });
      // The slot left serves browser scrapes while the session is open.
      const rendered = await client.scrape(`${site.url}/counter`, { formats: ['markdown'], waitFor: 10 });
      expect(rendered.markdown).toContain('Counter');
      await client.stopInteraction(first);
      expect(small.services.sessions!.count()).toBe(0);
      expect(await client.interact(second, { code: '2', language: 'javascript' as never })).toMatchObject({ result: '2' });
    } finally {
      await small.close();
    }
  }, 60_000);

  it('closes a session after QUARRY_INTERACT_TTL_SECONDS unused', async () => {
    const brief = await startQuarry({ QUARRY_INTERACT_TTL_SECONDS: '1' });
    try {
      const client = new Firecrawl({ apiKey: '', apiUrl: brief.url });
      const id = (await client.scrape(`${site.url}/counter`, { formats: ['markdown'] })).metadata!.scrapeId!;
      const js = { language: 'javascript' as never };
      await client.interact(id, { code: "document.getElementById('inc').click()", ...js });
      // Use restarts the clock: still open 0.6 s later, and its state is there.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(await client.interact(id, { code: "document.getElementById('n').textContent", ...js })).toMatchObject({ result: '1' });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(brief.services.sessions!.count()).toBe(0);
      await expect(client.stopInteraction(id)).rejects.toMatchObject({ status: 404 });
      expect(await client.interact(id, { code: "document.getElementById('n').textContent", ...js })).toMatchObject({ result: '0' });
    } finally {
      await brief.close();
    }
  }, 60_000);

  it('firecrawl_interact and firecrawl_interact_stop over MCP (url mode scrapes first)', async () => {
    const client = new Client({ name: 'quarry-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${quarry.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${keyA}` } } }));
    try {
      const textOf = (result: unknown) => JSON.parse((result as { content: Array<{ text: string }> }).content.map((part) => part.text).join(''));
      const opened = textOf(await client.callTool({ name: 'firecrawl_interact', arguments: { url: `${site.url}/counter`, code: 'document.title' } }));
      expect(opened).toMatchObject({ success: true, result: 'Counter page' });
      const again = textOf(
        await client.callTool({ name: 'firecrawl_interact', arguments: { scrapeId: opened.scrapeId, code: "document.querySelector('h1').textContent" } }),
      );
      expect(again.result).toBe('Counter');
      const stopped = textOf(await client.callTool({ name: 'firecrawl_interact_stop', arguments: { scrapeId: opened.scrapeId } }));
      expect(stopped).toMatchObject({ success: true, status: 'stopped' });
    } finally {
      await client.close();
    }
  }, 60_000);
});

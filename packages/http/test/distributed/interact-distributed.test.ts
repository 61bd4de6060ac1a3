import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl from '@mendable/firecrawl-js';
import { findChromium } from '@quarry/adapters';
import { startTestServer, type TestServer } from '@quarry/core/testing';
import { createPostgresStorage } from '@quarry/storage/distributed';
import { areBackingServicesAvailable, dropIsolated, isolatedEnv } from './backing-services.js';
import { startApiProcess, startWorkerProcess, stopAll, type QuarryProcess } from './quarry-processes.js';

/**
 * Interact in the distributed mode with separate processes (the built CLI): two API processes and
 * a worker. A scrape that kept no page gets one on the worker; a browser scrape keeps its page in
 * the API process that ran it; either way every API process forwards interact and stop to the
 * holder, so the page's state is the same whichever process answers. The team's session limit
 * holds across processes. Another team's scrape is a 404, and a holder that died answers as an
 * expired session (410).
 */
const chromium = findChromium(process.env.QUARRY_CHROMIUM_PATH);
const available = await areBackingServicesAvailable();
const skip = !available || (!chromium && process.env.CI !== 'true');

const page = `<!doctype html><html><head><title>Counter page</title></head><body>
  <h1>Counter</h1><button id="inc" onclick="document.getElementById('n').textContent = String(Number(document.getElementById('n').textContent) + 1)">+1</button>
  <p id="n">0</p></body></html>`;

describe.skipIf(skip)('interact on API and worker processes', () => {
  const processes: QuarryProcess[] = [];
  let env: ReturnType<typeof isolatedEnv> & Record<string, string>;
  let site: TestServer;
  let apiOne: string;
  let apiTwo: string;
  let keyA: string;
  let keyB: string;
  /** Team A's client on each API process. */
  let viaOne: Firecrawl;
  let viaTwo: Firecrawl;

  const js = (code: string) => ({ code, language: 'javascript' as never, timeout: 10 });

  async function post(api: string, id: string, body: unknown, key = keyA) {
    const response = await fetch(`${api}/v2/scrape/${id}/interact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  beforeAll(async () => {
    site = await startTestServer({ '/counter': { body: page } });
    env = { ...isolatedEnv(), QUARRY_RECONCILE_INTERVAL_MS: '1000', QUARRY_INTERACT_MAX_SESSIONS: '2' };
    const one = await startApiProcess(env);
    processes.push(one);
    const two = await startApiProcess(env);
    processes.push(two, await startWorkerProcess(env, 2));
    apiOne = one.url!;
    apiTwo = two.url!;
    const storage = await createPostgresStorage({ connectionString: env.DATABASE_URL, schema: env.QUARRY_PG_SCHEMA, maxConnections: 1 });
    try {
      await storage.ledger.ensureTeam('team-a', 'team-a');
      await storage.ledger.ensureTeam('team-b', 'team-b');
      keyA = (await storage.ledger.createKey('team-a', 'a')).key;
      keyB = (await storage.ledger.createKey('team-b', 'b')).key;
    } finally {
      await storage.close();
    }
    viaOne = new Firecrawl({ apiKey: keyA, apiUrl: apiOne });
    viaTwo = new Firecrawl({ apiKey: keyA, apiUrl: apiTwo });
  }, 90_000);

  afterAll(async () => {
    await stopAll(processes);
    await site?.close();
    if (env) await dropIsolated(env);
  });

  it('opens a page on the worker for a plain scrape, shared by both API processes, and stops it', async () => {
    const scraped = await viaOne.scrape(`${site.url}/counter`, { formats: ['markdown'] });
    const id = scraped.metadata!.scrapeId!;

    expect(await viaOne.interact(id, js("window.mark = 'set'; document.getElementById('inc').click(); return document.title;"))).toMatchObject({
      success: true,
      result: 'Counter page',
      exitCode: 0,
    });
    // The other API process reaches the same page: the mark and the click are there.
    expect(await viaTwo.interact(id, js("window.mark + ' ' + document.getElementById('n').textContent"))).toMatchObject({ success: true, result: 'set 1' });

    // Another team's scrape id is not found on either process, and its page is untouched.
    for (const api of [apiOne, apiTwo]) expect((await post(api, id, js('1'), keyB)).status).toBe(404);

    const stopped = await viaTwo.stopInteraction(id);
    expect(stopped).toMatchObject({ success: true });
    const again = await fetch(`${apiOne}/v2/scrape/${id}/interact`, { method: 'DELETE', headers: { authorization: `Bearer ${keyA}` } });
    expect(again.status).toBe(404);
    // A new call opens a fresh page: the old one's state is gone.
    expect(await viaOne.interact(id, js('String(window.mark)'))).toMatchObject({ success: true, result: 'undefined' });
    await viaOne.stopInteraction(id);
  });

  it('forwards calls to the API process that kept the page of a browser scrape', async () => {
    const scraped = await viaOne.scrape(`${site.url}/counter`, { formats: ['markdown'], actions: [{ type: 'click', selector: '#inc' }] });
    const id = scraped.metadata!.scrapeId!;
    // The click of the scrape's actions is on the kept page, reached from the other process.
    expect(await viaTwo.interact(id, js("document.getElementById('n').textContent"))).toMatchObject({ success: true, result: '1' });
    expect(await viaOne.interact(id, js("document.getElementById('inc').click(); return document.getElementById('n').textContent;"))).toMatchObject({
      result: '2',
    });
    expect(await viaTwo.stopInteraction(id)).toMatchObject({ success: true });
  });

  it('holds the team limit across processes: a new session closes the least recently used, wherever it is held', async () => {
    const counter = `${site.url}/counter`;
    // Held by API process one (its browser scrape kept the page), then two pages on the worker.
    const first = (await viaOne.scrape(counter, { formats: ['markdown'], actions: [{ type: 'click', selector: '#inc' }] })).metadata!.scrapeId!;
    expect(await viaTwo.interact(first, js("document.getElementById('n').textContent"))).toMatchObject({ result: '1' });
    const second = (await viaOne.scrape(counter, { formats: ['markdown'] })).metadata!.scrapeId!;
    expect(await viaTwo.interact(second, js("window.mark = 'second'; return 'ok';"))).toMatchObject({ result: 'ok' });
    const third = (await viaTwo.scrape(counter, { formats: ['markdown'] })).metadata!.scrapeId!;
    expect(await viaOne.interact(third, js("return 'ok';"))).toMatchObject({ result: 'ok' });

    // QUARRY_INTERACT_MAX_SESSIONS is 2: the first, least recently used, was closed in API process one.
    const stopFirst = await fetch(`${apiTwo}/v2/scrape/${first}/interact`, { method: 'DELETE', headers: { authorization: `Bearer ${keyA}` } });
    expect(stopFirst.status).toBe(404);
    expect(await viaOne.interact(second, js('String(window.mark)'))).toMatchObject({ result: 'second' });
    await viaOne.stopInteraction(second);
    await viaTwo.stopInteraction(third);
  });

  it('answers an expired session when the worker holding the page died, then opens a new one', async () => {
    const scraped = await viaOne.scrape(`${site.url}/counter`, { formats: ['markdown'] });
    const id = scraped.metadata!.scrapeId!;
    expect(await viaTwo.interact(id, js("window.mark = 'kept'; return 'ok';"))).toMatchObject({ success: true, result: 'ok' });

    // The only worker dies with the page; a new worker starts.
    const worker = processes.pop()!;
    await stopAll([worker]);
    processes.push(await startWorkerProcess(env, 2));

    const expired = await post(apiOne, id, js('String(window.mark)'));
    expect(expired.status).toBe(410);
    expect(String(expired.body.error)).toMatch(/expired/);
    // The next call opens a page on the new worker.
    expect(await viaTwo.interact(id, js('String(window.mark)'))).toMatchObject({ success: true, result: 'undefined' });
    await viaTwo.stopInteraction(id);
  }, 60_000);
});

import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl from '@mendable/firecrawl-js';
import { findChromium } from '@quarry/adapters';
import { startTestServer, type TestServer } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/**
 * Interact's `language: "node"` form, enabled by QUARRY_INTERACT_NODE: code given a `page` object
 * runs in a locked-down child process whose page calls the server performs on the kept page. Code
 * that tries to escape (require, process, Function constructors, dynamic import, network, a file,
 * an endless loop, a huge allocation) gets nothing and is bounded.
 */
const chromiumPath = findChromium(process.env.QUARRY_CHROMIUM_PATH);
const skip = !chromiumPath && process.env.CI !== 'true';

let site: TestServer;
let quarry: TestQuarry;
let firecrawl: Firecrawl;
let privateServer: Server;
let privateHits = 0;
let privateUrl: string;

const page = `<!doctype html><html><head><title>Counter page</title></head><body>
  <button id="inc" onclick="document.getElementById('n').textContent = String(Number(document.getElementById('n').textContent) + 1)">+1</button>
  <p id="n">0</p><input id="name"></body></html>`;

beforeAll(async () => {
  if (skip) return;
  site = await startTestServer({ '/counter': { body: page } });
  quarry = await startQuarry({ QUARRY_INTERACT_NODE: 'true' });
  firecrawl = new Firecrawl({ apiKey: '', apiUrl: quarry.url });
  privateServer = createServer((_request, response) => {
    privateHits++;
    response.writeHead(200, { 'access-control-allow-origin': '*' }).end('internal secret');
  });
  await new Promise<void>((resolve) => privateServer.listen(0, '127.0.0.2', resolve));
  privateUrl = `http://127.0.0.2:${(privateServer.address() as { port: number }).port}/`;
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await new Promise((resolve) => privateServer?.close(resolve));
  await site?.close();
});

describe.skipIf(skip)('interact with language "node"', () => {
  let id: string;
  beforeAll(async () => {
    id = (await firecrawl.scrape(`${site.url}/counter`, { formats: ['markdown'] })).metadata!.scrapeId!;
  }, 60_000);

  it("runs the SDK's default form with a page object: clicks, fills, evaluates, logs", async () => {
    const result = await firecrawl.interact(id, {
      code: `await page.click('#inc'); await page.fill('#name', 'Ada');
        console.log('title', await page.title());
        return await page.evaluate(() => document.getElementById('n').textContent + ' ' + document.getElementById('name').value);`,
    });
    expect(result).toMatchObject({ success: true, result: '1 Ada', stdout: 'title Counter page\n', exitCode: 0, killed: false });
    // An expression's value is the result; the page keeps its state.
    expect(await firecrawl.interact(id, { code: 'page.evaluate(\'document.getElementById("n").textContent\')' })).toMatchObject({ result: '1' });
  }, 60_000);

  it.each([
    ['require', "return typeof require === 'function' ? require('node:fs').readFileSync('/etc/passwd', 'utf8') : 'none'", /none/],
    ['process', "return typeof process === 'undefined' ? 'none' : process.binding('fs')", /none/],
    [
      'globals',
      "return [typeof fetch, typeof setTimeout, typeof globalThis.process, typeof Buffer, typeof WebAssembly].join(',')",
      /^undefined,undefined,undefined,undefined,/,
    ],
  ])(
    'offers no %s',
    async (_label, code, expected) => {
      const result = await firecrawl.interact(id, { code });
      expect(result.result ?? result.stderr).toMatch(expected);
    },
    60_000,
  );

  it.each([
    ['Function from a page method', "return page.click.constructor('return process')()"],
    ['Function from the context', "return this.constructor.constructor('return process')()"],
    ['Function from console', "return console.log.constructor.constructor('return process')().mainModule"],
    ['eval', "return eval('process.pid')"],
    ['dynamic import', "const fs = await import('node:fs'); return fs.readFileSync('/etc/passwd', 'utf8')"],
  ])(
    'refuses an escape through %s',
    async (_label, code) => {
      const result = await firecrawl.interact(id, { code });
      expect(result).toMatchObject({ success: false, exitCode: 1 });
      expect(result.result).toBeUndefined();
      expect(result.stderr).not.toContain('root:');
    },
    60_000,
  );

  it('reaches private addresses neither directly nor through the page', async () => {
    const direct = await firecrawl.interact(id, { code: `return await fetch(${JSON.stringify(privateUrl)}).then((r) => r.text())` });
    expect(direct.exitCode).toBe(1);
    const inPage = await firecrawl.interact(id, {
      code: `return await page.evaluate(${JSON.stringify(`fetch('${privateUrl}').then((r) => r.text()).catch(() => 'refused')`)})`,
    });
    expect(inPage.result).toBe('refused');
    const navigated = await firecrawl.interact(id, { code: `await page.goto(${JSON.stringify(privateUrl)}); return await page.content()` });
    expect(navigated.exitCode).toBe(1);
    expect(JSON.stringify(navigated)).not.toContain('internal secret');
    expect(privateHits).toBe(0);
    await firecrawl.stopInteraction(id);
  }, 60_000);

  it('kills an endless loop at its timeout and a huge allocation at its heap bound; nothing charged', async () => {
    const fresh = (await firecrawl.scrape(`${site.url}/counter`, { formats: ['markdown'] })).metadata!.scrapeId!;
    const started = Date.now();
    const loop = await firecrawl.interact(fresh, { code: 'while (true) {}', timeout: 2 });
    expect(loop).toMatchObject({ success: false, exitCode: 124, killed: true, creditsUsed: 0 });
    expect(Date.now() - started).toBeLessThan(10_000);
    const memory = await firecrawl.interact(fresh, { code: 'const keep = []; while (true) keep.push(new Array(1e6).fill(7));', timeout: 60 });
    expect(memory).toMatchObject({ success: false, killed: true, creditsUsed: 0 });
    expect(memory.stderr).toMatch(/memory|ended/);
    // The session survives its sandbox.
    expect(await firecrawl.interact(fresh, { code: 'await page.title()' })).toMatchObject({ success: true, result: 'Counter page' });
    await firecrawl.stopInteraction(fresh);
  }, 90_000);
});

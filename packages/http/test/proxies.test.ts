import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '@quarry/adapters';
import { startTestServer, type TestServer } from '@quarry/core/testing';
import { startForwardProxy, type ForwardProxy } from './support/forward-proxy.js';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/**
 * Proxy pools through real local proxies: the basic proxy connects from 127.0.0.1, the enhanced
 * one from 127.0.0.2, and the site refuses everything that does not come from 127.0.0.2 on its
 * guarded pages (403, or a Cloudflare-style challenge), as a site behind bot protection would.
 */
const enhancedSource = '127.0.0.2';
const article = (title: string) =>
  `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${'Only the enhanced pool gets this far. '.repeat(8)}</p></main></body></html>`;
const challenge =
  '<html><head><title>Just a moment...</title></head><body><p>Checking your browser before accessing the site.</p><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/jsch/v1"></script></body></html>';

let site: TestServer;
let basic: ForwardProxy;
let enhanced: ForwardProxy;
let quarry: TestQuarry;
let withoutEnhanced: TestQuarry;

beforeAll(async () => {
  site = await startTestServer((request, response, url) => {
    const fromEnhanced = request.socket.remoteAddress === enhancedSource || request.socket.remoteAddress === `::ffff:${enhancedSource}`;
    if (url.pathname === '/open') {
      response.writeHead(200, { 'content-type': 'text/html' }).end(article('Open to everyone'));
    } else if (url.pathname === '/guarded') {
      if (fromEnhanced) response.writeHead(200, { 'content-type': 'text/html' }).end(article('Guarded content'));
      else response.writeHead(403, { 'content-type': 'text/html' }).end('<html><head><title>Forbidden</title></head><body>Forbidden</body></html>');
    } else if (url.pathname === '/challenged') {
      if (fromEnhanced) response.writeHead(200, { 'content-type': 'text/html' }).end(article('Past the challenge'));
      else response.writeHead(503, { 'content-type': 'text/html' }).end(challenge);
    } else {
      response.writeHead(404).end();
    }
  });
  basic = await startForwardProxy({ sourceAddress: '127.0.0.1', credentials: { user: 'pool-user', password: 'p@ss:word' } });
  enhanced = await startForwardProxy({ sourceAddress: enhancedSource });
  const basicUrl = new URL(basic.url);
  basicUrl.password = encodeURIComponent('p@ss:word');
  quarry = await startQuarry({ QUARRY_PROXY_BASIC: basicUrl.href.replace(/\/$/, ''), QUARRY_PROXY_ENHANCED: enhanced.url });
  withoutEnhanced = await startQuarry({});
});

afterAll(async () => {
  await Promise.all([quarry?.close(), withoutEnhanced?.close()]);
  await Promise.all([site?.close(), basic?.close(), enhanced?.close()]);
});

async function scrape(server: TestQuarry, version: 'v1' | 'v2', body: Record<string, unknown>) {
  const response = await fetch(`${server.url}/${version}/scrape`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json()) as { success: boolean; error?: string; data?: { markdown?: string; metadata: Record<string, unknown> } },
  };
}

describe('proxy pools', () => {
  it('basic goes through the basic pool with its credentials and reports what the site answered', async () => {
    const before = basic.carried.length;
    const { status, body } = await scrape(quarry, 'v2', { url: `${site.url}/guarded`, proxy: 'basic' });
    expect(status).toBe(200);
    expect(body.data!.metadata).toMatchObject({ statusCode: 403, proxyUsed: 'basic', creditsUsed: 1 });
    expect(basic.carried.length).toBeGreaterThan(before);
    expect(basic.refusedAuth).toBe(0);
  });

  it('auto stays basic (1 credit) when the site lets the basic pool in', async () => {
    const before = enhanced.carried.length;
    const { body } = await scrape(quarry, 'v2', { url: `${site.url}/open`, proxy: 'auto' });
    expect(body.data!.metadata).toMatchObject({ statusCode: 200, proxyUsed: 'basic', creditsUsed: 1 });
    expect(enhanced.carried.length).toBe(before);
  });

  it('auto retries through the enhanced pool after a 403 and charges 4 credits more', async () => {
    const { body } = await scrape(quarry, 'v2', { url: `${site.url}/guarded`, proxy: 'auto' });
    expect(body.data!.metadata).toMatchObject({ statusCode: 200, proxyUsed: 'enhanced', creditsUsed: 5 });
    expect(body.data!.markdown).toContain('Guarded content');
  });

  it('auto retries through the enhanced pool after a bot-protection challenge', async () => {
    const { body } = await scrape(quarry, 'v2', { url: `${site.url}/challenged`, proxy: 'auto' });
    expect(body.data!.metadata).toMatchObject({ statusCode: 200, proxyUsed: 'enhanced', creditsUsed: 5 });
    expect(body.data!.markdown).toContain('Past the challenge');
  });

  it('enhanced (and v1 stealth) go straight to the enhanced pool', async () => {
    const v2 = await scrape(quarry, 'v2', { url: `${site.url}/guarded`, proxy: 'enhanced' });
    expect(v2.body.data!.metadata).toMatchObject({ statusCode: 200, proxyUsed: 'enhanced', creditsUsed: 5 });
    const v1 = await scrape(quarry, 'v1', { url: `${site.url}/guarded`, proxy: 'stealth' });
    expect(v1.body.data!.metadata).toMatchObject({ statusCode: 200, proxyUsed: 'stealth' });
  });

  it('a stealth scrape is never answered from the cache, and a later basic scrape may use its result', async () => {
    const url = `${site.url}/guarded?cache-check`;
    const first = await scrape(quarry, 'v2', { url, proxy: 'enhanced' });
    expect(first.body.data!.metadata).toMatchObject({ statusCode: 200 });
    expect(first.body.data!.metadata.cacheState).not.toBe('hit');
    const again = await scrape(quarry, 'v1', { url, proxy: 'stealth', maxAge: 3_600_000 });
    expect(again.body.data!.metadata).toMatchObject({ statusCode: 200, proxyUsed: 'stealth' });
    expect(again.body.data!.metadata.cacheState).not.toBe('hit');
    // Through the basic pool the site answers 403: a 200 here is the stored stealth result.
    const basicScrape = await scrape(quarry, 'v2', { url, proxy: 'basic' });
    expect(basicScrape.body.data!.metadata).toMatchObject({ statusCode: 200, cacheState: 'hit' });
    expect(basicScrape.body.data!.markdown).toContain('Guarded content');
  });

  it('a server without an enhanced pool says how to configure one, and auto stays basic', async () => {
    const refused = await scrape(withoutEnhanced, 'v2', { url: `${site.url}/open`, proxy: 'enhanced' });
    expect(refused.status).toBe(501);
    expect(refused.body.error).toMatch(/QUARRY_PROXY_ENHANCED/);
    const auto = await scrape(withoutEnhanced, 'v2', { url: `${site.url}/guarded`, proxy: 'auto' });
    expect(auto.body.data!.metadata).toMatchObject({ statusCode: 403, proxyUsed: 'basic', creditsUsed: 1 });
  });

  it.skipIf(!findChromium())(
    'the browser engine goes through the pools too (the guarded proxy relays to them)',
    async () => {
      const before = enhanced.carried.length;
      const { body } = await scrape(quarry, 'v2', { url: `${site.url}/guarded`, proxy: 'auto', waitFor: 100, timeout: 60_000 });
      expect(body.data!.metadata).toMatchObject({ statusCode: 200, proxyUsed: 'enhanced', engine: 'browser' });
      expect(body.data!.markdown).toContain('Guarded content');
      expect(enhanced.carried.length).toBeGreaterThan(before);
      expect(basic.refusedAuth).toBe(0);
    },
    90_000,
  );
});

import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@quarry/core/testing';
import { locationProfile, type FetchRequest } from '@quarry/core';
import { PlaywrightFetcher } from '../../src/index.js';
import { chromiumPath, pngSize, skipWithoutChromium } from './browser-fixtures.js';

/** PlaywrightFetcher against local pages with the real system Chromium. */
let site: TestServer;
let adServer: TestServer;
let fetcher: PlaywrightFetcher;

const page = (body: string, head = '') => `<!doctype html><html><head><meta charset="utf-8"><title>T</title>${head}</head><body>${body}</body></html>`;

beforeAll(async () => {
  adServer = await startTestServer({
    '/ad.js': { type: 'application/javascript', body: "document.getElementById('slot').textContent = 'BUY NOW AD';" },
  });
  const adPort = new URL(adServer.url).port;
  site = await startTestServer({
    '/spa': {
      body: page(
        '<div id="root"></div><script>setTimeout(() => { document.getElementById("root").innerHTML = "<h1>Rendered by script</h1><p>Hello from the client</p>"; }, 50);</script>',
      ),
    },
    '/fetches': {
      body: page(
        '<div id="app"></div><script>fetch("/data.json").then(r => r.json()).then(d => { document.getElementById("app").textContent = d.message; });</script>',
      ),
    },
    '/data.json': { type: 'application/json', body: JSON.stringify({ message: 'loaded after fetch' }) },
    '/headers': async (request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(
        page(
          `<pre id="h">${JSON.stringify({ lang: request.headers['accept-language'], cookie: request.headers.cookie ?? null, ua: request.headers['user-agent'], custom: request.headers['x-custom'] ?? null })}</pre>`,
        ),
      );
    },
    '/clock': {
      body: page(
        '<p id="tz"></p><p id="lang"></p><script>document.getElementById("tz").textContent = Intl.DateTimeFormat().resolvedOptions().timeZone; document.getElementById("lang").textContent = navigator.language;</script>',
      ),
    },
    '/mobile': {
      body: page(
        '<p class="desktop">Desktop only</p><p class="phone">Phone only</p>',
        '<meta name="viewport" content="width=device-width"><style>.phone{display:none} @media (max-width: 600px) {.phone{display:block}.desktop{display:none}}</style><script>document.addEventListener("DOMContentLoaded", () => { document.body.dataset.touch = String("ontouchstart" in window); document.body.dataset.width = String(innerWidth); });</script>',
      ),
    },
    '/ads': { body: page(`<p>Article text</p><div id="slot">empty slot</div><script src="http://ads.localhost:${adPort}/ad.js"></script>`) },
    '/cookies': {
      body: page(
        '<main><h1>News</h1><p>The story.</p></main><div id="onetrust-banner-sdk"><p>We use cookies to improve your experience</p><button>Accept</button></div>',
      ),
    },
    '/redirect-to-private': async (_request, response) => {
      response.writeHead(302, { location: `${site.url}/secret` });
      response.end();
    },
    '/secret': { body: page('<p>internal secret</p>') },
    '/long': { body: page(Array.from({ length: 80 }, (_, index) => `<p style="height:40px">Line ${index}</p>`).join('')) },
    '/slow': async (_request, response) => {
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      response.end('late');
    },
  });
  fetcher = new PlaywrightFetcher({
    executablePath: chromiumPath ?? '/usr/bin/chromium',
    allowPrivateHosts: ['127.0.0.1', 'ads.localhost'],
    resolve: async (hostname) => {
      if (hostname.endsWith('localhost') || hostname === 'public.test') return [{ address: '127.0.0.1', family: 4 }];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    },
    filterLists: ['||ads.localhost^'],
    maxOpenPages: 2,
  });
});

afterAll(async () => {
  await fetcher?.close();
  await site?.close();
  await adServer?.close();
});

const request = (path: string, extra: Partial<FetchRequest> = {}): FetchRequest => ({ url: new URL(path, site.url), timeoutMs: 15_000, ...extra });
const text = (html: string | undefined, id: string) => new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(html ?? '')?.[1];

describe.skipIf(skipWithoutChromium)('PlaywrightFetcher', () => {
  it('returns the page as scripts left it, with the main response status and headers', async () => {
    const response = await fetcher.fetch(request('/spa'));
    expect(response.engine).toBe('browser');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.browser?.renderedHtml).toContain('<h1>Rendered by script</h1>');
    expect(new TextDecoder().decode(response.body)).toBe(response.browser?.renderedHtml);
  });

  it('waits for data the page fetches after load', async () => {
    const response = await fetcher.fetch(request('/fetches'));
    expect(response.browser?.renderedHtml).toContain('loaded after fetch');
  });

  it('sends headers, cookies (to the target only) and the location language', async () => {
    const response = await fetcher.fetch(
      request('/headers', { headers: { 'x-custom': 'yes', cookie: 'session=abc; theme=dark' }, browser: { location: locationProfile({ country: 'DE' }) } }),
    );
    const seen = JSON.parse(text(response.browser?.renderedHtml, 'h')!.replace(/&quot;/g, '"'));
    expect(seen).toMatchObject({ lang: 'de-DE,de;q=0.9', cookie: 'session=abc; theme=dark', custom: 'yes' });
    expect(seen.ua).not.toMatch(/Headless/);
  });

  it('emulates the timezone and locale of a location', async () => {
    const tokyo = await fetcher.fetch(request('/clock', { browser: { location: locationProfile({ country: 'JP' }) } }));
    expect(text(tokyo.browser?.renderedHtml, 'tz')).toBe('Asia/Tokyo');
    expect(text(tokyo.browser?.renderedHtml, 'lang')).toBe('ja-JP');
    const plain = await fetcher.fetch(request('/clock', { browser: { location: locationProfile({ country: 'FR', languages: ['en-GB'] }) } }));
    expect(text(plain.browser?.renderedHtml, 'tz')).toBe('Europe/Paris');
    expect(text(plain.browser?.renderedHtml, 'lang')).toBe('en-GB');
  });

  it('emulates a phone: small viewport, touch, mobile user agent', async () => {
    const phone = await fetcher.fetch(request('/mobile', { mobile: true, browser: { screenshot: { fullPage: false } } }));
    expect(phone.browser?.renderedHtml).toMatch(/data-touch="true"/);
    expect(Number(/data-width="(\d+)"/.exec(phone.browser!.renderedHtml!)?.[1])).toBeLessThan(600);
    const desktop = await fetcher.fetch(request('/mobile'));
    expect(desktop.browser?.renderedHtml).toMatch(/data-touch="false"/);
    expect(pngSize(phone.browser!.screenshot!.bytes).width).toBeLessThan(1280);
  });

  it('takes viewport and full-page screenshots of the right size', async () => {
    const viewport = await fetcher.fetch(request('/long', { browser: { screenshot: { fullPage: false } } }));
    expect(viewport.browser!.screenshot!.contentType).toBe('image/png');
    expect(pngSize(viewport.browser!.screenshot!.bytes)).toEqual({ width: 1280, height: 720 });
    const full = await fetcher.fetch(request('/long', { browser: { screenshot: { fullPage: true } } }));
    expect(pngSize(full.browser!.screenshot!.bytes).width).toBe(1280);
    expect(pngSize(full.browser!.screenshot!.bytes).height).toBeGreaterThan(80 * 40);
    const sized = await fetcher.fetch(request('/long', { browser: { screenshot: { fullPage: false, viewport: { width: 800, height: 600 } } } }));
    expect(pngSize(sized.browser!.screenshot!.bytes)).toEqual({ width: 800, height: 600 });
    const jpeg = await fetcher.fetch(request('/long', { browser: { screenshot: { fullPage: false, quality: 50 } } }));
    expect(jpeg.browser!.screenshot!.contentType).toBe('image/jpeg');
  });

  it('blocks ads from a listed host and removes cookie banners, only when asked', async () => {
    const open = await fetcher.fetch(request('/ads'));
    expect(text(open.browser?.renderedHtml, 'slot')).toBe('BUY NOW AD');
    const blocked = await fetcher.fetch(request('/ads', { browser: { blockAds: true } }));
    expect(text(blocked.browser?.renderedHtml, 'slot')).toBe('empty slot');
    const banner = await fetcher.fetch(request('/cookies', { browser: { blockAds: true } }));
    expect(banner.browser?.renderedHtml).not.toContain('We use cookies');
    expect(banner.browser?.renderedHtml).toContain('The story.');
  });

  it('refuses private targets through the SSRF guard, also after a redirect', async () => {
    const strict = new PlaywrightFetcher({
      executablePath: chromiumPath ?? '/usr/bin/chromium',
      allowPrivateHosts: ['public.test'],
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    try {
      await expect(strict.fetch(request('/secret'))).rejects.toMatchObject({ name: 'TargetError', kind: 'ssrf' });
      const port = new URL(site.url).port;
      const before = site.requests.filter((path) => path === '/secret').length;
      await expect(strict.fetch({ url: new URL(`http://public.test:${port}/redirect-to-private`), timeoutMs: 15_000 })).rejects.toMatchObject({ kind: 'ssrf' });
      expect(site.requests.filter((path) => path === '/secret').length).toBe(before);
    } finally {
      await strict.close();
    }
  });

  it('times out and reports TimeoutError', async () => {
    await expect(fetcher.fetch(request('/slow', { timeoutMs: 1_500 }))).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('reports a closed port as the target refusing the connection, naming host and port', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    await expect(fetcher.fetch({ url: new URL(`http://127.0.0.1:${port}/`), timeoutMs: 10_000 })).rejects.toMatchObject({
      name: 'TargetError',
      kind: 'connection-refused',
      message: expect.stringContaining(`127.0.0.1:${port}`),
    });
  });
});

describe.skipIf(skipWithoutChromium)('PlaywrightFetcher credentials', () => {
  let target: TestServer;
  let other: TestServer;
  const seen: Array<{ server: string; path: string; authorization: string | null; cookie?: string | null }> = [];
  const record = (server: string) => async (request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse) => {
    seen.push({
      server,
      path: request.url ?? '',
      authorization: request.headers.authorization ?? null,
      ...(request.url === '/landing' || request.url === '/home' ? { cookie: request.headers.cookie ?? null } : {}),
    });
    response.writeHead(200, { 'content-type': request.url?.endsWith('.js') ? 'application/javascript' : 'text/html' });
    response.end(request.url?.endsWith('.js') ? '' : page('<p>ok</p>'));
  };

  beforeAll(async () => {
    other = await startTestServer({ '/tracker.js': record('other'), '/landing': record('other') });
    target = await startTestServer({
      '/page': async (request, response) => {
        seen.push({ server: 'target', path: '/page', authorization: request.headers.authorization ?? null });
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end(page(`<p>page</p><script src="${other.url}/tracker.js"></script><script src="/own.js"></script>`));
      },
      '/own.js': record('target'),
      '/away': (_request, response) => {
        response.writeHead(302, { location: `${other.url}/landing` });
        response.end();
      },
      '/login': (_request, response) => {
        response.writeHead(302, { location: '/home', 'set-cookie': 'site=1; Path=/' });
        response.end();
      },
      '/home': record('target'),
    });
  });

  afterAll(async () => {
    await other?.close();
    await target?.close();
  });

  it('sends Authorization to the target origin only, not to another port of the same host', async () => {
    seen.length = 0;
    await fetcher.fetch({ url: new URL('/page', target.url), timeoutMs: 15_000, headers: { authorization: 'Bearer secret' } });
    expect(seen).toContainEqual({ server: 'target', path: '/page', authorization: 'Bearer secret' });
    expect(seen).toContainEqual({ server: 'target', path: '/own.js', authorization: 'Bearer secret' });
    expect(seen.filter((entry) => entry.server === 'other')).toEqual([{ server: 'other', path: '/tracker.js', authorization: null }]);
  });

  it('drops Authorization and Cookie on a redirect to another origin (another port of the same host)', async () => {
    seen.length = 0;
    const response = await fetcher.fetch({
      url: new URL('/away', target.url),
      timeoutMs: 15_000,
      headers: { authorization: 'Bearer secret', cookie: 'sid=1' },
    });
    expect(response.url.href).toBe(`${other.url}/landing`);
    expect(seen).toEqual([{ server: 'other', path: '/landing', authorization: null, cookie: null }]);
  });

  it('keeps them on a redirect within the target origin and reports where the page landed', async () => {
    seen.length = 0;
    const response = await fetcher.fetch({
      url: new URL('/login', target.url),
      timeoutMs: 15_000,
      headers: { authorization: 'Bearer secret', cookie: 'sid=1' },
    });
    expect(response.url.href).toBe(`${target.url}/home`);
    expect(seen).toEqual([{ server: 'target', path: '/home', authorization: 'Bearer secret', cookie: expect.stringContaining('sid=1') }]);
  });
});

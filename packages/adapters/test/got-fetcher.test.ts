import type { ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import type { TLSSocket } from 'node:tls';
import { gotScraping } from 'got-scraping';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeBody, type FetchRequest } from '@quarry/core';
import { describeFetcher } from '@quarry/core/testing';
import { browserHeaderGenerator } from '../src/browser-identity.js';
import { GotFetcher } from '../src/index.js';
import {
  failureOf,
  selfSignedCertificate,
  startHttp,
  startHttp2,
  startHttps,
  startProxy,
  tableResolver,
  textOf,
  type Handler,
  type LocalServer,
} from './local-servers.js';

describeFetcher('GotFetcher', () => new GotFetcher({ allowPrivateHosts: ['127.0.0.1'] }));

/** 日本語 in Shift_JIS; café – “quotes” in windows-1252. */
const nihongoSjis = Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]);
const cafeCp1252 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x96, 0x20, 0x93, 0x71, 0x75, 0x6f, 0x74, 0x65, 0x73, 0x94]);

const site: Record<string, Handler> = {
  '/sjis': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(Buffer.concat([Buffer.from('<html><head><meta charset="Shift_JIS"><title>'), nihongoSjis, Buffer.from('</title></head></html>')]));
  },
  '/cp1252': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=windows-1252' });
    response.end(Buffer.concat([Buffer.from('<p>'), cafeCp1252, Buffer.from('</p>')]));
  },
  '/echo': (request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'x-http-version': request.httpVersion });
    response.end(JSON.stringify(request.headers));
  },
  '/wire': (request, response) => {
    const socket = request.socket as TLSSocket;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        rawHeaders: request.rawHeaders,
        httpVersion: request.httpVersion,
        tls: socket.encrypted ? { protocol: socket.getProtocol(), cipher: socket.getCipher().name } : null,
      }),
    );
  },
  '/encoded': (request, response) => {
    const encoding = new URL(request.url ?? '/', 'http://x').searchParams.get('as') ?? '';
    const text = Buffer.from('<p>compressed body</p>'.repeat(50));
    const bodies: Record<string, Buffer> = {
      gzip: zlib.gzipSync(text),
      deflate: zlib.deflateSync(text),
      'deflate-raw': zlib.deflateRawSync(text),
      br: zlib.brotliCompressSync(text),
    };
    response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': encoding === 'deflate-raw' ? 'deflate' : encoding });
    response.end(bodies[encoding] ?? '');
  },
  '/set-cookie-then-check': (_request, response) => {
    response.writeHead(302, { location: '/needs-cookie', 'set-cookie': 'check=ok; Path=/; HttpOnly' });
    response.end();
  },
  '/needs-cookie': (request, response) => {
    const hasCookie = /(^|; )check=ok(;|$)/.test(request.headers.cookie ?? '');
    response.writeHead(hasCookie ? 200 : 302, hasCookie ? { 'content-type': 'text/plain' } : { location: '/set-cookie-then-check' });
    response.end(hasCookie ? `cookie: ${request.headers.cookie}` : '');
  },
  '/to-localhost': (request, response) => {
    const port = (request.headers.host ?? '').split(':')[1];
    response.writeHead(302, { location: `http://localhost:${port}/echo` });
    response.end();
  },
  '/to-port': (request, response) => {
    const target = new URL(request.url ?? '/', 'http://x').searchParams.get('target') ?? '';
    response.writeHead(302, { location: target });
    response.end();
  },
  '/two-hops': (_request, response) => {
    response.writeHead(302, { location: '/one-hop' });
    response.end();
  },
  '/one-hop': (_request, response) => {
    response.writeHead(302, { location: '/echo' });
    response.end();
  },
  '/cut': (request, response) => {
    const isChunked = new URL(request.url ?? '/', 'http://x').searchParams.has('chunked');
    response.writeHead(200, { 'content-type': 'text/html', ...(isChunked ? {} : { 'content-length': '1000' }) });
    // HTTP/1.1 only: the union with HTTP/2's response has no common `write` signature.
    (response as ServerResponse).write('<p>part of a page');
    setTimeout(() => response.socket?.destroy(), 20);
  },
  '/empty': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html', 'content-length': '0' });
    response.end();
  },
};

const route: Handler = (request, response) => {
  const handler = site[new URL(request.url ?? '/', 'http://x').pathname];
  if (handler) return handler(request, response);
  response.writeHead(404);
  response.end();
};

describe('GotFetcher', () => {
  let plain: LocalServer;
  let tls1: LocalServer;
  let tls2: LocalServer;
  let plainOther: LocalServer;
  const fetcher = new GotFetcher({ allowPrivateHosts: ['127.0.0.1'] });
  const fetchFrom = (url: string, options: Partial<FetchRequest> = {}, using = fetcher) => using.fetch({ url: new URL(url), timeoutMs: 10_000, ...options });

  beforeAll(async () => {
    const certificate = await selfSignedCertificate();
    [plain, tls1, tls2, plainOther] = await Promise.all([startHttp(route), startHttps(route, certificate), startHttp2(route, certificate), startHttp(route)]);
  });

  afterAll(async () => {
    await fetcher.close();
    await Promise.all([plain?.close(), tls1?.close(), tls2?.close(), plainOther?.close()]);
  });

  describe('charsets (bytes from the fetcher, decoded by decodeBody)', () => {
    it('decodes a Shift-JIS page that declares <meta charset>', async () => {
      const response = await fetchFrom(`${plain.origin}/sjis`);
      const decoded = decodeBody(response.body, response.headers.get('content-type'));
      expect(decoded).toEqual({ charset: 'shift_jis', text: '<html><head><meta charset="Shift_JIS"><title>日本語</title></head></html>' });
    });

    it('decodes a windows-1252 page declared in the Content-Type header', async () => {
      const response = await fetchFrom(`${plain.origin}/cp1252`);
      expect(decodeBody(response.body, response.headers.get('content-type'))).toEqual({ charset: 'windows-1252', text: '<p>café – “quotes”</p>' });
    });
  });

  describe('browser-like headers', () => {
    const userAgentOf = async (options: Partial<FetchRequest> = {}, using = fetcher) =>
      (JSON.parse(textOf((await fetchFrom(`${plain.origin}/echo`, options, using)).body)) as Record<string, string>)['user-agent'] ?? '';

    it('sends a generated desktop browser profile by default', async () => {
      const response = await fetchFrom(`${plain.origin}/echo`);
      const headers = JSON.parse(textOf(response.body)) as Record<string, string>;
      expect(headers['user-agent']).toMatch(/Mozilla\/5\.0/);
      expect(headers['user-agent']).not.toMatch(/Mobile|Android|iPhone/);
      expect(headers['accept']).toMatch(/text\/html/);
      expect(headers['accept-language']).toMatch(/en-US/);
      expect(headers['accept-encoding']).toMatch(/gzip/);
    });

    it('keeps one generated browser per origin and profile', async () => {
      const fresh = new GotFetcher({ allowPrivateHosts: ['127.0.0.1'] });
      const desktop = await Promise.all(Array.from({ length: 6 }, () => userAgentOf({}, fresh)));
      expect(new Set(desktop).size).toBe(1);
      const mobile = await Promise.all(Array.from({ length: 3 }, () => userAgentOf({ mobile: true }, fresh)));
      expect(new Set(mobile).size).toBe(1);
      expect(mobile[0]).not.toBe(desktop[0]);
      await fresh.close();
    });

    it('sends a mobile profile when request.mobile is set', async () => {
      expect(await userAgentOf({ mobile: true })).toMatch(/Mobile|Android|iPhone/);
    });

    it('uses the configured user agent, and a request header overrides it', async () => {
      const custom = new GotFetcher({ allowPrivateHosts: ['127.0.0.1'], userAgent: 'QuarryBot/1.0' });
      expect(await userAgentOf({}, custom)).toBe('QuarryBot/1.0');
      expect(await userAgentOf({ headers: { 'User-Agent': 'Caller/2.0' } }, custom)).toBe('Caller/2.0');
      await custom.close();
    });
  });

  describe('HTTP/1.1 hops (sent without got)', () => {
    /** A fixed browser, so that both clients send the same identity. */
    const fixedHeaders = {
      Connection: 'keep-alive',
      'sec-ch-ua': '"Chromium";v="147", "Not.A/Brand";v="8"',
      'sec-ch-ua-mobile': '?0',
      'sec-ch-ua-platform': '"Windows"',
      'Upgrade-Insecure-Requests': '1',
      'User-Agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/147.0.0.0 Safari/537.36',
      Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'Sec-Fetch-Site': 'none',
      'Sec-Fetch-Mode': 'navigate',
      'Sec-Fetch-Dest': 'document',
      'Accept-Encoding': 'gzip, deflate, br',
      'Accept-Language': 'en-US',
    };
    const wireOf = (body: Uint8Array) => JSON.parse(textOf(body)) as { rawHeaders: string[]; httpVersion: string; tls: unknown };

    it.each([
      ['http', () => plain.origin],
      ['https', () => tls1.origin],
    ])('put on the wire what got-scraping sends for the same browser (%s)', async (_name, origin) => {
      const generator = gotScraping.defaults.options.context['headerGenerator'] as { getHeaders: () => Record<string, string> };
      const spy = vi.spyOn(generator, 'getHeaders').mockImplementation(() => ({ ...fixedHeaders }));
      // The same fixed browser from the fetcher's own generator (built without got-scraping).
      const ownSpy = vi.spyOn(browserHeaderGenerator(), 'getHeaders').mockImplementation(() => ({ ...fixedHeaders }));
      const fresh = new GotFetcher({ allowPrivateHosts: ['127.0.0.1'] });
      try {
        const headers = { 'x-caller': 'yes', 'accept-language': 'de-DE' };
        const ours = wireOf((await fetchFrom(`${origin()}/wire?q=1`, { headers, skipTlsVerification: true }, fresh)).body);
        const theirs = wireOf(
          (await gotScraping.get(`${origin()}/wire?q=1`, { headers, sessionToken: {}, https: { rejectUnauthorized: false }, retry: { limit: 0 } })).rawBody,
        );
        expect(ours.httpVersion).toBe('1.1');
        expect(ours).toEqual(theirs);
        expect(ours.rawHeaders).toContain('de-DE');
      } finally {
        spy.mockRestore();
        ownSpy.mockRestore();
        await fresh.close();
      }
    });

    it('builds the head once per identity and header set: repeated, changed and credentialed requests still match got-scraping', async () => {
      const generator = gotScraping.defaults.options.context['headerGenerator'] as { getHeaders: () => Record<string, string> };
      const spy = vi.spyOn(generator, 'getHeaders').mockImplementation(() => ({ ...fixedHeaders }));
      // The same fixed browser from the fetcher's own generator (built without got-scraping).
      const ownSpy = vi.spyOn(browserHeaderGenerator(), 'getHeaders').mockImplementation(() => ({ ...fixedHeaders }));
      const fresh = new GotFetcher({ allowPrivateHosts: ['127.0.0.1'] });
      const theirsFor = async (url: string, headers: Record<string, string>) =>
        wireOf((await gotScraping.get(url, { headers, sessionToken: {}, retry: { limit: 0 } })).rawBody);
      try {
        const asked = [
          [`${plain.origin}/wire`, { 'x-caller': 'yes' }],
          [`${plain.origin}/wire?again=1`, { 'x-caller': 'yes' }],
          [`${plain.origin}/wire`, { 'x-caller': 'no', referer: `${plain.origin}/` }],
          [`${plain.origin}/wire`, { 'x-caller': 'yes' }],
          [`${plain.origin.replace('//', '//user:p%40ss@')}/wire`, { 'x-caller': 'yes' }],
        ] as const;
        for (const [url, headers] of asked) {
          const ours = wireOf((await fetchFrom(url, { headers }, fresh)).body);
          expect(ours).toEqual(await theirsFor(url, headers));
        }
        const credentialed = wireOf((await fetchFrom(asked[4][0], { headers: asked[4][1] }, fresh)).body);
        expect(credentialed.rawHeaders).toContain(`Basic ${Buffer.from('user:p@ss').toString('base64')}`);
        expect(wireOf((await fetchFrom(asked[2][0], { headers: asked[2][1] }, fresh)).body).rawHeaders).toContain('no');
        // With Expect, node writes the head before the agent could transform it: sent by name, as before the cache.
        const expecting = wireOf((await fetchFrom(`${plain.origin}/wire`, { headers: { expect: '100-continue' } }, fresh)).body);
        expect(expecting.rawHeaders).toEqual(expect.arrayContaining(['expect', '100-continue', 'User-Agent', 'Host']));
      } finally {
        spy.mockRestore();
        ownSpy.mockRestore();
        await fresh.close();
      }
    });

    it.each(['gzip', 'deflate', 'deflate-raw', 'br'])('decompresses a %s body and drops Content-Encoding', async (encoding) => {
      const response = await fetchFrom(`${plain.origin}/encoded?as=${encoding}`);
      expect(textOf(response.body)).toBe('<p>compressed body</p>'.repeat(50));
      expect(response.headers.get('content-encoding')).toBeNull();
    });

    it.each(['', '?chunked'])('fails a body the server cuts short as a connection reset (%s)', async (query) => {
      await expect(fetchFrom(`${plain.origin}/cut${query}`)).rejects.toMatchObject({ name: 'TargetError', kind: 'connection-reset', retryable: true });
    });

    it('reads an empty body', async () => {
      const response = await fetchFrom(`${plain.origin}/empty`);
      expect(response.body.byteLength).toBe(0);
    });

    it('refuses a decompressed body past maxBytes', async () => {
      await expect(fetchFrom(`${plain.origin}/encoded?as=gzip`, { maxBytes: 100 })).rejects.toMatchObject({ name: 'TargetError', kind: 'too-large' });
      const truncated = await fetchFrom(`${plain.origin}/encoded?as=br`, { truncateBytes: 100 });
      expect(textOf(truncated.body)).toBe('<p>compressed body</p>'.repeat(50).slice(0, 100));
    });
  });

  describe('redirects', () => {
    it('sends back cookies that a redirect hop set (no loop)', async () => {
      const response = await fetchFrom(`${plain.origin}/set-cookie-then-check`, { headers: { cookie: 'user=1' } });
      expect(response.status).toBe(200);
      expect(textOf(response.body)).toBe('cookie: user=1; check=ok');
      expect(response.redirects.map((url) => url.pathname)).toEqual(['/set-cookie-then-check']);
    });

    it("drops the caller's cookie and authorization when a redirect leaves the site", async () => {
      const allowsLocalhost = new GotFetcher({ allowPrivateHosts: ['127.0.0.1', 'localhost'] });
      const response = await fetchFrom(
        `${plain.origin}/to-localhost`,
        { headers: { cookie: 'secret=1', authorization: 'Bearer t', 'x-kept': 'yes' } },
        allowsLocalhost,
      );
      const received = JSON.parse(textOf(response.body)) as Record<string, string>;
      expect(response.url.hostname).toBe('localhost');
      expect(received).toMatchObject({ 'x-kept': 'yes' });
      expect(received['cookie']).toBeUndefined();
      expect(received['authorization']).toBeUndefined();
      await allowsLocalhost.close();
    });

    it.each([
      ['http -> http, same host, another port', () => `${plain.origin}/to-port?target=${encodeURIComponent(`${plainOther.origin}/echo`)}`],
      ['https -> http, same host', () => `${tls1.origin}/to-port?target=${encodeURIComponent(`${plainOther.origin}/echo`)}`],
    ])('drops cookie, authorization and proxy-authorization on a redirect to another origin (%s)', async (_name, start) => {
      const headers = { cookie: 'secret=1', authorization: 'Bearer t', 'proxy-authorization': 'Basic eA==', 'x-kept': 'yes' };
      const response = await fetchFrom(start(), { headers, skipTlsVerification: true });
      const received = JSON.parse(textOf(response.body)) as Record<string, string>;
      expect(response.url.origin).toBe(plainOther.origin);
      expect(received).toMatchObject({ 'x-kept': 'yes' });
      expect(received['cookie']).toBeUndefined();
      expect(received['authorization']).toBeUndefined();
      expect(received['proxy-authorization']).toBeUndefined();
    });

    it('honours maxRedirects', async () => {
      const strict = new GotFetcher({ allowPrivateHosts: ['127.0.0.1'], maxRedirects: 1 });
      const error = await failureOf(fetchFrom(`${plain.origin}/two-hops`, {}, strict));
      expect(error).toMatchObject({ name: 'TargetError', kind: 'redirect', message: expect.stringContaining('Stopped after 1 redirects') });
      await expect(fetchFrom(`${plain.origin}/one-hop`, {}, strict)).resolves.toMatchObject({ status: 200 });
      await strict.close();
    });
  });

  describe('TLS', () => {
    it('refuses a self-signed certificate with TargetError(tls)', async () => {
      const error = await failureOf(fetchFrom(`${tls1.origin}/echo`));
      expect(error).toMatchObject({ name: 'TargetError', kind: 'tls', message: expect.stringContaining('skipTlsVerification') });
      expect(error.message).toContain(`127.0.0.1:${tls1.port}`);
    });

    it('accepts it with skipTlsVerification (HTTP/1.1)', async () => {
      const response = await fetchFrom(`${tls1.origin}/echo`, { skipTlsVerification: true });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-http-version')).toBe('1.1');
    });

    it('sends the identity generated once over HTTP/2 too (got-scraping reuses it, samples nothing)', async () => {
      const gotGenerator = gotScraping.defaults.options.context['headerGenerator'] as { getHeaders: () => Record<string, string> };
      const gotSpy = vi.spyOn(gotGenerator, 'getHeaders');
      const spy = vi.spyOn(browserHeaderGenerator() as unknown as { getHeaders: (options: { httpVersion: string }) => Record<string, string> }, 'getHeaders');
      const fresh = new GotFetcher({ allowPrivateHosts: ['127.0.0.1'] });
      try {
        const userAgents: (string | undefined)[] = [];
        for (let i = 0; i < 3; i++) {
          const response = await fetchFrom(`${tls2.origin}/echo`, { skipTlsVerification: true }, fresh);
          expect(response.headers.get('x-http-version')).toBe('2.0');
          userAgents.push((JSON.parse(textOf(response.body)) as Record<string, string>)['user-agent']);
        }
        expect(spy.mock.calls.map(([options]) => options.httpVersion)).toEqual(['1', '2']);
        const http2Set = spy.mock.results[1]?.value as Record<string, string>;
        expect(new Set(userAgents)).toEqual(new Set([http2Set['user-agent'] ?? http2Set['User-Agent']]));
        expect(gotSpy).not.toHaveBeenCalled();
      } finally {
        spy.mockRestore();
        gotSpy.mockRestore();
        await fresh.close();
      }
    });

    it('speaks HTTP/2 when the server offers it', async () => {
      const response = await fetchFrom(`${tls2.origin}/echo`, { skipTlsVerification: true });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-http-version')).toBe('2.0');
      expect(JSON.parse(textOf(response.body))).toMatchObject({ 'user-agent': expect.stringMatching(/Mozilla/) });
    });

    it('refuses the self-signed certificate over HTTP/2 too', async () => {
      await expect(fetchFrom(`${tls2.origin}/echo`)).rejects.toMatchObject({ name: 'TargetError', kind: 'tls' });
    });
  });

  describe('proxyUrl', () => {
    let proxy: LocalServer;
    beforeAll(async () => {
      proxy = await startProxy();
    });
    afterAll(() => proxy?.close());

    it('sends the request through the proxy, which may itself be on a private address', async () => {
      const resolve = tableResolver({ 'public.test': ['127.0.0.1'] });
      const proxied = new GotFetcher({ allowPrivateHosts: ['public.test'], resolve });
      const proxyUrl = `http://user:p%40ss@127.0.0.1:${proxy.port}`;
      const response = await fetchFrom('http://public.test/page?q=1', { proxyUrl }, proxied);
      expect(response.status).toBe(200);
      expect(textOf(response.body)).toBe('proxied GET http://public.test/page?q=1');
      expect(response.headers.get('via')).toBe('1.1 quarry-test-proxy');
      expect(proxy.requests.at(-1)?.headers['proxy-authorization']).toBe(`Basic ${Buffer.from('user:p@ss').toString('base64')}`);
      await proxied.close();
    });

    it('still refuses private targets before anything is sent to the proxy', async () => {
      const before = proxy.connections();
      const resolve = tableResolver({ 'intranet.test': ['10.1.2.3'] });
      const guarded = new GotFetcher({ resolve });
      const proxyUrl = `http://127.0.0.1:${proxy.port}`;
      await expect(fetchFrom('http://127.0.0.1:9/', { proxyUrl }, guarded)).rejects.toMatchObject({ kind: 'ssrf' });
      await expect(fetchFrom('http://intranet.test/', { proxyUrl }, guarded)).rejects.toMatchObject({
        kind: 'ssrf',
        message: expect.stringContaining('intranet.test: it resolves to 10.1.2.3, a private address'),
      });
      expect(proxy.connections()).toBe(before);
      await guarded.close();
    });
  });

  it('close() is idempotent', async () => {
    const closing = new GotFetcher();
    await closing.close();
    await closing.close();
  });
});

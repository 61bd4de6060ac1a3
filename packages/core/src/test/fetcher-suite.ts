/**
 * Conformance suite for the Fetcher port. Every fetcher (HTTP, browser...) runs it once:
 *
 * ```ts
 * describeFetcher('GotFetcher', () => new GotFetcher({ allowPrivateHosts: ['127.0.0.1'] }));
 * ```
 *
 * It serves its own site on 127.0.0.1 (node:http, started inside the suite), so the fetcher must
 * be allowed to reach 127.0.0.1. Errors are matched by name, code and kind rather than by class,
 * so a fetcher built against another copy of @quarry/core still passes.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchRequest, Fetcher } from '../ports/fetcher.js';

const page = '<!doctype html><html><head><title>Conformance</title></head><body><p>Hello, fetcher: 日本語</p></body></html>';
const bigSize = 64 * 1024;

type Route = (request: IncomingMessage, response: ServerResponse) => void;

const sendPage = (response: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string | string[]> = {}): void => {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
  response.end(body);
};

/** A redirect; `location` may depend on the request (absolute URLs use its Host header). */
const redirect =
  (status: number, location: string | ((request: IncomingMessage) => string)): Route =>
  (request, response) => {
    response.writeHead(status, { location: typeof location === 'string' ? location : location(request) });
    response.end();
  };

/** The suite's site: path -> handler. */
const routes: Record<string, Route> = {
  '/page': (_request, response) => sendPage(response, 200, page, { 'x-conformance': 'yes', 'set-cookie': ['a=1; Path=/', 'b=2; Path=/'] }),
  '/hop/3': redirect(302, '/hop/2'),
  '/hop/2': redirect(301, (request) => `http://${request.headers.host}/hop/1`),
  '/hop/1': redirect(307, '../page?from=hop'),
  '/loop': redirect(302, '/loop'),
  '/gzip': (_request, response) => sendPage(response, 200, gzipSync(page), { 'content-encoding': 'gzip' }),
  '/br': (_request, response) => sendPage(response, 200, brotliCompressSync(page), { 'content-encoding': 'br' }),
  '/deflate': (_request, response) => sendPage(response, 200, deflateSync(page), { 'content-encoding': 'deflate' }),
  '/echo': (request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(request.headers));
  },
  '/status/404': (_request, response) => sendPage(response, 404, 'not here'),
  '/status/500': (_request, response) => sendPage(response, 500, 'broken'),
  '/never': () => undefined,
  '/stalls-mid-body': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.write('the first half, then nothing');
  },
  '/big': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(bigSize) });
    response.end(Buffer.alloc(bigSize, 'x'));
  },
  '/big-chunked': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    for (let index = 0; index < 64; index++) response.write(Buffer.alloc(bigSize / 64, 'x'));
    response.end();
  },
};

async function startSite(): Promise<{ origin: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://site').pathname;
    const route = routes[path];
    if (route) route(request, response);
    else sendPage(response, 404, 'no route');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The rejection of a promise that must fail (fails the test when it resolves). */
async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the fetch to fail, but it succeeded');
}

const text = (body: Uint8Array): string => new TextDecoder().decode(body);

/**
 * Defines the conformance tests for a Fetcher. `makeFetcher` is called once; `close()` (when the
 * fetcher has one) is called after the last test.
 */
export function describeFetcher(name: string, makeFetcher: () => Fetcher | Promise<Fetcher>): void {
  describe(`Fetcher conformance: ${name}`, () => {
    let fetcher: Fetcher;
    let site: { origin: string; close(): Promise<void> };

    beforeAll(async () => {
      site = await startSite();
      fetcher = await makeFetcher();
    });

    afterAll(async () => {
      await fetcher?.close?.();
      await site?.close();
    });

    const url = (path: string): URL => new URL(path, site.origin);
    const get = (path: string, options: Partial<FetchRequest> = {}) => fetcher.fetch({ url: url(path), timeoutMs: 10_000, ...options });

    it('returns status, headers, body bytes and URLs of a plain page', async () => {
      const response = await get('/page');
      expect(response.status).toBe(200);
      expect(response.requestedUrl.href).toBe(url('/page').href);
      expect(response.url.href).toBe(url('/page').href);
      expect(response.redirects).toEqual([]);
      expect(response.engine).toBe(fetcher.name);
      expect(response.elapsedMs).toBeGreaterThanOrEqual(0);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('x-conformance')).toBe('yes');
      expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
      expect(response.body).toBeInstanceOf(Uint8Array);
      expect(text(response.body)).toBe(page);
    });

    it('follows redirects, keeping every hop and the final URL', async () => {
      const response = await get('/hop/3');
      expect(response.status).toBe(200);
      expect(response.url.href).toBe(url('/page?from=hop').href);
      expect(response.redirects.map((hop) => hop.href)).toEqual([url('/hop/3').href, url('/hop/2').href, url('/hop/1').href]);
      expect(text(response.body)).toBe(page);
    });

    it('stops a redirect loop with TargetError(redirect)', async () => {
      const error = await failureOf(get('/loop'));
      expect(error).toMatchObject({ name: 'TargetError', code: 'target_failed', kind: 'redirect' });
    });

    it.each(['gzip', 'br', 'deflate'])('decompresses %s bodies', async (encoding) => {
      const response = await get(`/${encoding}`);
      expect(response.status).toBe(200);
      expect(text(response.body)).toBe(page);
    });

    it('sends custom headers and cookies to the server, with a user agent', async () => {
      const response = await get('/echo', { headers: { 'x-custom': 'custom value', cookie: 'session=abc; theme=dark' } });
      const received = JSON.parse(text(response.body)) as Record<string, string>;
      expect(received['x-custom']).toBe('custom value');
      expect(received['cookie']).toBe('session=abc; theme=dark');
      expect(received['user-agent']).toMatch(/\S/);
    });

    it.each([404, 500])('returns a %i as a response, not an error', async (status) => {
      const response = await get(`/status/${status}`);
      expect(response.status).toBe(status);
      expect(text(response.body)).toBe(status === 404 ? 'not here' : 'broken');
    });

    it('throws TimeoutError when the server never answers', async () => {
      const error = await failureOf(get('/never', { timeoutMs: 300 }));
      expect(error).toMatchObject({ name: 'TimeoutError', code: 'timeout' });
    });

    it('throws TimeoutError when the body stalls: the limit covers the whole exchange', async () => {
      const error = await failureOf(get('/stalls-mid-body', { timeoutMs: 300 }));
      expect(error).toMatchObject({ name: 'TimeoutError', code: 'timeout' });
    });

    it.each(['/big', '/big-chunked'])('throws TargetError(too-large) past maxBytes (%s)', async (path) => {
      const error = await failureOf(get(path, { maxBytes: 1000 }));
      expect(error).toMatchObject({ name: 'TargetError', code: 'target_failed', kind: 'too-large' });
    });

    it('accepts a body of exactly maxBytes', async () => {
      const response = await get('/big-chunked', { maxBytes: bigSize });
      expect(response.body.byteLength).toBe(bigSize);
    });

    it('rejects when the caller aborts', async () => {
      const controller = new AbortController();
      controller.abort(new Error('caller gave up'));
      await expect(get('/page', { signal: controller.signal })).rejects.toBeDefined();
    });
  });
}

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small HTTP server on 127.0.0.1 for tests: a route table, or one handler. Tests serve their own
 * sites with it and never touch the internet.
 */
/** A handler's result is ignored (handlers may `return response.end()`). */
export type RouteHandler = (request: IncomingMessage, response: ServerResponse, url: URL) => unknown;
export type RouteTable = Record<string, RouteHandler | { status?: number; type?: string; body: string | Uint8Array; headers?: Record<string, string> }>;

export interface TestServer {
  /** Base URL without trailing slash, e.g. `http://127.0.0.1:41234`. */
  url: string;
  server: Server;
  /** Requests received, in order (path + query). */
  requests: string[];
  close(): Promise<void>;
}

export async function startTestServer(routes: RouteTable | RouteHandler): Promise<TestServer> {
  const requests: string[] = [];
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    requests.push(url.pathname + url.search);
    try {
      if (typeof routes === 'function') return await routes(request, response, url);
      const route = routes[url.pathname] ?? routes[url.pathname + url.search] ?? routes['*'];
      if (!route) {
        response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
        response.end('<html><head><title>Not found</title></head><body><h1>Not found</h1></body></html>');
        return;
      }
      if (typeof route === 'function') return await route(request, response, url);
      response.writeHead(route.status ?? 200, { 'content-type': route.type ?? 'text/html; charset=utf-8', ...route.headers });
      response.end(route.body);
    } catch (error) {
      if (!response.headersSent) response.writeHead(500);
      response.end(String(error));
    }
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Waits until `check` returns a truthy value or the deadline passes (no fixed sleeps in tests). */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  options: { timeoutMs?: number; intervalMs?: number; message?: string } = {},
): Promise<Exclude<T, undefined | null | false>> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    const value = await check();
    if (value) return value as Exclude<T, undefined | null | false>;
    if (Date.now() > deadline) throw new Error(`Timed out waiting${options.message ? ` for ${options.message}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 25));
  }
}

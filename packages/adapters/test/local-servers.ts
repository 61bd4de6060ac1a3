/**
 * Servers for the fetcher's integration tests, all on loopback: plain HTTP, HTTPS/1.1 and HTTP/2
 * with a self-signed certificate, and a forward proxy. Each counts the TCP connections it accepted,
 * so a test can prove that a refused fetch never reached it.
 */
import type { LookupAddress } from 'node:dns';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo, Server as NetServer, Socket } from 'node:net';
import { generate } from 'selfsigned';
import type { Resolver } from '../src/index.js';

export type Handler = (request: IncomingMessage | http2.Http2ServerRequest, response: ServerResponse | http2.Http2ServerResponse) => void;

export interface LocalServer {
  port: number;
  /** `http://127.0.0.1:port` or `https://...`. */
  origin: string;
  /** TCP connections accepted so far. */
  connections(): number;
  /** Requests received (method and URL as sent on the wire). */
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders; httpVersion: string }[];
  close(): Promise<void>;
}

async function listen(server: NetServer, scheme: string, host: string, requests: LocalServer['requests']): Promise<LocalServer> {
  const sockets = new Set<Socket>();
  let connections = 0;
  server.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const hostInUrl = host.includes(':') ? `[${host}]` : host;
  return {
    port,
    origin: `${scheme}://${hostInUrl}:${port}`,
    connections: () => connections,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function recording(handler: Handler, requests: LocalServer['requests']): Handler {
  return (request, response) => {
    requests.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers as http.IncomingHttpHeaders,
      httpVersion: request.httpVersion,
    });
    handler(request, response);
  };
}

export function startHttp(handler: Handler, host = '127.0.0.1'): Promise<LocalServer> {
  const requests: LocalServer['requests'] = [];
  return listen(http.createServer(recording(handler, requests) as http.RequestListener), 'http', host, requests);
}

/** A self-signed certificate for localhost, site.test, 127.0.0.1 and ::1. */
export async function selfSignedCertificate(): Promise<{ key: string; cert: string }> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 2, value: 'site.test' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  } as Parameters<typeof generate>[1]);
  return { key: pems.private, cert: pems.cert };
}

/** HTTPS over HTTP/1.1 only. */
export function startHttps(handler: Handler, tls: { key: string; cert: string }): Promise<LocalServer> {
  const requests: LocalServer['requests'] = [];
  const server = https.createServer({ ...tls, ALPNProtocols: ['http/1.1'] }, recording(handler, requests) as http.RequestListener);
  return listen(server, 'https', '127.0.0.1', requests);
}

/** HTTPS that negotiates HTTP/2 (and still speaks HTTP/1.1 to clients that ask for it). */
export function startHttp2(handler: Handler, tls: { key: string; cert: string }): Promise<LocalServer> {
  const requests: LocalServer['requests'] = [];
  const server = http2.createSecureServer({ ...tls, allowHTTP1: true }, recording(handler, requests) as never);
  return listen(server as unknown as NetServer, 'https', '127.0.0.1', requests);
}

/**
 * A plain forward proxy for http: targets (absolute-URI requests; no CONNECT). It answers
 * itself, naming the URL it was asked for, so no request leaves it.
 */
export function startProxy(): Promise<LocalServer> {
  return startHttp((request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain', via: '1.1 quarry-test-proxy' });
    response.end(`proxied ${request.method} ${request.url}`);
  });
}

/** A resolver over a fixed table (hostname -> addresses, or a function of the call count). */
export function tableResolver(table: Record<string, string[] | ((call: number) => string[])>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string): Promise<LookupAddress[]> => {
    calls.push(hostname);
    const entry = table[hostname];
    const addresses = typeof entry === 'function' ? entry(calls.filter((name) => name === hostname).length) : entry;
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
}

/** The rejection of a promise that must fail. */
export async function failureOf(promise: Promise<unknown>): Promise<Record<string, unknown> & Error> {
  try {
    await promise;
  } catch (error) {
    return error as Record<string, unknown> & Error;
  }
  throw new Error('expected the fetch to fail, but it succeeded');
}

export const textOf = (body: Uint8Array): string => new TextDecoder().decode(body);

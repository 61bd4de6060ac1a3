/**
 * GuardedProxy: a forward HTTP proxy on 127.0.0.1 that every Chromium connection goes through,
 * so the SSRF guard sees each hop the browser makes, redirects, workers and WebSockets included
 * (Playwright's routes see only the first request of a redirect chain). Names are resolved once
 * by the guard and the socket connects to the checked address, so DNS rebinding cannot slip
 * between check and connect.
 *
 * Plain HTTP arrives as absolute-form requests, HTTPS and wss as CONNECT tunnels, ws as upgrades.
 * A refused destination answers 403 with `x-quarry-refused` (HTTP) or a refused tunnel; the
 * refusal is remembered per host so the fetcher can report it as TargetError('ssrf').
 *
 * With an `upstream` proxy (the operator's proxy pools, proxy-pools.ts in core) every checked
 * connection goes on through it: absolute-form requests and CONNECT tunnels are relayed to the
 * upstream with its credentials, so Chromium never learns them and the guard still sees each hop.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { TargetError } from '@quarry/core';
import type { SsrfGuard } from '../ssrf-guard.js';

const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
const refusalMemory = 256;

export class GuardedProxy {
  private readonly server: http.Server;
  private readonly agent: http.Agent;
  private readonly sockets = new Set<Duplex>();
  private readonly refusals = new Map<string, TargetError>();
  private url: string | undefined;

  private readonly upstreamAuth: string | undefined;

  constructor(
    private readonly guard: SsrfGuard,
    private readonly upstream?: URL,
  ) {
    this.upstreamAuth = upstream?.username
      ? `Basic ${Buffer.from(`${decodeURIComponent(upstream.username)}:${decodeURIComponent(upstream.password)}`).toString('base64')}`
      : undefined;
    this.agent = new http.Agent({ keepAlive: true, maxFreeSockets: 16 });
    this.server = http.createServer((request, response) => void this.forward(request, response));
    this.server.on('connect', (request: IncomingMessage, socket: Socket, head: Buffer) => void this.tunnel(request, socket, head));
    this.server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => void this.upgrade(request, socket, head));
    this.server.on('connection', (socket: Socket) => this.track(socket));
  }

  /** Starts listening on an ephemeral loopback port; returns `http://127.0.0.1:port`. Idempotent. */
  async start(): Promise<string> {
    if (this.url) return this.url;
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  /** The refusal last recorded for `host` (name as in the URL, port excluded). */
  refusalFor(host: string): TargetError | undefined {
    return this.refusals.get(host.toLowerCase());
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.agent.destroy();
    if (this.url) await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.url = undefined;
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
  }

  private remember(host: string, error: unknown): TargetError | undefined {
    if (!(error instanceof TargetError) || error.kind !== 'ssrf') return undefined;
    if (this.refusals.size >= refusalMemory) this.refusals.delete(this.refusals.keys().next().value!);
    this.refusals.set(host.toLowerCase(), error);
    return error;
  }

  /** Checks the scheme and IP literals, then resolves the name: the addresses a socket may use. */
  private async allowedAddress(url: URL): Promise<string> {
    this.guard.checkUrl(url);
    const [first] = await this.guard.resolve(url.hostname.replace(/^\[|\]$/g, ''));
    return first!.address;
  }

  private async forward(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let target: URL;
    try {
      target = new URL(request.url ?? '');
    } catch {
      response.writeHead(400).end();
      return;
    }
    let address: string;
    try {
      address = await this.allowedAddress(target);
    } catch (error) {
      const refusal = this.remember(target.hostname, error);
      response.writeHead(refusal ? 403 : 502, { 'content-type': 'text/plain', ...(refusal ? { 'x-quarry-refused': 'ssrf' } : {}) });
      response.end(refusal ? refusal.message : `Cannot reach ${target.host}`);
      return;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(request.headers)) if (value !== undefined && !hopByHop.has(name)) headers[name] = value;
    const via = this.upstream
      ? { host: this.upstream.hostname, port: this.upstream.port || 80, path: target.href, headers: { ...headers, ...(this.upstreamAuth ? { 'proxy-authorization': this.upstreamAuth } : {}) } }
      : { host: address, port: target.port || 80, path: target.pathname + target.search, headers };
    const upstream = http.request(
      { ...via, method: request.method, agent: this.agent },
      (answer) => {
        const answerHeaders: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !hopByHop.has(name)) answerHeaders[name] = value;
        response.writeHead(answer.statusCode ?? 502, answer.statusMessage, answerHeaders);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => {
      if (!response.headersSent) response.writeHead(502).end();
      else response.destroy();
    });
    request.pipe(upstream);
  }

  private async tunnel(request: IncomingMessage, client: Socket, head: Buffer): Promise<void> {
    this.track(client);
    const target = new URL(`https://${request.url ?? ''}`);
    let address: string;
    try {
      address = await this.allowedAddress(target);
    } catch (error) {
      const refusal = this.remember(target.hostname, error);
      client.end(`HTTP/1.1 ${refusal ? '403 Forbidden' : '502 Bad Gateway'}\r\n${refusal ? 'x-quarry-refused: ssrf\r\n' : ''}\r\n`);
      return;
    }
    const port = Number(target.port || 443);
    const upstream = this.upstream
      ? await this.connectThroughUpstream(`${target.hostname}:${port}`).catch(() => undefined)
      : await connected(net.connect({ host: address, port })).catch(() => undefined);
    if (!upstream) {
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      return;
    }
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
    this.track(upstream);
    upstream.once('error', () => client.destroy());
    client.once('close', () => upstream.destroy());
  }

  private async upgrade(request: IncomingMessage, client: Socket, head: Buffer): Promise<void> {
    this.track(client);
    let target: URL;
    let address: string;
    try {
      target = new URL(request.url ?? '');
      address = await this.allowedAddress(target);
    } catch (error) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const hop = this.upstream ? { host: this.upstream.hostname, port: Number(this.upstream.port || 80) } : { host: address, port: Number(target.port || 80) };
    const upstream = net.connect(hop, () => {
      const lines = [`${request.method} ${this.upstream ? target.href : `${target.pathname}${target.search}`} HTTP/1.1`];
      for (let index = 0; index < request.rawHeaders.length; index += 2) {
        const name = request.rawHeaders[index]!;
        if (!/^proxy-/i.test(name)) lines.push(`${name}: ${request.rawHeaders[index + 1]}`);
      }
      if (this.upstreamAuth) lines.push(`Proxy-Authorization: ${this.upstreamAuth}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    this.track(upstream);
    upstream.once('error', () => client.destroy());
    client.once('close', () => upstream.destroy());
  }

  /** A socket tunnelled to `authority` through the upstream proxy (CONNECT answered 2xx). */
  private async connectThroughUpstream(authority: string): Promise<Socket> {
    const upstream = this.upstream!;
    const socket = await connected(net.connect({ host: upstream.hostname, port: Number(upstream.port || 80) }));
    socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${this.upstreamAuth ? `Proxy-Authorization: ${this.upstreamAuth}\r\n` : ''}\r\n`);
    const answer = await new Promise<{ status: number; rest: Buffer }>((resolve, reject) => {
      let buffered = Buffer.alloc(0);
      const onData = (chunk: Buffer) => {
        buffered = Buffer.concat([buffered, chunk]);
        const end = buffered.indexOf('\r\n\r\n');
        if (end === -1) {
          if (buffered.length > 16_384) reject(new Error('upstream proxy answer too long'));
          return;
        }
        socket.off('data', onData);
        const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(buffered.subarray(0, end).toString('latin1'))?.[1] ?? 0);
        resolve({ status, rest: buffered.subarray(end + 4) });
      };
      socket.on('data', onData);
      socket.once('error', reject);
      socket.once('close', () => reject(new Error('upstream proxy closed the connection')));
    });
    if (answer.status < 200 || answer.status > 299) {
      socket.destroy();
      throw new Error(`upstream proxy answered ${answer.status} to CONNECT ${authority}`);
    }
    if (answer.rest.length > 0) socket.unshift(answer.rest);
    return socket;
  }
}

function connected(socket: Socket): Promise<Socket> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

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

  constructor(private readonly guard: SsrfGuard) {
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
    const upstream = http.request(
      { host: address, port: target.port || 80, method: request.method, path: target.pathname + target.search, headers, agent: this.agent },
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
    const upstream = net.connect({ host: address, port: Number(target.port || 443) }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
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
    const upstream = net.connect({ host: address, port: Number(target.port || 80) }, () => {
      const lines = [`${request.method} ${target.pathname}${target.search} HTTP/1.1`];
      for (let index = 0; index < request.rawHeaders.length; index += 2) {
        const name = request.rawHeaders[index]!;
        if (!/^proxy-/i.test(name)) lines.push(`${name}: ${request.rawHeaders[index + 1]}`);
      }
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    this.track(upstream);
    upstream.once('error', () => client.destroy());
    client.once('close', () => upstream.destroy());
  }
}

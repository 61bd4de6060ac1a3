/**
 * GuardedProxy: a forward HTTP proxy on 127.0.0.1 that every Chromium connection goes through,
 * so the SSRF guard sees each hop the browser makes, redirects, workers and WebSockets included
 * (Playwright's routes see only the first request of a redirect chain). Names are resolved once
 * by the guard and the socket connects to the checked address, so DNS rebinding cannot slip
 * between check and connect.
 *
 * Plain HTTP arrives as absolute-form requests, HTTPS and wss as CONNECT tunnels, ws as upgrades.
 * A refused destination answers 403 with `x-quarry-refused` (HTTP) or a refused tunnel; a name
 * that does not resolve or a port that refuses the connection answers 502 with `x-quarry-failed`.
 * Either is remembered per host (until the host answers again) so the fetcher can report the
 * target's own failure (TargetError ssrf, dns, connection-refused, connection-reset) instead of Chromium's
 * `ERR_HTTP_RESPONSE_CODE_FAILURE`.
 *
 * With an `upstream` proxy (the operator's proxy pools, proxy-pools.ts in core) every checked
 * connection goes on through it: absolute-form requests and CONNECT tunnels are relayed to the
 * upstream with its credentials, so Chromium never learns them and the guard still sees each hop.
 */
import type http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { nodeHttp } from '../node-http.js';
import net, { type AddressInfo, type Socket } from 'node:net';
import { pipeline, type Duplex } from 'node:stream';
import { TargetError } from '@quarry/core';
import type { SsrfGuard } from '../ssrf-guard.js';
import { toCoreError } from '../got-error.js';

const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
const refusalMemory = 256;
/** Failures the fetcher reports as the target's own (a proxy's other 502s stay Chromium's errors). */
const rememberedKinds: ReadonlySet<string> = new Set(['ssrf', 'dns', 'connection-refused', 'connection-reset']);

/** The proxy's answer headers naming what it remembered. */
function failureHeaders(failure: TargetError | undefined): Record<string, string> {
  if (!failure) return {};
  return failure.kind === 'ssrf' ? { 'x-quarry-refused': 'ssrf' } : { 'x-quarry-failed': failure.kind };
}

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
    this.agent = new nodeHttp.Agent({ keepAlive: true, maxFreeSockets: 16 });
    this.server = nodeHttp.createServer((request, response) => void this.forward(request, response));
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

  /** The refusal or connection failure last recorded for `host` (name as in the URL, port excluded). */
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

  /** Records a refusal (ssrf) or a target failure (dns, connection-refused, connection-reset) for `host`; undefined for anything else. */
  private remember(target: URL, error: unknown): TargetError | undefined {
    const failure = error instanceof TargetError ? error : toCoreError(error, { host: target.host, timeoutMs: 0, isProxied: this.upstream !== undefined });
    if (!(failure instanceof TargetError) || !rememberedKinds.has(failure.kind)) return undefined;
    const host = target.hostname.toLowerCase();
    this.refusals.delete(host);
    if (this.refusals.size >= refusalMemory) this.refusals.delete(this.refusals.keys().next().value!);
    this.refusals.set(host, failure);
    return failure;
  }

  /** The host answered: an earlier failure no longer describes it. */
  private forget(target: URL): void {
    this.refusals.delete(target.hostname.toLowerCase());
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
      const failure = this.remember(target, error);
      response.writeHead(failure?.kind === 'ssrf' ? 403 : 502, { 'content-type': 'text/plain', ...failureHeaders(failure) });
      response.end(failure ? failure.message : `Cannot reach ${target.host}`);
      return;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(request.headers)) if (value !== undefined && !hopByHop.has(name)) headers[name] = value;
    const via = this.upstream
      ? {
          host: this.upstream.hostname,
          port: this.upstream.port || 80,
          path: target.href,
          headers: { ...headers, ...(this.upstreamAuth ? { 'proxy-authorization': this.upstreamAuth } : {}) },
        }
      : { host: address, port: target.port || 80, path: target.pathname + target.search, headers };
    const upstream = nodeHttp.request({ ...via, method: request.method, agent: this.agent }, (answer) => {
      this.forget(target);
      const answerHeaders: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !hopByHop.has(name)) answerHeaders[name] = value;
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, answerHeaders);
      // pipeline, not pipe: a target that resets mid-body must end Chromium's response too, or the
      // browser waits for the rest until the scrape times out.
      pipeline(answer, response, () => undefined);
    });
    upstream.on('error', (error) => {
      // Only a direct connection's failure is the target's; an upstream proxy's is the proxy's.
      if (!response.headersSent) response.writeHead(502, this.upstream ? {} : failureHeaders(this.remember(target, error))).end();
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
      const failure = this.remember(target, error);
      const headerLines = Object.entries(failureHeaders(failure))
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      client.end(`HTTP/1.1 ${failure?.kind === 'ssrf' ? '403 Forbidden' : '502 Bad Gateway'}\r\n${headerLines}\r\n`);
      return;
    }
    const port = Number(target.port || 443);
    let upstream: Socket;
    try {
      upstream = this.upstream ? await this.connectThroughUpstream(`${target.hostname}:${port}`) : await connected(net.connect({ host: address, port }));
    } catch (error) {
      // Only a direct connection's failure is the target's; an upstream proxy's is the proxy's.
      if (!this.upstream) this.remember(target, error);
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      return;
    }
    this.forget(target);
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
    } catch {
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

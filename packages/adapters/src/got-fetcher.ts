/**
 * GotFetcher: the `Fetcher` port over got-scraping (browser-like headers and TLS, HTTP/2),
 * with the SSRF guard on every hop and every socket.
 *
 * One fetch is a loop of hops: check the URL, send one GET without following redirects, and
 * either follow the Location (keeping every hop) or read the body under the size cap. The whole
 * loop runs under `timeoutMs`. Library errors become core errors (see got-error.ts).
 *
 * A hop without a proxy that is plain HTTP/1.1 (http:, or https: whose ALPN answer is not h2) is
 * sent by `requestHttp1` (http1-request.ts) with the same headers, TLS settings and decompression
 * got-scraping would use; HTTP/2 and proxied hops go through got-scraping. got-scraping is
 * imported at the first https: hop (its TLS settings) or the first HTTP/2 or proxied hop (its
 * client), not at start: loading it costs ~0.2 s of CPU (got, http2-wrapper, two header
 * generators), and a crawl of http: sites never loads it (browser-identity.ts).
 */
import type http from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type https from 'node:https';
import type { Readable } from 'node:stream';
import { TargetError, type FetchRequest, type FetchResponse, type Fetcher } from '@quarry/core';
import type { GotScraping, OptionsInit, Request as GotRequest, Response as GotResponse } from 'got-scraping';
import { type BrowserHeaders, type BrowserTls, browserHeaderGenerator, browserTlsOf, loadTlsHook, wireHeaders } from './browser-identity.js';
import { createGuardedTransport, type GuardedTransport } from './guarded-transport.js';
import { mergeHeaders, requestHttp1 } from './http1-request.js';
import { ResponseHeaders } from './response-headers.js';
import { toCoreError } from './got-error.js';
import { HopCookies, hopHeaders, redirectTarget } from './redirect-hops.js';
import { SsrfGuard, type Resolver } from './ssrf-guard.js';

export interface GotFetcherOptions {
  /** Destinations allowed although not public: host names, `*.suffix`, IPs, CIDRs, or `*`. */
  allowPrivateHosts?: readonly string[];
  /** Body size cap when the request sets none. Default 50 MiB. */
  maxBytes?: number;
  /** Sent instead of the generated browser user agent (a request's own `user-agent` header wins). */
  userAgent?: string;
  /** Redirects followed before TargetError('redirect'). Default 10. */
  maxRedirects?: number;
  /** What a refused private target says to do; by default this option (the composition names its own knob). */
  privateHostsHint?: string;
  /** DNS resolution for the guard; the system resolver when not given (tests and custom DNS). */
  resolve?: Resolver;
}

const defaults = { maxBytes: 50 * 1024 * 1024, maxRedirects: 10 } as const;

/** got-scraping header-generator profiles, by `request.mobile`. */
const headerProfiles = {
  desktop: { devices: ['desktop'], locales: ['en-US'] },
  mobile: { devices: ['mobile'], locales: ['en-US'] },
} as const;

/**
 * Browser identities kept at once (one per origin, profile and proxy); past it the oldest is
 * forgotten and that origin gets a new identity on its next request.
 */
const maxIdentities = 1_000;

interface Hop {
  url: URL;
  status: number;
  headers: IncomingHttpHeaders;
  body: Uint8Array;
}

/**
 * One browser identity: got-scraping's session token (its session storage keys on it) and the
 * header sets generated for it, shared by both request paths so an origin sees one browser.
 */
interface Identity {
  token: object;
  headers: { '1': BrowserHeaders; '2': BrowserHeaders };
  /** The TLS settings for the last user agent sent with this identity (HTTP/1.1 path). */
  tls?: { userAgent: string | undefined; settings: BrowserTls };
  /** HTTP/1.1 heads already built for this identity, by host and request headers (see `wireOf`). */
  wire?: Map<string, Wire>;
}

/** An HTTP/1.1 request head for one identity, host and set of request headers. */
interface Wire {
  /** The header lines as node writes them (wireHeaders), or the merged headers by name. */
  headers: string[] | Record<string, string>;
  /** https: the identity's TLS settings for the user agent sent. */
  tls: BrowserTls | undefined;
}

/** Heads kept per identity: a crawl sends one or two header sets per origin (cookies, referer vary them). */
const maxWiresPerIdentity = 64;

/** A response head with its (decompressed) body stream, from either request path. */
interface Opened {
  stream: Readable;
  response: { statusCode: number; headers: IncomingHttpHeaders };
}

/** A hop ends in a redirect to follow or in the final response. */
type HopOutcome = { kind: 'redirect'; location: URL; headers: IncomingHttpHeaders } | { kind: 'final'; hop: Hop };

/** Waits for got's `response` event, or its error. */
function responseOf(stream: GotRequest): Promise<GotResponse> {
  return new Promise((resolve, reject) => {
    stream.once('response', resolve);
    stream.once('error', reject);
  });
}

function tooLarge(url: URL, limit: number): TargetError {
  return new TargetError('too-large', `The response from ${url.host} is larger than ${limit} bytes`, {
    details: { host: url.host, maxBytes: limit },
  });
}

/**
 * Reads a (decompressed) body, aborting the download once it passes `limit` bytes; a declared
 * Content-Length above the limit fails before reading anything. With `truncate`, the first `limit`
 * bytes are returned instead of failing. Read with `data` events rather than `for await`: node's
 * async iterator (and the end-of-stream tracking under it) was a few microseconds per body and two
 * of the largest functions TurboFan optimized on the main thread (benchmarks/crawl-real-site/README.md,
 * thirteenth pass). A stream that closes before its end fails as the iterator failed
 * (`ERR_STREAM_PREMATURE_CLOSE`); its errors reject.
 */
function readBody(stream: Readable, response: Opened['response'], url: URL, limit: number, truncate = false): Promise<Uint8Array> {
  if (!truncate && Number(response.headers['content-length'] ?? 0) > limit) {
    stream.destroy();
    return Promise.reject(tooLarge(url, limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let isSettled = false;
    const settle = (error: unknown) => {
      if (isSettled) return;
      isSettled = true;
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('close', onClose);
      if (error !== undefined) {
        reject(error);
        return;
      }
      const body = Buffer.concat(chunks);
      resolve(new Uint8Array(body.buffer, body.byteOffset, body.byteLength));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      stream.destroy();
      if (!truncate) return settle(tooLarge(url, limit));
      chunks.push(chunk.subarray(0, chunk.length - (size - limit)));
      settle(undefined);
    };
    const onEnd = () => settle(undefined);
    const onClose = () => settle(prematureClose());
    // Left attached: an error after the body is read must not go unheard (it would end the process).
    stream.on('error', settle);
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('close', onClose);
    // A stream that is over already emits nothing more: settle as the iterator would have.
    if (stream.readableEnded) settle(undefined);
    else if (stream.closed) settle(stream.errored ?? prematureClose());
  });
}

/** What node's stream iterator throws for a stream that closed before its end. */
function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

/** http2-wrapper's error for a certificate that does not cover the requested host. */
function isHttp2OriginMismatch(error: unknown): boolean {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error && /^Requested origin .* does not match server/.test(cause.message);
}

/**
 * `work`'s outcome, or a rejection with the signal's reason once it aborts, whichever comes first
 * (one promise and one listener per fetch instead of an abort promise, two catch handlers and a
 * `Promise.race`); `dispose` removes the listener. A rejection of `work` after the abort is handled.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): { promise: Promise<T>; dispose: () => void } {
  let onAbort: () => void = () => undefined;
  const promise = new Promise<T>((resolve, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject);
  });
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}

/**
 * Drops got-scraping's `init` hook that checks its own options (proxyUrl, sessionToken, header
 * profile...) with `ow` on every request. The options are this file's, built the same way each
 * time; the check captured a stack trace per request (`callsites`) and was ~70 us of CPU per fetch,
 * 17 % of `GotFetcher.fetch` on the main thread (benchmarks/crawl-real-site/README.md, fourth pass).
 * got copies hook arrays on `extend`, so only this client's list changes.
 */
function withoutOptionValidation(client: GotScraping, gotScrapingHooks: GotScrapingModule['hooks']): void {
  const init = client.defaults.options.hooks.init;
  const index = init.indexOf(gotScrapingHooks.optionsValidationHandler as (typeof init)[number]);
  if (index !== -1) init.splice(index, 1);
}

/**
 * Makes got-scraping's session use the identity's header sets (generated by GotFetcher, passed in
 * `context.identity`) instead of generating its own, right after its session hook finds the session.
 */
function withIdentityHeaders(client: GotScraping, gotScrapingHooks: GotScrapingModule['hooks']): void {
  const beforeRequest = client.defaults.options.hooks.beforeRequest;
  const index = beforeRequest.indexOf(gotScrapingHooks.sessionDataHook as unknown as (typeof beforeRequest)[number]);
  beforeRequest.splice(index + 1, 0, (options) => {
    const sessionData = options.context['sessionData'] as { headers?: Identity['headers'] } | undefined;
    const identity = options.context['identity'] as Identity | undefined;
    if (sessionData && identity && !sessionData.headers) sessionData.headers = identity.headers;
  });
}

type GotScrapingModule = typeof import('got-scraping');

/** got-scraping's client for this fetcher and the agents its non-proxied requests use. */
interface GotClient {
  client: GotScraping;
  agents: ReturnType<GuardedTransport['gotAgents']>;
}

type TlsHook = Parameters<typeof browserTlsOf>[0];

export class GotFetcher implements Fetcher {
  readonly name = 'http';
  private readonly guard: SsrfGuard;
  private readonly transport: GuardedTransport;
  /** got-scraping's client for HTTP/2 and proxied hops, made at the first one (see `gotClient`). */
  private client: Promise<GotClient> | undefined;
  private readonly maxBytes: number;
  private readonly maxRedirects: number;
  private readonly userAgent: string | undefined;
  /**
   * got-scraping session tokens by origin, profile and proxy. A session generates its browser
   * headers once and reuses them (header-generator's sampling was the largest part of got's work
   * per request in a crawl profile; benchmarks/crawl-real-site/README.md), and an origin sees one
   * consistent browser, as it would from a real one.
   */
  private readonly identities = new Map<string, Identity>();

  constructor(options: GotFetcherOptions = {}) {
    this.guard = new SsrfGuard({
      ...(options.allowPrivateHosts ? { allowPrivateHosts: options.allowPrivateHosts } : {}),
      howToAllow: options.privateHostsHint ?? "allow it with `new GotFetcher({ allowPrivateHosts: [...] })` (host names, IPs or CIDRs, or '*')",
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });
    this.transport = createGuardedTransport(this.guard);
    this.maxBytes = options.maxBytes ?? defaults.maxBytes;
    this.maxRedirects = options.maxRedirects ?? defaults.maxRedirects;
    this.userAgent = options.userAgent;
  }

  /** Imports got-scraping and extends its client, once, at the first hop that needs it. */
  private gotClient(): Promise<GotClient> {
    this.client ??= import('got-scraping').then(({ gotScraping, hooks, TransformHeadersAgent }) => {
      const client = gotScraping.extend({
        // Unfrozen, so that withoutOptionValidation can edit this client's hook list once, here.
        mutableDefaults: true,
        hooks: {
          // got-scraping's header hook reads `options.resolveProtocol` for its ALPN probe; it is not
          // a got option, so it travels in `context` and is moved onto the options here.
          init: [
            (raw, options) => {
              const resolveProtocol = raw.context?.['resolveProtocol'];
              if (resolveProtocol) Object.assign(options, { resolveProtocol });
            },
          ],
        },
      });
      withoutOptionValidation(client, hooks);
      withIdentityHeaders(client, hooks);
      // The guarded pools, wrapped in got-scraping's header-ordering agent, and an HTTP/2 agent.
      return { client, agents: this.transport.gotAgents(TransformHeadersAgent) };
    });
    return this.client;
  }

  /**
   * Refuses (TargetError 'ssrf') a URL whose host the guard would not connect to: a private
   * literal, `*.localhost`, or a name that resolves only to refused addresses. A name that does not
   * resolve passes: that is the page's error, reported when it is fetched.
   */
  async checkTarget(url: URL): Promise<void> {
    this.guard.checkUrl(url);
    try {
      await this.guard.resolve(url.hostname);
    } catch (error) {
      if (error instanceof TargetError) throw error;
    }
  }

  /**
   * GETs `request.url`, following redirects (each hop checked by the SSRF guard). Any HTTP
   * status is a response. Throws TargetError (ssrf, dns, connection, tls, redirect, too-large),
   * TimeoutError past `timeoutMs`, ValidationError for unusable headers, and the signal's reason
   * when `request.signal` aborts.
   */
  async fetch(request: FetchRequest): Promise<FetchResponse> {
    const started = performance.now();
    // One controller per fetch, with a timer and a forwarded caller signal that are both released
    // in `finally`: AbortSignal.timeout/any keep their listeners (and with them every request,
    // response and body) alive long after the fetch, ~75 KB per page in a crawl.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`The operation timed out after ${request.timeoutMs} ms`, 'TimeoutError'));
    }, request.timeoutMs);
    const forward = () => controller.abort(request.signal?.reason);
    if (request.signal?.aborted) forward();
    else request.signal?.addEventListener('abort', forward, { once: true });
    const signal = controller.signal;
    let current = request.url;
    // The exchange settles after an abort too; the error reported is the one below.
    const exchange = untilAborted(
      this.follow(request, signal, (url) => (current = url)),
      signal,
    );
    try {
      const { hop, redirects } = await exchange.promise;
      return {
        requestedUrl: request.url,
        url: hop.url,
        status: hop.status,
        headers: new ResponseHeaders(hop.headers),
        body: hop.body,
        redirects,
        engine: this.name,
        elapsedMs: performance.now() - started,
      };
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason;
      throw toCoreError(timedOut ? signal.reason : error, {
        host: current.host,
        timeoutMs: request.timeoutMs,
        isProxied: Boolean(request.proxyUrl),
      });
    } finally {
      clearTimeout(timer);
      exchange.dispose();
      request.signal?.removeEventListener('abort', forward);
    }
  }

  /** Releases pooled sockets and HTTP/2 sessions. Idempotent. */
  async close(): Promise<void> {
    this.transport.destroy();
  }

  private async follow(request: FetchRequest, signal: AbortSignal, onHop: (url: URL) => void): Promise<{ hop: Hop; redirects: URL[] }> {
    const callerHeaders = { ...(this.userAgent ? { 'user-agent': this.userAgent } : {}), ...request.headers };
    const cookies = new HopCookies();
    const redirects: URL[] = [];
    for (let url = request.url; ; ) {
      onHop(url);
      const outcome = await this.send(url, hopHeaders(callerHeaders, request.url, url, cookies), request, signal);
      if (outcome.kind === 'final') return { hop: outcome.hop, redirects };
      const maxRedirects = Math.min(request.maxRedirects ?? this.maxRedirects, this.maxRedirects);
      if (redirects.length >= maxRedirects) {
        throw new TargetError('redirect', `Stopped after ${maxRedirects} redirects; ${url.host} redirects again`, {
          details: { maxRedirects, redirects: [...redirects, url].map(String) },
        });
      }
      cookies.remember(url, outcome.headers['set-cookie']);
      redirects.push(url);
      url = outcome.location;
    }
  }

  /** One hop: a redirect (`location` set, body discarded) or the final response with its body. */
  private async send(url: URL, headers: Record<string, string>, request: FetchRequest, signal: AbortSignal): Promise<HopOutcome> {
    this.guard.checkUrl(url);
    // Through a proxy the proxy resolves and connects: check the name here (it cannot be pinned).
    if (request.proxyUrl) await this.guard.resolve(url.hostname);
    const identity = this.identityOf(url, request);
    const { stream, response } = (await this.isHttp1Direct(url, request))
      ? await this.sendHttp1(url, headers, identity, request, signal)
      : await this.respond(url, headers, identity, request, signal);
    const location = redirectTarget(response.statusCode, response.headers.location, url);
    if (location) {
      stream.destroy();
      return { kind: 'redirect', location, headers: response.headers };
    }
    const body =
      request.truncateBytes !== undefined
        ? await readBody(stream, response, url, request.truncateBytes, true)
        : await readBody(stream, response, url, request.maxBytes ?? this.maxBytes);
    return { kind: 'final', hop: { url, status: response.statusCode, headers: response.headers, body } };
  }

  /**
   * Sends the request and waits for the response head. http2-wrapper refuses an HTTP/2 session
   * whose certificate does not name the host even when verification is off; with
   * skipTlsVerification the hop is then sent again over HTTP/1.1, which accepts it.
   */
  private async respond(url: URL, headers: Record<string, string>, identity: Identity, request: FetchRequest, signal: AbortSignal): Promise<Opened> {
    const client = await this.gotClient();
    const stream = this.open(client, url, headers, identity, request, signal, true);
    try {
      return { stream, response: await responseOf(stream) };
    } catch (error) {
      if (!request.skipTlsVerification || !isHttp2OriginMismatch(error)) throw error;
      const http1 = this.open(client, url, headers, identity, request, signal, false);
      return { stream: http1, response: await responseOf(http1) };
    }
  }

  /**
   * Whether this hop goes out as plain HTTP/1.1 through `requestHttp1`: no proxy, and http: or an
   * https origin whose ALPN answer (the same guarded, cached probe got-scraping's header hook makes)
   * is not h2. HTTP/2 and proxies stay on got-scraping.
   */
  private async isHttp1Direct(url: URL, request: FetchRequest): Promise<boolean> {
    if (request.proxyUrl) return false;
    if (url.protocol === 'http:') return true;
    const { alpnProtocol } = await this.transport.resolveProtocol({
      host: url.hostname,
      port: url.port || 443,
      rejectUnauthorized: false,
      ALPNProtocols: ['h2', 'http/1.1'],
      servername: url.hostname,
    });
    return alpnProtocol !== 'h2';
  }

  /** An HTTP/1.1 hop without got: the identity's HTTP/1 headers and TLS settings, our guarded agents. */
  private async sendHttp1(url: URL, headers: Record<string, string>, identity: Identity, request: FetchRequest, signal: AbortSignal): Promise<Opened> {
    const isHttps = url.protocol === 'https:';
    const agent = isHttps ? this.transport.agents.https : this.transport.agents.http;
    // The first https: hop imports got-scraping for its TLS settings (once per process).
    const tlsHook = isHttps ? await loadTlsHook() : undefined;
    const wire = this.wireOf(identity, url, headers, agent, tlsHook);
    const response = await requestHttp1({
      url,
      headers: wire.headers,
      signal,
      lookup: this.guard.lookup,
      agent,
      ...(wire.tls ? { tls: { ...wire.tls, rejectUnauthorized: !request.skipTlsVerification } } : {}),
    });
    return { stream: response.body, response };
  }

  /**
   * The identity's HTTP/1.1 head for this host and these request headers: merged, cased and
   * ordered (`wireHeaders`, once here instead of on every request) and, over https, the TLS
   * settings for its user agent. Built once per identity, host and header set.
   */
  private wireOf(identity: Identity, url: URL, headers: Record<string, string>, agent: http.Agent | https.Agent, tlsHook: TlsHook | undefined): Wire {
    let key = `${url.protocol}//${url.username}:${url.password}@${url.host}`;
    for (const name in headers) key += `\n${name}\0${headers[name]}`;
    identity.wire ??= new Map();
    let wire = identity.wire.get(key);
    if (!wire) {
      const merged = mergeHeaders(identity.headers['1'], headers);
      // node's ClientRequest: keep-alive when the agent keeps sockets alive or caps them.
      const keepAlive = Boolean((agent as { keepAlive?: boolean }).keepAlive) || Number.isFinite(agent.maxSockets);
      wire = { headers: wireHeaders(url, merged, keepAlive) ?? merged, tls: tlsHook ? this.tlsOf(identity, merged, tlsHook) : undefined };
      if (identity.wire.size >= maxWiresPerIdentity) identity.wire.clear();
      identity.wire.set(key, wire);
    }
    return wire;
  }

  /** got-scraping's TLS settings for the browser the sent user agent names, kept on the identity. */
  private tlsOf(identity: Identity, headers: Record<string, string>, tlsHook: TlsHook): BrowserTls {
    let userAgent: string | undefined;
    for (const name in headers) if (name.toLowerCase() === 'user-agent') userAgent = headers[name];
    const known = identity.tls;
    if (known && known.userAgent === userAgent) return known.settings;
    const settings = browserTlsOf(tlsHook, headers);
    identity.tls = { userAgent, settings };
    return settings;
  }

  /** The browser identity this request's origin, profile and proxy use; its headers are generated once. */
  private identityOf(url: URL, request: FetchRequest): Identity {
    const key = `${url.origin} ${request.mobile ? 'mobile' : 'desktop'} ${request.proxyUrl ?? ''}`;
    let identity = this.identities.get(key);
    if (!identity) {
      if (this.identities.size >= maxIdentities) this.identities.delete(this.identities.keys().next().value!);
      const profile = request.mobile ? headerProfiles.mobile : headerProfiles.desktop;
      // Built like got-scraping's own (no options; each call passes them all), once per process.
      const sampler = browserHeaderGenerator();
      identity = {
        token: {},
        headers: {
          '1': sampler.getHeaders({ httpVersion: '1', devices: [...profile.devices], locales: [...profile.locales] }),
          '2': sampler.getHeaders({ httpVersion: '2', devices: [...profile.devices], locales: [...profile.locales] }),
        },
      };
      this.identities.set(key, identity);
    }
    return identity;
  }

  private open(
    { client, agents }: GotClient,
    url: URL,
    headers: Record<string, string>,
    identity: Identity,
    request: FetchRequest,
    signal: AbortSignal,
    isHttp2Allowed: boolean,
  ): GotRequest {
    return client.stream(url, {
      method: 'GET',
      followRedirect: false,
      throwHttpErrors: false,
      decompress: true,
      retry: { limit: 0 },
      timeout: { request: request.timeoutMs },
      signal,
      headers,
      http2: isHttp2Allowed,
      https: { rejectUnauthorized: !request.skipTlsVerification },
      headerGeneratorOptions: request.mobile ? headerProfiles.mobile : headerProfiles.desktop,
      sessionToken: identity.token,
      ...(request.proxyUrl
        ? { proxyUrl: request.proxyUrl, context: { identity } }
        : {
            agent: agents,
            dnsLookup: this.guard.lookup,
            context: { resolveProtocol: this.transport.resolveProtocol, identity },
          }),
    } satisfies OptionsInit);
  }
}

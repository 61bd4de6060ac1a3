/**
 * The sockets of one GotFetcher, all resolved through its SSRF guard.
 *
 * got-scraping opens connections on three paths, and each gets the guard's `lookup`:
 * - HTTP/1.1 (http: and https:): our own `http.Agent`/`https.Agent` (wrapped in got-scraping's
 *   header-ordering agent), with `lookup` in the agent options, which node merges over the
 *   request's; got's `dnsLookup` carries the same function in the request options.
 * - HTTP/2 (http2-wrapper): the ALPN check and `tls.connect` of its agent receive the request
 *   options, `lookup` included; the agent is ours, so sessions are never shared with code that
 *   has another allow list.
 * - got-scraping's header hook probes ALPN with a bare `tls.connect` that ignores `dnsLookup`;
 *   `resolveProtocol` below replaces that probe with one that uses the guard.
 * Keep-alive pools belong to the fetcher, so a socket checked under one allow list is never
 * reused under another.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import tls from 'node:tls';
import { Agent as Http2Agent, auto, type ResolveProtocolFunction, type ResolveProtocolResult } from 'http2-wrapper';
import { TransformHeadersAgent } from 'got-scraping';
import type { SsrfGuard } from './ssrf-guard.js';

/** ALPN answers remembered per fetcher (host:port -> protocol). */
const alpnCacheSize = 1000;

/** A Map that forgets its oldest entry beyond `limit` (ALPN answers for a long crawl). */
class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }
  override set(key: K, value: V): this {
    if (!this.has(key) && this.size >= this.limit) this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }
}

export interface GuardedTransport {
  agents: { http: http.Agent; https: https.Agent; http2: Http2Agent };
  /** Replaces got-scraping's unguarded ALPN probe (passed through the `init` hook of GotFetcher). */
  resolveProtocol: ResolveProtocolFunction;
  /** Closes pooled sockets and sessions. */
  destroy(): void;
}

export function createGuardedTransport(guard: SsrfGuard): GuardedTransport {
  const lookup = guard.lookup;
  const httpAgent = new http.Agent({ keepAlive: true, lookup });
  const httpsAgent = new https.Agent({ keepAlive: true, lookup });
  const http2Agent = new Http2Agent();
  const resolveProtocol = auto.createResolveProtocol(
    new BoundedMap<string, string>(alpnCacheSize),
    new Map<string, Promise<ResolveProtocolResult>>(),
    // got-scraping passes the URL's host as SNI; an IP literal is no server name (RFC 6066).
    (options, callback) => tls.connect({ ...options, servername: isIP(options.servername ?? '') ? undefined : options.servername, lookup }, callback),
  );
  return {
    agents: {
      http: new TransformHeadersAgent(httpAgent) as unknown as http.Agent,
      https: new TransformHeadersAgent(httpsAgent) as unknown as https.Agent,
      http2: http2Agent,
    },
    resolveProtocol,
    destroy() {
      httpAgent.destroy();
      httpsAgent.destroy();
      http2Agent.destroy();
    },
  };
}

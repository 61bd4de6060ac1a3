/**
 * The sockets of one GotFetcher, all resolved through its SSRF guard.
 *
 * got-scraping opens connections on three paths, and each gets the guard's `lookup`:
 * - HTTP/1.1 (http: and https:): our own `http.Agent`/`https.Agent` (for got, wrapped in
 *   got-scraping's header-ordering agent), with `lookup` in the agent options, which node merges
 *   over the request's; got's `dnsLookup` carries the same function in the request options.
 * - HTTP/2 (http2-wrapper): the ALPN check and `tls.connect` of its agent receive the request
 *   options, `lookup` included; the agent is ours, so sessions are never shared with code that
 *   has another allow list.
 * - got-scraping's header hook probes ALPN with a bare `tls.connect` that ignores `dnsLookup`;
 *   `resolveProtocol` below replaces that probe with one that uses the guard.
 * Keep-alive pools belong to the fetcher, so a socket checked under one allow list is never
 * reused under another.
 */
import type http from 'node:http';
import { nodeHttp } from './node-http.js';
import https from 'node:https';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import tls from 'node:tls';
import type { Agent as Http2Agent, ResolveProtocolFunction, ResolveProtocolResult } from 'http2-wrapper';
import type { SsrfGuard } from './ssrf-guard.js';

const require = createRequire(import.meta.url);

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

/** got-scraping's header-ordering agent wrapper, as passed in by GotFetcher once it has imported got-scraping. */
export type HeaderAgentWrapper = new (agent: http.Agent) => unknown;

export interface GuardedTransport {
  /** The bare keep-alive agents (the HTTP/1.1 direct path writes its head already ordered). */
  agents: { http: http.Agent; https: https.Agent };
  /**
   * The agents for got-scraping: the same pools wrapped in its header-ordering agent, and an
   * HTTP/2 agent. Made at the first call (got-scraping is imported at the first HTTP/2 or proxied hop).
   */
  gotAgents(wrap: HeaderAgentWrapper): { http: http.Agent; https: https.Agent; http2: Http2Agent };
  /** The guarded ALPN probe (the direct path's choice, and got-scraping's through GotFetcher's `init` hook). */
  resolveProtocol: ResolveProtocolFunction;
  /** Closes pooled sockets and sessions. */
  destroy(): void;
}

/** http2-wrapper is required at the first https: hop or HTTP/2 agent (~28 ms at start otherwise). */
function http2Wrapper(): typeof import('http2-wrapper') {
  return require('http2-wrapper') as typeof import('http2-wrapper');
}

export function createGuardedTransport(guard: SsrfGuard): GuardedTransport {
  const lookup = guard.lookup;
  const httpAgent = new nodeHttp.Agent({ keepAlive: true, lookup });
  const httpsAgent = new https.Agent({ keepAlive: true, lookup });
  let gotAgents: ReturnType<GuardedTransport['gotAgents']> | undefined;
  let probe: ResolveProtocolFunction | undefined;
  const resolveProtocol: ResolveProtocolFunction = (options) => {
    probe ??= http2Wrapper().auto.createResolveProtocol(
      new BoundedMap<string, string>(alpnCacheSize),
      new Map<string, Promise<ResolveProtocolResult>>(),
      // got-scraping passes the URL's host as SNI; an IP literal is no server name (RFC 6066).
      (options, callback) => tls.connect({ ...options, servername: isIP(options.servername ?? '') ? undefined : options.servername, lookup }, callback),
    );
    return probe(options);
  };
  return {
    agents: { http: httpAgent, https: httpsAgent },
    gotAgents(wrap) {
      gotAgents ??= {
        http: new wrap(httpAgent) as http.Agent,
        https: new wrap(httpsAgent) as https.Agent,
        http2: new (http2Wrapper().Agent)(),
      };
      return gotAgents;
    },
    resolveProtocol,
    destroy() {
      httpAgent.destroy();
      httpsAgent.destroy();
      gotAgents?.http2.destroy();
    },
  };
}

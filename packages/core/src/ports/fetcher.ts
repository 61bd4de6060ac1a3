/**
 * The Fetcher port: one URL in, one response out. Implementations: `GotFetcher` (HTTP, in
 * @quarry/adapters) and later `PlaywrightFetcher` (browser). Fetchers translate their library's
 * failures into core errors: `TargetError` (kind dns, connection, tls, ssrf, too-large,
 * redirect, http-status is NOT thrown: any HTTP status is a response) or `TimeoutError`.
 */
export interface FetchRequest {
  url: URL;
  /** Extra request headers (the user's `headers` option). Cookies travel as a `cookie` header. */
  headers?: Record<string, string>;
  /** Hard limit for the whole exchange, redirects included. */
  timeoutMs: number;
  skipTlsVerification?: boolean;
  /** Proxy URL (`http://user:pass@host:port`) chosen by the engine, if any. */
  proxyUrl?: string;
  /** Emulate a phone (user agent, viewport). */
  mobile?: boolean;
  /** Bytes allowed in the body; beyond it the fetcher throws TargetError('too-large'). */
  maxBytes?: number;
  signal?: AbortSignal;
}

export interface FetchResponse {
  /** The URL that was asked for. */
  requestedUrl: URL;
  /** The final URL after redirects. */
  url: URL;
  status: number;
  headers: Headers;
  /** Raw body bytes, already decompressed (gzip/br/deflate), not yet charset-decoded. */
  body: Uint8Array;
  /** Every URL passed through, in order, excluding the final one. */
  redirects: URL[];
  /** Name of the engine that produced the response, reported in metadata. */
  engine: string;
  /** Wall time of the exchange in milliseconds. */
  elapsedMs: number;
}

export interface Fetcher {
  readonly name: string;
  fetch(request: FetchRequest): Promise<FetchResponse>;
  /** Releases sockets, browsers and pools. Idempotent. */
  close?(): Promise<void>;
}

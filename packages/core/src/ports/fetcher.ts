import type { BrandingProbe } from '../branding/branding-probe.js';
import type { Action } from '../options/actions.js';
import type { SessionKey } from './browser-sessions.js';

/**
 * The Fetcher port: one URL in, one response out. Implementations: `GotFetcher` (HTTP, in
 * @quarry/adapters) and `PlaywrightFetcher` (browser). Fetchers translate their library's
 * failures into core errors: `TargetError` (kind dns, connection, tls, ssrf, too-large,
 * redirect, http-status is NOT thrown: any HTTP status is a response) or `TimeoutError`.
 *
 * The browser-only fields live under `request.browser` and `response.browser` (the way vercel/ai
 * namespaces provider-specific options), so the contract every engine reads is the rest.
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
  /**
   * Read at most this many bytes of the body and return them, stopping the download (robots.txt:
   * RFC 9309 parses the first 500 KiB of a file of any size). Takes precedence over `maxBytes`.
   */
  truncateBytes?: number;
  /** Redirects followed at most for this request (robots.txt: 5, RFC 9309); the fetcher's own limit otherwise. */
  maxRedirects?: number;
  signal?: AbortSignal;
  /**
   * Browser-only options, read only by browser fetchers (an HTTP fetcher ignores them); the engine
   * sends them only to an engine whose profile has the feature (scrape/engine-choice.ts).
   */
  browser?: BrowserFetchOptions;
}

/** The request fields only a browser reads, namespaced under `FetchRequest.browser`. */
export interface BrowserFetchOptions {
  /** Milliseconds to wait after the page loaded, before actions run. */
  waitFor?: number;
  /** Actions to run in order after load (validated: limits and wait rules hold). */
  actions?: Action[];
  /** A screenshot of the page after the actions. */
  screenshot?: ScreenshotSpec;
  /** Locale, timezone and Accept-Language to emulate (resolved from `location` by core). */
  location?: LocationProfile;
  /** Block ads and trackers and hide cookie banners. */
  blockAds?: boolean;
  /** Run the branding probe on the rendered page. */
  probeBranding?: boolean;
  /**
   * Leave the page open for interact under this key (BrowserSessions) instead of closing
   * it, when the fetcher keeps sessions and their limits allow; ignored otherwise.
   */
  keepPage?: SessionKey;
}

export interface ScreenshotSpec {
  fullPage: boolean;
  /** JPEG quality 1-100; PNG when absent. */
  quality?: number;
  /** Viewport for this capture, in CSS pixels. */
  viewport?: { width: number; height: number };
}

export interface LocationProfile {
  /** BCP 47 locale for `navigator.language` and Intl, e.g. `de-DE`. */
  locale: string;
  /** IANA timezone, e.g. `Europe/Berlin`. */
  timezoneId: string;
  /** Accept-Language header value, e.g. `de-DE,de;q=0.9,en;q=0.8`. */
  acceptLanguage: string;
}

/** Bytes a browser made (screenshot, PDF), with their media type. */
export interface Capture {
  bytes: Uint8Array;
  contentType: string;
}

/** What the actions produced, in the order they ran. */
export interface ActionOutputs {
  screenshots: Capture[];
  scrapes: Array<{ url: string; html: string }>;
  javascriptReturns: Array<{ type: string; value: unknown }>;
  pdfs: Capture[];
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
  /** What only a browser produces (rendered DOM, screenshot, action outputs, branding). */
  browser?: BrowserFetchResult;
}

/** The response fields only a browser fills, namespaced under `FetchResponse.browser`. */
export interface BrowserFetchResult {
  /** The DOM serialised after load, waitFor and actions (used instead of `body` for HTML). */
  renderedHtml?: string;
  /** The screenshot asked for by `request.browser.screenshot`. */
  screenshot?: Capture;
  /** Outputs of `request.browser.actions` (present when actions were given). */
  actions?: ActionOutputs;
  /** Raw branding measurements, when `request.browser.probeBranding` was set. */
  branding?: BrandingProbe;
}

export interface Fetcher {
  readonly name: string;
  fetch(request: FetchRequest): Promise<FetchResponse>;
  /**
   * Whether this fetcher would connect to `url`'s host at all, asked before a job is accepted
   * (a crawl or map of a private address is refused at submit, as a scrape is). Throws
   * TargetError('ssrf') when it would refuse; resolves otherwise, also when the name does not
   * resolve (that is the page's error, found when it is fetched). Optional: fetchers without a
   * guard accept everything.
   */
  checkTarget?(url: URL): Promise<void>;
  /** Releases sockets, browsers and pools. Idempotent. */
  close?(): Promise<void>;
}

/**
 * PlaywrightFetcher: the `Fetcher` port over a system Chromium driven by playwright-core.
 *
 *   pool.withContext (own context per scrape)
 *     -> route every request: SSRF check, then the ad blocker
 *     -> goto (DOM ready) -> load (capped) -> network quiet (capped) -> cookie banners removed
 *     -> waitFor -> actions -> screenshot -> branding probe -> DOM serialised
 *
 * Every connection Chromium opens goes through a GuardedProxy holding the same SsrfGuard as the
 * HTTP fetcher, so redirects, subresources, workers and WebSockets cannot reach private networks
 * unless the operator allowed them; the route check gives a clear error for the first hop.
 * The whole fetch runs under `timeoutMs`: past it the context is closed and TimeoutError thrown.
 */
import { readFile, stat } from 'node:fs/promises';
import type { BrowserContext, Download, Page, Request as PlaywrightRequest, Response as PlaywrightResponse, Route } from 'playwright-core';
import { TargetError, TimeoutError, type SessionKey, type FetchRequest, type FetchResponse, type Fetcher, type BrandingProbe } from '@quarry/core';
import { SsrfGuard, type Resolver } from '../ssrf-guard.js';
import { captureScreenshot, runActions } from './action-runner.js';
import { AdBlocker } from './ad-blocker.js';
import { brandingProbeSource } from './branding-probe.js';
import { BrowserPool, type BrowserPoolOptions } from './browser-pool.js';
import { toCoreError } from './browser-error.js';
import { acceptLanguageFor, contextOptionsFor, credentialHeadersOf } from './context-options.js';
import { GuardedProxy } from './guarded-proxy.js';
import { NetworkQuiet } from './network-quiet.js';

export interface PlaywrightFetcherOptions extends Omit<BrowserPoolOptions, 'proxy'> {
  /** Destinations allowed although not public (same syntax as GotFetcher). */
  allowPrivateHosts?: readonly string[];
  /** What a refused private target says to do; by default this option (the composition names its own knob). */
  privateHostsHint?: string;
  /** DNS resolution for the guard (tests and custom DNS). */
  resolve?: Resolver;
  /** Filter list texts (EasyList syntax) for `blockAds`; the built-in list when absent. */
  filterLists?: readonly string[];
  /** Sent instead of the device profile's user agent (a request's own `user-agent` header wins). */
  userAgent?: string;
}

/** How long the page may keep loading after DOM ready, and how long to wait for network quiet. */
export const pageSettling = { loadCapMs: 10_000, quietMs: 200, quietCapMs: 5_000 } as const;

const passThroughSchemes = new Set(['data:', 'blob:', 'about:', 'chrome-extension:']);
/** Redirects within the target's origin followed with the caller's credentials (the fetcher's own limit is 10). */
const maxSameOriginHops = 10;

function urlOrNull(location: string, base: URL): URL | null {
  try {
    return new URL(location, base);
  } catch {
    return null;
  }
}

/** True for a request of the page's main frame (a service worker's request has no frame). */
function isMainFrame(details: PlaywrightRequest): boolean {
  try {
    const frame = details.frame();
    return frame === frame.page().mainFrame();
  } catch {
    return false;
  }
}

/**
 * `page.goto` to DOM ready, failing as soon as the main document's request fails. Chromium never
 * fires DOMContentLoaded for a document whose connection was reset mid-body (ERR_CONTENT_LENGTH_MISMATCH,
 * a chunked body cut short): goto would wait out the whole timeout. ERR_ABORTED is left to goto
 * (a download, or a navigation replaced by another).
 */
async function gotoDocument(page: Page, url: URL, timeoutMs: number): Promise<PlaywrightResponse | null> {
  let onFailed: ((failed: PlaywrightRequest) => void) | undefined;
  const documentFailed = new Promise<never>((_resolve, reject) => {
    onFailed = (failed) => {
      const text = failed.failure()?.errorText ?? '';
      if (!failed.isNavigationRequest() || failed.frame() !== page.mainFrame() || /ERR_ABORTED/.test(text)) return;
      reject(new Error(`page.goto: ${text || 'net::ERR_FAILED'} at ${failed.url()}`));
    };
    page.on('requestfailed', onFailed);
  });
  const navigation = page.goto(url.href, { waitUntil: 'domcontentloaded', timeout: timeoutMs });
  navigation.catch(() => undefined);
  try {
    return await Promise.race([navigation, documentFailed]);
  } finally {
    if (onFailed) page.off('requestfailed', onFailed);
  }
}

function headersOf(raw: Record<string, string>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (name.startsWith(':')) continue;
    for (const item of name === 'set-cookie' ? value.split('\n') : [value]) headers.append(name, item);
  }
  return headers;
}

function redirectsOf(response: PlaywrightResponse): URL[] {
  const chain: URL[] = [];
  for (let request = response.request().redirectedFrom(); request; request = request.redirectedFrom()) chain.unshift(new URL(request.url()));
  return chain;
}

/** Takes pages that scrapes leave open for interact (BrowserSessionRegistry). */
export interface PageKeeper {
  /** Whether a page for `key` would be kept now (the session limits allow it). */
  wants(key: SessionKey): boolean;
  adopt(key: SessionKey, page: OpenPage): void;
}

/** A page kept open by openPage, with its network-quiet watcher; `release()` closes it. */
export interface OpenPage {
  page: Page;
  quiet: NetworkQuiet;
  release(): Promise<void>;
}

export class PlaywrightFetcher implements Fetcher {
  readonly name = 'browser';
  private readonly guard: SsrfGuard;
  private readonly proxy: GuardedProxy;
  private readonly options: PlaywrightFetcherOptions;
  private pool: BrowserPool | undefined;
  private blocker: Promise<AdBlocker> | undefined;
  private keeper: PageKeeper | undefined;
  /** One guarded proxy per upstream proxy of the operator's pools, by upstream URL. */
  private readonly chained = new Map<string, GuardedProxy>();

  constructor(options: PlaywrightFetcherOptions) {
    this.options = options;
    this.guard = new SsrfGuard({
      ...(options.allowPrivateHosts ? { allowPrivateHosts: options.allowPrivateHosts } : {}),
      howToAllow: options.privateHostsHint ?? "allow it with `new PlaywrightFetcher({ allowPrivateHosts: [...] })` (host names, IPs or CIDRs, or '*')",
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });
    this.proxy = new GuardedProxy(this.guard);
  }

  /** Where pages of requests with `keepPage` go instead of closing. */
  keepPagesWith(keeper: PageKeeper): void {
    this.keeper = keeper;
  }

  /** Pool numbers (browsers, open pages, waiting scrapes, launches, retirements). */
  stats() {
    return this.pool?.stats();
  }

  /**
   * Loads `request.url` in a fresh context, runs waitFor, actions, screenshot and the branding
   * probe when asked, and returns the main response's status and headers with the rendered DOM.
   * Throws TargetError (ssrf, dns, connection, tls, redirect, unsupported-type), TimeoutError,
   * ValidationError for an action that does not fit the page, QuarryError('unavailable') when
   * Chromium cannot start or crashed, and the signal's reason when `request.signal` aborts.
   */
  async fetch(request: FetchRequest): Promise<FetchResponse> {
    const started = performance.now();
    const remainingMs = () => Math.max(1, request.timeoutMs - (performance.now() - started));
    const pool = await this.poolOf();
    const refusals: TargetError[] = [];
    try {
      const blocker = request.browser?.blockAds ? await this.blockerOf() : undefined;
      const upstream = request.proxyUrl ? await this.chainedProxyOf(request.proxyUrl) : undefined;
      const contextOptions = {
        ...(await contextOptionsFor(request, this.options.userAgent)),
        ...(upstream ? { proxy: { server: upstream, bypass: '<-loopback>' } } : {}),
      };
      const render = (context: BrowserContext) =>
        this.withDeadline(context, request, remainingMs, () => this.render(context, request, remainingMs, refusals, started, blocker));
      const keepPage = request.browser?.keepPage;
      const keep = keepPage && this.keeper?.wants(keepPage) ? { key: keepPage, keeper: this.keeper } : undefined;
      if (!keep) return await pool.withContext(contextOptions, render, request.signal);
      // The page stays open for interact: handed to the keeper after a successful render.
      const lease = await pool.openContext(contextOptions, request.signal);
      let isKept = false;
      try {
        const response = await render(lease.context);
        const page = lease.context.pages()[0];
        if (page && !page.isClosed()) {
          keep.keeper.adopt(keep.key, { page, quiet: new NetworkQuiet(page), release: lease.release });
          isKept = true;
        }
        return response;
      } finally {
        if (!isKept) await lease.release();
      }
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason;
      const refusal = refusals[0] ?? this.refusalFor(request.url.hostname);
      if (refusal && !(error instanceof TimeoutError)) throw refusal;
      throw toCoreError(error, { host: request.url.host, timeoutMs: request.timeoutMs });
    }
  }

  /**
   * A page left open at `url` for a kept session (interact): its own context from the pool, every
   * request checked by the same SSRF guard (route check here, GuardedProxy under it), loaded to
   * DOM ready. `release()` closes it. Throws like fetch when the page cannot load.
   */
  async openPage(url: URL, timeoutMs: number): Promise<OpenPage> {
    const pool = await this.poolOf();
    const request: FetchRequest = { url, timeoutMs };
    const lease = await pool.openContext(await contextOptionsFor(request, this.options.userAgent));
    const refusals: TargetError[] = [];
    try {
      const { context } = lease;
      context.setDefaultTimeout(timeoutMs);
      const acceptLanguage = acceptLanguageFor(request);
      await context.route('**/*', (route) =>
        this.route(route, request, { acceptLanguage, credentials: {}, landed: {} }, refusals, undefined).catch(() => undefined),
      );
      const page = await context.newPage();
      await gotoDocument(page, url, timeoutMs);
      return { page, quiet: new NetworkQuiet(page), release: lease.release };
    } catch (error) {
      await lease.release();
      const refusal = refusals[0] ?? this.refusalFor(url.hostname);
      if (refusal) throw refusal;
      throw toCoreError(error, { host: url.host, timeoutMs });
    }
  }

  /** Closes the browsers and the proxy. Idempotent. */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.close();
    await this.proxy.close();
    const chained = [...this.chained.values()];
    this.chained.clear();
    await Promise.all(chained.map((proxy) => proxy.close()));
  }

  /** The local guarded proxy that relays to `upstreamUrl` (started on first use). */
  private chainedProxyOf(upstreamUrl: string): Promise<string> {
    let proxy = this.chained.get(upstreamUrl);
    if (!proxy) {
      proxy = new GuardedProxy(this.guard, new URL(upstreamUrl));
      this.chained.set(upstreamUrl, proxy);
    }
    return proxy.start();
  }

  private refusalFor(host: string): TargetError | undefined {
    for (const proxy of [this.proxy, ...this.chained.values()]) {
      const refusal = proxy.refusalFor(host);
      if (refusal) return refusal;
    }
    return undefined;
  }

  private async poolOf(): Promise<BrowserPool> {
    if (this.pool) return this.pool;
    const proxyUrl = await this.proxy.start();
    // Chromium bypasses proxies for loopback unless told not to: `<-loopback>` keeps it guarded.
    this.pool ??= new BrowserPool({ ...this.options, proxy: { server: proxyUrl, bypass: '<-loopback>' } });
    return this.pool;
  }

  private async withDeadline<T>(context: BrowserContext, request: FetchRequest, remainingMs: () => number, run: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const work = run();
    work.catch(() => undefined);
    const expiry = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(
          new TimeoutError(`The browser did not finish ${request.url.host} within ${request.timeoutMs} ms`, {
            details: { host: request.url.host, timeoutMs: request.timeoutMs },
          }),
        );
        void context.close().catch(() => undefined);
      }, remainingMs());
      onAbort = () => {
        reject(request.signal!.reason);
        void context.close().catch(() => undefined);
      };
      request.signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([work, expiry]);
    } finally {
      clearTimeout(timer);
      if (onAbort) request.signal?.removeEventListener('abort', onAbort);
    }
  }

  private async route(
    route: Route,
    request: FetchRequest,
    added: { acceptLanguage: string; credentials: Record<string, string>; landed: { url?: URL } },
    refusals: TargetError[],
    blocker: AdBlocker | undefined,
  ): Promise<void> {
    const { acceptLanguage, credentials } = added;
    const details = route.request();
    let url: URL;
    try {
      url = new URL(details.url());
    } catch {
      return route.abort('blockedbyclient');
    }
    if (passThroughSchemes.has(url.protocol)) return route.continue();
    try {
      this.guard.checkUrl(url);
    } catch (error) {
      if (error instanceof TargetError) refusals.push(error);
      return route.abort('blockedbyclient');
    }
    if (blocker) {
      const decision = blocker.decide(details);
      if (decision.action === 'abort') return route.abort('blockedbyclient');
      if (decision.action === 'fulfill') return route.fulfill({ body: decision.body, contentType: decision.contentType });
    }
    const headers = details.headers();
    const isTargetOrigin = url.origin === request.url.origin && Object.keys(credentials).length > 0;
    const fixesLanguage = headers['accept-language'] !== undefined && headers['accept-language'] !== acceptLanguage;
    if (isTargetOrigin) return this.fetchWithCredentials(route, request, { credentials, landed: added.landed }, fixesLanguage ? acceptLanguage : undefined);
    if (fixesLanguage) return route.continue({ headers: { ...headers, 'accept-language': acceptLanguage } });
    return route.continue();
  }

  /**
   * A request to the target's origin with the caller's credentials. Chromium keeps headers set by
   * `route.continue` on every hop of a redirect, to any origin; so this hop is fetched here (through
   * the guarded proxy, as the context's requests are) without following redirects, and Chromium
   * gets the answer: a redirect it follows with a new request of its own, which carries the
   * credentials only if it comes back to the target's origin. Redirects within the target's origin
   * are followed here (Playwright does not route a redirect's next hop), with the credentials; for
   * the page itself, where it landed is kept in `landed` (Chromium only knows the first URL).
   */
  private async fetchWithCredentials(
    route: Route,
    request: FetchRequest,
    { credentials, landed }: { credentials: Record<string, string>; landed: { url?: URL } },
    acceptLanguage: string | undefined,
  ): Promise<void> {
    const sent = await route.request().allHeaders();
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(sent)) if (!name.startsWith(':')) headers[name] = value;
    if (acceptLanguage) headers['accept-language'] = acceptLanguage;
    // The page's own cookies (Set-Cookie of earlier hops) go along with the caller's.
    const cookie = [headers.cookie, credentials.cookie].filter(Boolean).join('; ');
    Object.assign(headers, credentials, cookie ? { cookie } : {});
    const details = route.request();
    let url = new URL(details.url());
    let response = await route.fetch({ headers, maxRedirects: 0, timeout: request.timeoutMs });
    for (let hop = 0; hop < maxSameOriginHops && response.status() >= 300 && response.status() < 400; hop++) {
      const location = response.headers()['location'];
      const next = location ? urlOrNull(location, url) : null;
      if (!next || next.origin !== request.url.origin) break;
      this.guard.checkUrl(next);
      url = next;
      response = await route.fetch({ url: next.href, method: 'GET', headers, maxRedirects: 0, timeout: request.timeoutMs });
    }
    const isRedirect = response.status() >= 300 && response.status() < 400;
    if (!isRedirect && url.href !== details.url() && details.isNavigationRequest() && isMainFrame(details)) landed.url = url;
    await route.fulfill({ response });
  }

  private blockerOf(): Promise<AdBlocker> {
    this.blocker ??= AdBlocker.create(this.options.filterLists ?? []);
    return this.blocker;
  }

  private async render(
    context: BrowserContext,
    request: FetchRequest,
    remainingMs: () => number,
    refusals: TargetError[],
    started: number,
    blocker: AdBlocker | undefined,
  ): Promise<FetchResponse> {
    context.setDefaultTimeout(remainingMs());
    const acceptLanguage = acceptLanguageFor(request);
    const credentials = credentialHeadersOf(request);
    const landed: { url?: URL } = {};
    await context.route('**/*', (route) => this.route(route, request, { acceptLanguage, credentials, landed }, refusals, blocker).catch(() => undefined));
    const page = await context.newPage();
    const quiet = new NetworkQuiet(page);
    blocker?.watch(page);

    const download = new Promise<Download>((resolve) => page.once('download', resolve));
    let response: PlaywrightResponse | null;
    try {
      response = await gotoDocument(page, request.url, remainingMs());
    } catch (error) {
      if (!isDownloadStart(error)) throw error;
      return this.downloadedResponse(request, await download, remainingMs, started);
    }
    if (!response) throw new TargetError('connection', `The browser got no response from ${request.url.host}`, { details: { host: request.url.host } });
    const headers = headersOf(await response.allHeaders());
    if (headers.get('x-quarry-failed'))
      throw this.refusalFor(new URL(response.url()).hostname) ?? new TargetError('connection', `The browser could not reach ${new URL(response.url()).host}`);
    if (headers.get('x-quarry-refused'))
      throw this.refusalFor(new URL(response.url()).hostname) ?? new TargetError('ssrf', `Refused to connect to ${new URL(response.url()).host}`);
    const contentType = headers.get('content-type') ?? '';
    const isHtml = contentType === '' || /html|xml\+xhtml/i.test(contentType);
    if (!isHtml) return this.responseOf(request, response, headers, await response.body(), started, landed.url);

    await page.waitForLoadState('load', { timeout: Math.min(pageSettling.loadCapMs, remainingMs() / 2) }).catch(() => undefined);
    await quiet.settle(page, pageSettling.quietMs, Math.min(pageSettling.quietCapMs, remainingMs() / 4));
    const asked = request.browser ?? {};
    if (asked.blockAds) await AdBlocker.removeCookieBanners(page);
    if (asked.waitFor) await page.waitForTimeout(asked.waitFor);
    const scope = { page, quiet, remainingMs };
    const actions = asked.actions && asked.actions.length > 0 ? await runActions(scope, asked.actions) : undefined;
    const screenshot = asked.screenshot ? await captureScreenshot(page, asked.screenshot, remainingMs()) : undefined;
    const branding = asked.probeBranding ? ((await page.evaluate(brandingProbeSource)) as BrandingProbe) : undefined;
    const renderedHtml = await this.contentOf(page);
    return {
      ...this.responseOf(request, response, headers, new TextEncoder().encode(renderedHtml), started, landed.url),
      // Where the page is now (a script may have navigated), or where credentialed redirects ended.
      url: landed.url && page.url() === response.url() ? landed.url : new URL(page.url()),
      browser: {
        renderedHtml,
        ...(screenshot ? { screenshot } : {}),
        ...(actions ? { actions } : {}),
        ...(branding ? { branding } : {}),
      },
    };
  }

  /**
   * A URL that Chromium downloads instead of showing (a PDF, `Content-Disposition: attachment`):
   * the file, read once the download ends, as the response body. The download went through the
   * guarded proxy like any other connection; its size is checked against `maxBytes`.
   */
  private async downloadedResponse(request: FetchRequest, download: Download, remainingMs: () => number, started: number): Promise<FetchResponse> {
    const path = await Promise.race([
      download.path(),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new TimeoutError(`The download from ${request.url.host} did not finish in time`)), remainingMs()).unref(),
      ),
    ]);
    const size = (await stat(path)).size;
    if (request.maxBytes !== undefined && size > request.maxBytes) {
      throw new TargetError('too-large', `${request.url.host} sent a ${size}-byte file, over the ${request.maxBytes}-byte limit`, {
        details: { host: request.url.host },
      });
    }
    const body = new Uint8Array(await readFile(path));
    return {
      requestedUrl: request.url,
      url: new URL(download.url()),
      status: 200,
      headers: new Headers({ 'content-type': downloadContentType(body, download.suggestedFilename()) }),
      body,
      redirects: [],
      engine: this.name,
      elapsedMs: performance.now() - started,
    };
  }

  /** The DOM as HTML; retried once if a navigation (a click, a script) is still under way. */
  private async contentOf(page: Page): Promise<string> {
    try {
      return await page.content();
    } catch {
      await page.waitForLoadState('domcontentloaded').catch(() => undefined);
      return page.content();
    }
  }

  /** `landedUrl`: where redirects within the target's origin, followed with the caller's credentials, ended. */
  private responseOf(request: FetchRequest, response: PlaywrightResponse, headers: Headers, body: Uint8Array, started: number, landedUrl?: URL): FetchResponse {
    return {
      requestedUrl: request.url,
      url: landedUrl ?? new URL(response.url()),
      status: response.status(),
      headers,
      body,
      redirects: redirectsOf(response),
      engine: this.name,
      elapsedMs: performance.now() - started,
    };
  }
}

export type { PlaywrightRequest };

function isDownloadStart(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Download is starting/i.test(message) || (/net::ERR_ABORTED/.test(message) && /download/i.test(message));
}

/** The type of a downloaded file: sniffed from its first bytes, else from its name. */
function downloadContentType(body: Uint8Array, filename: string): string {
  const head = new TextDecoder('latin1').decode(body.subarray(0, 8));
  if (head.startsWith('%PDF-')) return 'application/pdf';
  const extension = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase();
  const byExtension: Record<string, string> = {
    pdf: 'application/pdf',
    json: 'application/json',
    txt: 'text/plain',
    csv: 'text/csv',
    xml: 'application/xml',
    html: 'text/html',
    htm: 'text/html',
  };
  return (extension && byExtension[extension]) ?? 'application/octet-stream';
}

import { QuarryError, TargetError, TimeoutError } from '../errors.js';
import { decodeBody } from '../html/decode-body.js';
import type { ScrapeOptions } from '../options/scrape-options.js';
import type { Clock } from '../ports/clock.js';
import type { FetchRequest, FetchResponse, Fetcher } from '../ports/fetcher.js';
import type { SessionKey } from '../ports/browser-sessions.js';
import { blockedPageError, blockedPageTemplate } from './blocked-page.js';
import { contentKindOf } from './content-kind.js';
import { chooseEngines, engineProfiles, type EngineProfile } from './engine-choice.js';
import { locationProfile } from './location-profile.js';
import { pageSignals, type PageSignals } from './page-signals.js';
import type { HtmlTransformOutput } from './transform-html.js';
import { scriptRenderedReason } from './script-rendered.js';

/**
 * The engine waterfall of one scrape:
 *
 *   engines able to serve the options, cheapest first (engine-choice.ts)
 *     -> fetch -> judge the page:
 *          ok               -> done
 *          script-rendered  -> keep it, try the next engine (one that renders scripts)
 *          blocked          -> keep it, try the next engine; the last one throws TargetError('blocked')
 *     -> a failure that another engine may not share (connection, tls, crash) -> next engine
 *   all tried -> the kept page (a script-rendered page beats nothing), else the last error.
 *
 * Every attempt runs within what is left of `options.timeout`.
 */
export interface EngineSet {
  fetcher: Fetcher;
  browser?: Fetcher;
  /** What a browser-only option's error says to do when there is no browser. */
  browserHint?: string;
}

export interface FetchedPage {
  response: FetchResponse;
  /** The decoded HTML when the response is HTML (rendered DOM for the browser). */
  html?: string;
  /** The transform of `html` the waterfall judged it by, when an analyzer was given. */
  transformed?: HtmlTransformOutput;
}

/**
 * Transforms a fetched HTML page with `want.signals`: the waterfall judges the page by the signals
 * and the document is built from the same output, so the page is parsed once, where the
 * transformer runs (a worker thread in the server), not a second time on the calling thread.
 */
export type PageAnalyzer = (page: { html: string; url: URL; status: number }) => Promise<HtmlTransformOutput>;

export interface FetchExtras {
  signal?: AbortSignal;
  /** The proxy this attempt goes through (proxy-pools.ts). */
  proxyUrl?: string;
  /** Browser: keep the page open for interact under this key (FetchRequest.keepPage). */
  keepPage?: SessionKey;
  analyze?: PageAnalyzer;
}

type Verdict = { kind: 'ok' } | { kind: 'script-rendered'; reason: string } | { kind: 'blocked'; error: TargetError };

/** Failures that say nothing about the next engine's chances: they end the waterfall. */
const finalKinds = new Set(['ssrf', 'dns', 'connection-refused', 'too-large', 'redirect', 'unsupported-type', 'robots']);

function canFallBack(error: unknown): boolean {
  if (error instanceof TimeoutError) return false;
  if (error instanceof TargetError) return !finalKinds.has(error.kind);
  return !(error instanceof QuarryError) || error.code === 'internal' || error.code === 'unavailable';
}

export function browserRequestFields(options: ScrapeOptions): Omit<FetchRequest, 'url' | 'timeoutMs'> {
  const screenshot = options.formats.find((format) => format.type === 'screenshot');
  return {
    headers: options.headers,
    skipTlsVerification: options.skipTlsVerification,
    mobile: options.mobile,
    browser: {
      waitFor: options.waitFor,
      actions: options.actions,
      blockAds: options.blockAds,
      ...(screenshot
        ? {
            screenshot: {
              fullPage: screenshot.fullPage,
              ...(screenshot.quality ? { quality: screenshot.quality } : {}),
              ...(screenshot.viewport ? { viewport: screenshot.viewport } : {}),
            },
          }
        : {}),
      ...(options.location ? { location: locationProfile(options.location) } : {}),
      ...(options.formats.some((format) => format.type === 'branding') ? { probeBranding: true } : {}),
    },
  };
}

async function judge(page: FetchedPage, profile: EngineProfile, analyze: PageAnalyzer | undefined): Promise<Verdict> {
  if (page.html === undefined) return { kind: 'ok' };
  let signals: PageSignals;
  let template: { name: string; vendor: string } | undefined;
  if (analyze) {
    page.transformed = await analyze({ html: page.html, url: page.response.url, status: page.response.status });
    signals = page.transformed.signals ?? pageSignals(page.html);
    template = page.transformed.blocked;
  } else {
    signals = pageSignals(page.html);
    template = blockedPageTemplate({ status: page.response.status, signals, html: page.html });
  }
  if (template) return { kind: 'blocked', error: blockedPageError(page.response.url, template, page.response.engine) };
  const reason = profile.rendersScripts ? undefined : scriptRenderedReason(signals);
  return reason ? { kind: 'script-rendered', reason } : { kind: 'ok' };
}

/** Statuses that say "try again shortly": retried within the scrape's timeout. */
const transientStatuses: ReadonlySet<number> = new Set([429, 502, 503, 504]);
/** Retries of one engine's fetch after a transient status. */
const maxTransientRetries = 2;
/** A Retry-After longer than this (seconds) is not waited for: the status is the answer. */
const maxRetryAfterSeconds = 10;
/** The wait when an empty transient answer names none. */
const defaultRetryDelayMs = 500;

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date), undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * One engine's fetch, retried after a 429/502/503/504 that asks for a short wait (Retry-After) or
 * sends nothing at all, while the scrape's time allows: a site that answers "busy, try in a second" twice and then the page
 * gives the page.
 */
async function fetchRetryingTransient(fetcher: Fetcher, request: FetchRequest, clock: Clock, deadline: number): Promise<FetchResponse> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetcher.fetch({ ...request, timeoutMs: Math.max(1, deadline - clock.now()) });
    if (!transientStatuses.has(response.status) || attempt >= maxTransientRetries) return response;
    const asked = retryAfterMs(response.headers.get('retry-after'), clock.now());
    // A status with a page and no Retry-After (a bot challenge, an error page) is not "busy": judge it.
    if (asked === undefined && response.body.byteLength > 0) return response;
    if (asked !== undefined && asked > maxRetryAfterSeconds * 1000) return response;
    const wait = asked ?? defaultRetryDelayMs * (attempt + 1);
    if (clock.now() + wait >= deadline - 100) return response;
    await clock.sleep(wait, request.signal);
  }
}

function withHtml(response: FetchResponse): FetchedPage {
  const contentType = response.headers.get('content-type');
  if (contentKindOf(contentType, response.body) !== 'html') return { response };
  return { response, html: response.browser?.renderedHtml ?? decodeBody(response.body, contentType).text };
}

export async function fetchWithEngines(engines: EngineSet, clock: Clock, target: URL, options: ScrapeOptions, extras: FetchExtras = {}): Promise<FetchedPage> {
  const { signal, proxyUrl, analyze, keepPage } = extras;
  const available: Array<EngineProfile & { fetcher: Fetcher }> = [{ ...engineProfiles.http, fetcher: engines.fetcher }];
  if (engines.browser) available.push({ ...engineProfiles.browser, fetcher: engines.browser });
  const able = chooseEngines(options, available, engines.browserHint);
  const base = browserRequestFields(options);
  const fields = { ...base, ...(proxyUrl ? { proxyUrl } : {}), ...(keepPage ? { browser: { ...base.browser, keepPage } } : {}) };
  const started = clock.now();
  let kept: { page: FetchedPage; verdict: Verdict } | undefined;
  let lastError: unknown;
  /** A server error an engine answered: it says more than a later engine's failure to load the same page. */
  let serverFailure: TargetError | undefined;

  for (const [index, engine] of able.entries()) {
    const isLast = index === able.length - 1;
    const remainingMs = options.timeout - (clock.now() - started);
    if (remainingMs <= 0) break;
    let page: FetchedPage;
    try {
      const request: FetchRequest = { url: target, timeoutMs: remainingMs, ...fields, ...(signal ? { signal } : {}) };
      page = withHtml(await fetchRetryingTransient(engine.fetcher, request, clock, started + options.timeout));
    } catch (error) {
      if (signal?.aborted) throw error;
      lastError = error;
      if (kept || (!isLast && canFallBack(error))) continue;
      throw serverFailure ?? error;
    }
    const verdict = await judge(page, engine, analyze);
    if (verdict.kind === 'ok' && page.response.status >= 500 && isEmptyPage(page)) {
      // A server error with nothing to read that outlived the retries is a failed page, not an
      // empty success. One that sends an error page is a document with its status (as Firecrawl).
      serverFailure = serverError(page.response);
      lastError = serverFailure;
      if (kept || !isLast) continue;
      throw serverFailure;
    }
    if (verdict.kind === 'ok' || (verdict.kind === 'script-rendered' && isLast)) return page;
    kept = { page, verdict };
  }
  if (kept?.verdict.kind === 'blocked') throw kept.verdict.error;
  if (kept) return kept.page;
  throw serverFailure ?? lastError ?? new TimeoutError(`The scrape ran out of its ${options.timeout} ms timeout`, { details: { timeoutMs: options.timeout } });
}

function isEmptyPage(page: FetchedPage): boolean {
  if (page.response.body.byteLength === 0) return true;
  const text = page.html ?? new TextDecoder().decode(page.response.body.subarray(0, 4096));
  return text.replace(/<(script|style)[\s\S]*?<\/\1>|<[^>]*>/gi, '').trim() === '';
}

function serverError(response: FetchResponse): TargetError {
  return new TargetError('http-status', `${response.url.host} answered ${response.status}: the server failed to produce the page`, {
    details: { host: response.url.host, statusCode: response.status },
  });
}

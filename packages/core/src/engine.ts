import { mapSite, type MapLink } from './crawl/map-site.js';
import { robotsTokensFor } from './crawl/robots-cache.js';
import type { ScrapeDocument } from './document.js';
import { ValidationError, type ErrorJson } from './errors.js';
import { AsyncChannel } from './jobs/async-channel.js';
import type { JobEvent } from './jobs/job-events.js';
import { defaultRunnerOptions } from './jobs/job-runner.js';
import { createJobParts } from './jobs/job-parts.js';
import { MemoryJobStore } from './memory/memory-job-store.js';
import { MemoryQueue } from './memory/memory-queue.js';
import { parseCrawlOptions, type CrawlOptionsInput } from './options/crawl-options.js';
import { parseMapOptions, type MapOptionsInput } from './options/map-options.js';
import { parseScrapeOptions } from './options/normalize-scrape-options.js';
import type { ScrapeOptions, ScrapeOptionsInput } from './options/scrape-options.js';
import { randomIds, systemClock, type Clock, type Ids } from './ports/clock.js';
import type { Fetcher } from './ports/fetcher.js';
import { inlineHtmlTransformer, inlineHtmlTransformerWith, withPageLimits, type HtmlTransformer } from './ports/html-transformer.js';
import { withElementRules, type ElementRuleOverrides } from './markdown/index.js';
import type { PageLimits } from './html/page-limits.js';
import type { JobProgress } from './ports/job-store.js';
import { parseFile, type ParseFileInput } from './scrape/parse-file.js';
import { scrapePageWithLinks, type ScrapeContext, type ScrapeDeps, type ScrapedPage } from './scrape/scrape-page.js';
import type { BlobLinks } from './scrape/capture-links.js';
import type { DocumentStage } from './scrape/document-stage.js';
import { ProxyPools, type ProxyPoolConfig } from './scrape/proxy-pools.js';
import type { LlmProvider } from './ports/llm-provider.js';
import type { BrowserSessions } from './ports/browser-sessions.js';
import { parseTargetUrl } from './scrape/target-url.js';
import { withDocumentCache, type ScrapeRun } from './cache/cached-scrape.js';
import { siteOf } from './cache/cache-key.js';
import { changeTrackingStage } from './change-tracking/change-tracking-stage.js';
import { changeHistoryFor } from './change-tracking/shared-history.js';
import { libraryTeamId, storeScope, type StoreSharing } from './cache/store-scope.js';
import type { ChangeHistory } from './ports/change-history.js';
import type { DocumentCache } from './ports/document-cache.js';
import type { PageIndex } from './ports/page-index.js';

/**
 * The engine: what a library user imports.
 *
 *   const engine = createEngine({ fetcher: new GotFetcher() });
 *   const doc = await engine.scrape('https://example.com', { formats: ['markdown', 'links'] });
 *   for await (const event of engine.crawl('https://example.com', { limit: 50 })) ...
 *   const links = await engine.map('https://example.com', { search: 'pricing' });
 */
export interface EngineDeps {
  /** The HTTP fetcher (required). */
  fetcher: Fetcher;
  /** A browser fetcher, when one is available. */
  browser?: Fetcher;
  /**
   * What a browser-only option's error says to do when no browser is given; by default to pass
   * one. A composition names its own knob (a server its environment variable).
   */
  browserHint?: string;
  /** Browser pages kept for interact (with the browser); closed with the engine. */
  sessions?: BrowserSessions;
  /** Where HTML becomes formats; defaults to inline (same thread). */
  transformer?: HtmlTransformer;
  /**
   * Markdown rules per element that add to, replace or remove (`null`) ELEMENT_RULES, like
   * hast-util-to-mdast's `handlers`. Rules are functions, so pages then convert inline: not with a
   * `transformer` of another thread.
   */
  elementRules?: ElementRuleOverrides;
  clock?: Clock;
  ids?: Ids;
  /** Product token matched against robots.txt groups (default `QuarryBot`). */
  robotsUserAgent?: string;
  /** Where screenshots and action PDFs go (the server's BlobStore and its URLs); data URLs when absent. */
  blobs?: BlobLinks;
  /** The LLM provider, for changeTracking's json mode (the json and summary formats come as stages). */
  llm?: LlmProvider;
  /** The operator's proxy pools for `proxy: basic | enhanced | auto` (direct connections when absent). */
  proxies?: ProxyPoolConfig;
  /** Steps that add json, summary and changeTracking (from the LLM and index compositions). */
  stages?: DocumentStage[];
  /** Stored documents for maxAge (every successful scrape is kept unless storeInCache is false). */
  documentCache?: DocumentCache;
  /** The full-text index stored pages feed (embedded search, map's known links). */
  pageIndex?: PageIndex;
  /** Per-team histories for the changeTracking format. */
  changeHistory?: ChangeHistory;
  /**
   * Whether the cache, the index and change histories are shared across teams (the operator's
   * QUARRY_SHARED_INDEX); per team when absent or false.
   */
  sharing?: StoreSharing;
  /** What one page may hold before its conversion fails as too large (default `defaultPageLimits`). */
  pageLimits?: PageLimits;
}

/** What a library crawl yields: each page as it finishes, each page error, and the end. */
export type CrawlEvent =
  | { type: 'page'; document: ScrapeDocument; progress: JobProgress }
  | { type: 'error'; url: string; error: ErrorJson; progress: JobProgress }
  | { type: 'done'; status: 'completed' | 'failed' | 'cancelled'; progress: JobProgress; robotsBlocked: string[]; error?: string };

export interface CrawlRunOptions {
  signal?: AbortSignal;
  /** The team the crawl's pages are stored for (the cache and index scope; default `library`). */
  teamId?: string;
  /** Pages fetched at once (default 16, or the crawl's maxConcurrency). */
  concurrency?: number;
}

export interface Engine {
  /** Scrapes one URL. Options are the v2 API's, validated and defaulted from the one schema. */
  scrape(url: string, options?: ScrapeOptionsInput, context?: ScrapeContext): Promise<ScrapeDocument>;
  /** Scrapes with options already parsed by `parseScrapeOptions` (the server's path). */
  scrapeParsed(url: string, options: ScrapeOptions, context?: ScrapeContext): Promise<ScrapeDocument>;
  /** Scrapes and also returns every link of the raw page (what a crawl follows). */
  scrapeWithLinks(url: string, options: ScrapeOptions, context?: ScrapeContext): Promise<ScrapedPage>;
  /**
   * Converts a file (PDF, DOCX, XLSX, ODS, CSV, PPTX, HTML, Markdown, text) to the scrape document
   * of the asked-for formats, as a scrape of a URL serving it would.
   */
  parse(file: ParseFileInput, options?: ScrapeOptionsInput, context?: ScrapeContext): Promise<ScrapeDocument>;
  /** Parses with options already parsed by `parseScrapeOptions` (the server's path). */
  parseParsed(file: ParseFileInput, options: ScrapeOptions, context?: ScrapeContext): Promise<ScrapeDocument>;
  /** Crawls a site in memory, yielding pages as they finish. A failed page never fails the crawl. */
  crawl(url: string, options?: CrawlOptionsInput, run?: CrawlRunOptions): AsyncGenerator<CrawlEvent, void, undefined>;
  /** The URLs of a site: sitemap plus a breadth-first walk, ranked by `search` when given. */
  map(url: string, options?: MapOptionsInput, context?: { signal?: AbortSignal; teamId?: string }): Promise<MapLink[]>;
  /**
   * Throws TargetError('ssrf') when the fetcher would refuse `url`'s host (a private address the
   * operator did not allow), so jobs can be refused at submit; ValidationError for a bad URL.
   */
  checkTarget(url: string): Promise<void>;
  /** Closes the fetchers and the transformer. */
  close(): Promise<void>;
}

export function createEngine(deps: EngineDeps): Engine {
  const clock = deps.clock ?? systemClock;
  const ids = deps.ids ?? randomIds;
  if (deps.elementRules && deps.transformer) {
    throw new ValidationError('`elementRules` run on the converting thread: pass either `elementRules` or a `transformer`, not both', 'elementRules');
  }
  withElementRules(deps.elementRules); // refuses a malformed table now, not at the first page
  const baseTransformer = deps.transformer ?? (deps.elementRules ? inlineHtmlTransformerWith(deps.elementRules) : inlineHtmlTransformer);
  const transformer = deps.pageLimits ? withPageLimits(baseTransformer, deps.pageLimits) : baseTransformer;
  const robotsTokens = robotsTokensFor(deps.robotsUserAgent);
  const changeHistory = deps.changeHistory ? changeHistoryFor(deps.changeHistory, deps.sharing) : undefined;
  const scrapeDeps: ScrapeDeps = {
    fetcher: deps.fetcher,
    ...(deps.browser ? { browser: deps.browser } : {}),
    ...(deps.browserHint ? { browserHint: deps.browserHint } : {}),
    ...(deps.blobs ? { blobs: deps.blobs } : {}),
    transformer,
    clock,
    ids,
    proxies: new ProxyPools(deps.proxies),
    stages: [
      ...(deps.stages ?? []),
      ...(changeHistory ? [changeTrackingStage({ history: changeHistory, clock, ...(deps.llm ? { provider: deps.llm } : {}) })] : []),
    ],
    missingProviders: {
      json: 'an LLM provider (configure OPENAI_BASE_URL / OPENAI_API_KEY / MODEL_NAME, OLLAMA_BASE_URL or ANTHROPIC_API_KEY)',
      summary: 'an LLM provider (configure OPENAI_BASE_URL / OPENAI_API_KEY / MODEL_NAME, OLLAMA_BASE_URL or ANTHROPIC_API_KEY)',
      changeTracking: 'the document index',
    },
  };
  const fresh: ScrapeRun = (url, options, context, discoverLinks) => scrapePageWithLinks(scrapeDeps, url, parseTargetUrl(url), options, context, discoverLinks);
  const run = deps.documentCache
    ? withDocumentCache(fresh, {
        cache: deps.documentCache,
        ...(deps.pageIndex ? { index: deps.pageIndex } : {}),
        clock,
        ids,
        ...(deps.sharing ? { sharing: deps.sharing } : {}),
      })
    : fresh;
  const scrapeParsed = async (url: string, options: ScrapeOptions, context: ScrapeContext = {}) => (await run(url, options, context, false)).document;
  const scrapeWithLinks = async (url: string, options: ScrapeOptions, context: ScrapeContext = {}) => run(url, options, context, true);
  const pageIndex = deps.pageIndex;
  /** Map's parts for a team: the index answers only from the pages that team may see. */
  const mapDepsFor = (teamId: string | undefined) => {
    const scope = storeScope(teamId, deps.sharing);
    return {
      fetcher: deps.fetcher,
      transformer,
      clock,
      robotsTokens,
      ...(pageIndex
        ? {
            knownLinks: async (start: URL) => (await pageIndex.pagesOf(siteOf(start.href), 1_000, scope)).map(mapLinkOf),
            searchKnown: async (start: URL, query: string, limit: number) =>
              (await pageIndex.search({ query, limit, scope, site: siteOf(start.href) })).map((hit) =>
                mapLinkOf({ url: hit.url, title: hit.title, description: hit.snippet }),
              ),
          }
        : {}),
    };
  };

  async function checkTarget(url: string): Promise<void> {
    await deps.fetcher.checkTarget?.(parseTargetUrl(url));
  }

  async function* crawl(url: string, options: CrawlOptionsInput = {}, run: CrawlRunOptions = {}): AsyncGenerator<CrawlEvent, void, undefined> {
    const crawlOptions = parseCrawlOptions(url, options);
    const jobs = new MemoryJobStore({ keepDocuments: false });
    const queue = new MemoryQueue(clock, ids);
    const channel = new AsyncChannel<JobEvent>();
    const events = (event: JobEvent) => channel.push(event);
    const concurrency = run.concurrency ?? crawlOptions.maxConcurrency ?? defaultRunnerOptions.concurrency;
    const { service, runner } = createJobParts({
      jobs,
      queue,
      clock,
      ids,
      events,
      fetcher: deps.fetcher,
      scrape: scrapeWithLinks,
      robotsTokens,
      ...(changeHistory ? { changeHistory } : {}),
      runner: { ...defaultRunnerOptions, concurrency, perHostConcurrency: concurrency },
    });
    const job = await service.startCrawl({ teamId: run.teamId ?? libraryTeamId, url, options: crawlOptions, version: 'v2' });
    const onAbort = () => void service.cancel(job.id);
    run.signal?.addEventListener('abort', onAbort, { once: true });
    if (run.signal?.aborted) onAbort();
    runner.start();
    try {
      for await (const event of channel) {
        if (event.type === 'page') yield { type: 'page', document: event.document, progress: await jobs.progress(job.id) };
        else if (event.type === 'page-error') yield { type: 'error', url: event.url, error: event.error, progress: await jobs.progress(job.id) };
        else if (event.type === 'completed' || event.type === 'failed' || event.type === 'cancelled') {
          yield {
            type: 'done',
            status: event.type,
            progress: await jobs.progress(job.id),
            robotsBlocked: await jobs.listRobotsBlocked(job.id),
            ...(event.type === 'failed' ? { error: event.error } : {}),
          };
          break;
        }
      }
    } finally {
      run.signal?.removeEventListener('abort', onAbort);
      channel.close();
      if ((await jobs.getJob(job.id))?.status === 'scraping') await service.cancel(job.id);
      await runner.stop();
    }
  }

  return {
    scrape: async (url, options, context) => scrapeParsed(url, parseScrapeOptions('v2', options), context),
    parse: async (file, options, context) => parseFile(scrapeDeps, file, parseScrapeOptions('v2', options), context),
    parseParsed: (file, options, context) => parseFile(scrapeDeps, file, options, context),
    scrapeParsed,
    scrapeWithLinks,
    crawl,
    map: async (url, options, context) => {
      const parsed = parseMapOptions(url, options);
      await checkTarget(url); // a refused start URL is an error, not a map of one link
      return mapSite(mapDepsFor(context?.teamId), url, parsed, context?.signal ? { signal: context.signal } : {});
    },
    checkTarget,
    close: async () => {
      await deps.sessions?.close();
      await Promise.all([deps.fetcher.close?.(), deps.browser?.close?.(), deps.transformer?.close?.()]);
    },
  };
}

/** A stored page as a map link (empty title or description left out). */
function mapLinkOf(page: { url: string; title: string; description: string }): MapLink {
  return { url: page.url, ...(page.title ? { title: page.title } : {}), ...(page.description ? { description: page.description } : {}) };
}

import { proxyPoolsOf } from './compose-proxies.js';
import { defaultWorkerLimits, GotFetcher, WorkerPoolTransformer } from '@quarry/adapters';
import {
  createEngine,
  parseServerConfig,
  type BlobStore,
  type BrowserSessions,
  type Clock,
  type Engine,
  type EngineDeps,
  type Fetcher,
  type Ids,
  type LlmProvider,
  type PageLimits,
  type ServerConfig,
  type StoreSharing,
} from '@quarry/core';
import { blobStoreOf } from './compose-blobs.js';
import { buildBrowserParts } from './compose-browser.js';
import { buildLlmProvider, llmStages } from './compose-llm.js';
import { surfaceHints, type Surface } from './surface-hints.js';

/**
 * The composition root: the one place that reads the environment, builds adapters and storage,
 * and hands them to core.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<ServerConfig> = {}): ServerConfig {
  return { ...parseServerConfig(env), ...overrides };
}

export function allowedPrivateHosts(config: ServerConfig): string[] {
  return config.QUARRY_ALLOW_PRIVATE_HOSTS.split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** The engine of a process and the adapters composed into it that the rest of the process shares. */
export interface ProcessEngine {
  engine: Engine;
  /** The HTTP fetcher the engine scrapes with (page workers fetch robots.txt and sitemaps with it). */
  fetcher: Fetcher;
  /** The LLM provider, one per process, when one is configured. */
  llm?: LlmProvider;
  /** Browser pages kept for interact, when a browser is available. */
  sessions?: BrowserSessions;
}

export interface EngineOptions {
  /** Wraps each fetcher (the server's metrics measure them). */
  wrapFetcher?: (fetcher: Fetcher) => Fetcher;
  stores?: Pick<EngineDeps, 'documentCache' | 'pageIndex' | 'changeHistory'> & { blobStore?: BlobStore };
  /** Whose knobs the errors name: the CLI's flags or the server's variables. */
  surface?: Surface;
  clock?: Clock;
  ids?: Ids;
  /**
   * Start the transform worker now rather than with the first page (a CLI crawl, a server process
   * that works the queue): its load then overlaps robots.txt, the sitemap and the first fetch (or
   * the server's start) instead of delaying the first page's conversion, whose links the rest of
   * the crawl waits for.
   */
  startTransformWorker?: boolean;
}

/**
 * The engine of this process. `QUARRY_TRANSFORM_THREADS` says where HTML becomes markdown: 1 is on
 * the main thread; N is on N worker threads (started with the first pages, closed with the
 * engine); 0 is one thread per CPU core: the main thread, which fetches and runs the frontier, and
 * a worker for each other core (at least one, also on a single core). Workers bound each page by
 * `QUARRY_TRANSFORM_DEADLINE_MS` and `QUARRY_TRANSFORM_HEAP_MB`. Its errors name the knobs of
 * `surface` (the CLI's flags or the server's variables).
 */
export function engineOf(config: ServerConfig, options: EngineOptions = {}): ProcessEngine {
  const { wrapFetcher = (fetcher: Fetcher) => fetcher, stores = {}, surface = 'server' } = options;
  const { blobStore = blobStoreOf(config), ...engineStores } = stores;
  const hints = surfaceHints[surface];
  const fetcher = wrapFetcher(
    new GotFetcher({
      allowPrivateHosts: allowedPrivateHosts(config),
      maxBytes: config.QUARRY_MAX_BODY_BYTES,
      privateHostsHint: hints.privateHosts,
    }),
  );
  // Pages convert on worker threads, bounded in time and heap, so no page can stall the server;
  // only an explicit QUARRY_TRANSFORM_THREADS=1 converts on the main thread.
  const threads = config.QUARRY_TRANSFORM_THREADS;
  const transformer =
    threads === 1
      ? undefined
      : new WorkerPoolTransformer({
          ...(threads === 0 ? {} : { workers: threads }),
          deadlineMs: config.QUARRY_TRANSFORM_DEADLINE_MS,
          resourceLimits: { ...defaultWorkerLimits, maxOldGenerationSizeMb: config.QUARRY_TRANSFORM_HEAP_MB },
        });
  if (options.startTransformWorker) transformer?.start();
  const { browser, ...browserParts } = buildBrowserParts(config, allowedPrivateHosts(config), blobStore, hints.privateHosts);
  const llm = buildLlmProvider(config);
  const engine = createEngine({
    fetcher,
    browserHint: hints.browser,
    ...browserParts,
    ...(browser ? { browser: wrapFetcher(browser) } : {}),
    ...(transformer ? { transformer } : {}),
    ...engineStores,
    stages: llmStages(llm),
    ...(llm ? { llm } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.ids ? { ids: options.ids } : {}),
    proxies: proxyPoolsOf(config),
    sharing: sharingOf(config),
    pageLimits: pageLimitsOf(config),
  });
  return { engine, fetcher, ...(llm ? { llm } : {}), ...(browserParts.sessions ? { sessions: browserParts.sessions } : {}) };
}

/** The engine alone, for the CLI's one-shot commands (scrape, crawl, map, parse, index). */
export function buildEngine(
  config: ServerConfig,
  wrapFetcher?: (fetcher: Fetcher) => Fetcher,
  stores: EngineOptions['stores'] = {},
  surface: Surface = 'server',
): Engine {
  return engineOf(config, { ...(wrapFetcher ? { wrapFetcher } : {}), stores, surface }).engine;
}

/** Whether the cache, the index and change histories are shared across teams (QUARRY_SHARED_INDEX). */
export function sharingOf(config: ServerConfig): StoreSharing {
  return { sharedAcrossTeams: config.QUARRY_SHARED_INDEX };
}

/** The per-page limits of QUARRY_MAX_PAGE_ELEMENTS, QUARRY_MAX_TABLE_CELLS and QUARRY_MAX_MARKDOWN_CHARS. */
export function pageLimitsOf(config: ServerConfig): PageLimits {
  return { maxElements: config.QUARRY_MAX_PAGE_ELEMENTS, maxTableCells: config.QUARRY_MAX_TABLE_CELLS, maxMarkdownChars: config.QUARRY_MAX_MARKDOWN_CHARS };
}

import { proxyPoolsOf } from './compose-proxies.js';
import { defaultWorkerLimits, GotFetcher, WorkerPoolTransformer } from '@quarry/adapters';
import { createEngine, parseServerConfig, type BlobStore, type Engine, type EngineDeps, type Fetcher, type PageLimits, type ServerConfig } from '@quarry/core';
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

/**
 * The engine of this process. `QUARRY_TRANSFORM_THREADS` says where HTML becomes markdown: 1 is on
 * the main thread; N is on N worker threads (started with the first pages, closed with the
 * engine); 0 is one thread per CPU core: the main thread, which fetches and runs the frontier, and
 * a worker for each other core (at least one, also on a single core). Workers bound each page by
 * `QUARRY_TRANSFORM_DEADLINE_MS` and `QUARRY_TRANSFORM_HEAP_MB`. Its errors name the knobs of
 * `surface` (the CLI's flags or the server's variables).
 */
export function buildEngine(
  config: ServerConfig,
  wrapFetcher: (fetcher: Fetcher) => Fetcher = (fetcher) => fetcher,
  stores: Pick<EngineDeps, 'documentCache' | 'pageIndex' | 'changeHistory'> & { blobStore?: BlobStore } = {},
  surface: Surface = 'server',
): Engine {
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
  const { browser, ...browserParts } = buildBrowserParts(config, allowedPrivateHosts(config), blobStore, hints.privateHosts);
  const llm = buildLlmProvider(config);
  return createEngine({ fetcher, browserHint: hints.browser, ...browserParts, ...(browser ? { browser: wrapFetcher(browser) } : {}), ...(transformer ? { transformer } : {}), ...engineStores, stages: llmStages(llm), ...(llm ? { llm } : {}), proxies: proxyPoolsOf(config), sharing: { sharedAcrossTeams: config.QUARRY_SHARED_INDEX }, pageLimits: pageLimitsOf(config) });
}

/** The per-page limits of QUARRY_MAX_PAGE_ELEMENTS, QUARRY_MAX_TABLE_CELLS and QUARRY_MAX_MARKDOWN_CHARS. */
export function pageLimitsOf(config: ServerConfig): PageLimits {
  return { maxElements: config.QUARRY_MAX_PAGE_ELEMENTS, maxTableCells: config.QUARRY_MAX_TABLE_CELLS, maxMarkdownChars: config.QUARRY_MAX_MARKDOWN_CHARS };
}

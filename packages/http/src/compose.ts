import { availableParallelism } from 'node:os';
import { GotFetcher, WorkerPoolTransformer } from '@quarry/adapters';
import { createEngine, parseServerConfig, type Engine, type ServerConfig } from '@quarry/core';
import { buildBrowserParts } from './compose-browser.js';

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
 * The engine of this process. `QUARRY_TRANSFORM_THREADS` is how many threads turn HTML into
 * markdown: 1 is the main thread alone; N is the main thread and N - 1 worker threads (started on
 * the first pages, closed with the engine); 0 is one thread per CPU core.
 */
export function buildEngine(config: ServerConfig): Engine {
  const fetcher = new GotFetcher({
    allowPrivateHosts: allowedPrivateHosts(config),
    maxBytes: config.QUARRY_MAX_BODY_BYTES,
  });
  const threads = config.QUARRY_TRANSFORM_THREADS === 0 ? availableParallelism() : config.QUARRY_TRANSFORM_THREADS;
  return createEngine({ fetcher, ...buildBrowserParts(config, allowedPrivateHosts(config)), ...(threads > 1 ? { transformer: new WorkerPoolTransformer({ workers: threads - 1 }) } : {}) });
}

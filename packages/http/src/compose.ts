import { availableParallelism } from 'node:os';
import { GotFetcher, WorkerPoolTransformer } from '@quarry/adapters';
import { createEngine, parseServerConfig, type Engine, type ServerConfig } from '@quarry/core';

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
 * The engine of this process. `QUARRY_TRANSFORM_THREADS` picks where HTML becomes markdown: 0 is one
 * worker thread per CPU core, 1 is inline on the main thread, N is N worker threads (started on the
 * first page, closed with the engine).
 */
export function buildEngine(config: ServerConfig): Engine {
  const fetcher = new GotFetcher({
    allowPrivateHosts: allowedPrivateHosts(config),
    maxBytes: config.QUARRY_MAX_BODY_BYTES,
  });
  const threads = config.QUARRY_TRANSFORM_THREADS === 0 ? availableParallelism() : config.QUARRY_TRANSFORM_THREADS;
  return createEngine({ fetcher, ...(threads > 1 ? { transformer: new WorkerPoolTransformer({ threads }) } : {}) });
}

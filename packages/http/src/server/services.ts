import type { BlobStore, Engine, JobRunner, JobService, JobStore, Queue, SearchProvider, ServerConfig } from '@quarry/core';
import type { Billing, BrowserSessions, Clock, Ids, Ledger, LlmProvider, MonitorScheduler, MonitorStore } from '@quarry/core';
import type { ServerMetrics } from './metrics.js';
import type { RateLimiter } from './rate-limiter.js';

/** Everything a route needs, built once by compose/compose.ts. */
export interface Services {
  config: ServerConfig;
  engine: Engine;
  /** The process's clock and ids: the engine's and the jobs' own. */
  clock: Clock;
  ids: Ids;
  jobStore: JobStore;
  queue: Queue;
  jobs: JobService;
  runner: JobRunner;
  ledger: Ledger;
  /** Every charge and credit check (routes and actions never charge the ledger themselves). */
  billing: Billing;
  rateLimiter: RateLimiter;
  metrics: ServerMetrics;
  /** The LLM provider, when one is configured (deep research and prompt-only extract need it). */
  llm?: LlmProvider;
  /** Where screenshots and action PDFs are read back from: the store the engine writes them to. */
  blobs: BlobStore;
  /** What answers /search (the embedded index unless a provider is configured). */
  search: SearchProvider;
  /** Monitors and the scheduler of their checks (in the job queue). */
  monitors: MonitorStore;
  monitorScheduler: MonitorScheduler;
  /**
   * Browser pages kept for interact, when a browser is available: this process's own, or (the
   * distributed mode) every process's, with calls forwarded to the process holding the page.
   */
  sessions?: BrowserSessions;
  /** Whether a request without a valid key is allowed (no keys exist and auth is auto, or auth is off). */
  isKeylessAllowed(): Promise<boolean>;
}

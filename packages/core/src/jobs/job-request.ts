import type { MonitorCheckRequest } from '../monitor/monitor-check-request.js';
import type { AgentOptions } from '../options/agent-options.js';
import type { CrawlOptions } from '../options/crawl-options.js';
import type { DeepResearchOptions } from '../options/deep-research-options.js';
import type { ExtractOptions } from '../options/extract-options.js';
import type { LlmsTxtOptions } from '../options/llmstxt-options.js';
import type { ScrapeOptions } from '../options/scrape-options.js';

/**
 * What a job record keeps of its request, one shape per job kind: the internal options (already
 * validated and defaulted), so workers never re-parse, plus the API version and webhook for the
 * server. Stored as JSON; job-request-schemas.ts checks a stored one when it is read back.
 */
export interface CrawlJobRequest {
  version: 'v1' | 'v2';
  options: CrawlOptions;
  webhook?: unknown;
  /** v2 `prompt` and the options the model generated from it (merged under the explicit ones into `options`). */
  prompt?: { text: string; generated: Record<string, unknown> };
}

export interface BatchJobRequest {
  version: 'v1' | 'v2';
  options: ScrapeOptions;
  maxConcurrency?: number;
  webhook?: unknown;
}

/** A kept single scrape (`GET /scrape/{id}`) has no request: its document is its state. */
export type ScrapeJobRequest = Record<string, never>;

export interface ExtractJobRequest {
  version: 'v1' | 'v2';
  options: ExtractOptions;
  webhook?: unknown;
}

export interface DeepResearchJobRequest {
  version: 'v1';
  options: DeepResearchOptions;
}

export interface LlmsTxtJobRequest {
  version: 'v1';
  options: LlmsTxtOptions;
}

export interface AgentJobRequest {
  version: 'v2';
  options: AgentOptions;
}

/** The request a job of each kind keeps. */
export interface JobRequestOf {
  crawl: CrawlJobRequest;
  batch_scrape: BatchJobRequest;
  scrape: ScrapeJobRequest;
  extract: ExtractJobRequest;
  deep_research: DeepResearchJobRequest;
  llmstxt: LlmsTxtJobRequest;
  agent: AgentJobRequest;
  monitor_check: MonitorCheckRequest;
}

/** The message key of a crawl's kickoff (robots.txt, start page, sitemaps). */
export const kickoffKey = '~kickoff';

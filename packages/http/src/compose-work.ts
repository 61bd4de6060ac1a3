import {
  PageWorker,
  defaultRunnerOptions,
  type Engine,
  type JobEventSink,
  type JobOutbox,
  type JobRunnerOptions,
  type JobStore,
  type Ledger,
  type Queue,
  type ServerConfig,
} from '@quarry/core';
import { agentWorkerOf, type AgentParts } from './compose-agents.js';

/**
 * The page work of a process, the same for the embedded and the distributed composition: a
 * PageWorker scraping with this process's engine, and the runner options from the config.
 */
export function runnerOptionsOf(config: ServerConfig): JobRunnerOptions {
  return {
    ...defaultRunnerOptions,
    concurrency: config.QUARRY_WORKER_CONCURRENCY,
    perHostConcurrency: config.QUARRY_WORKER_CONCURRENCY,
    leaseMs: config.QUARRY_LEASE_MS,
    ...(config.QUARRY_TEAM_CONCURRENCY > 0 ? { teamConcurrency: config.QUARRY_TEAM_CONCURRENCY } : {}),
  };
}

export function pageWorkerOf(engine: Engine, parts: AgentParts): PageWorker {
  const { clock, ids, fetcher, robotsTokens, changeHistory } = engine.parts;
  return new PageWorker({
    jobs: parts.jobs,
    queue: parts.queue,
    events: parts.events,
    outbox: parts.outbox,
    agents: agentWorkerOf(engine, parts),
    fetcher,
    clock,
    ids,
    scrape: (url, options, context) => engine.scrapeWithLinks(url, options, context),
    robotsTokens,
    ...(changeHistory ? { changeHistory } : {}),
  });
}

/** Requests without a valid key are allowed when auth is off, or auto with no key in the ledger. */
export function keylessPolicy(config: ServerConfig, ledger: Ledger): () => Promise<boolean> {
  return async () => config.QUARRY_AUTH === 'off' || (config.QUARRY_AUTH === 'auto' && !(await ledger.hasAnyKey()));
}


/** A team's own webhook secret, else the operator's QUARRY_WEBHOOK_SECRET, else none (unsigned). */
export function webhookSecretOf(config: ServerConfig, ledger: Ledger): (teamId: string) => Promise<string | undefined> {
  return async (teamId) => (await ledger.getWebhookSecret(teamId)) ?? config.QUARRY_WEBHOOK_SECRET;
}

import { readFileSync } from 'node:fs';
import { WebhookDeliverer } from '@quarry/adapters';
import {
  changeHistoryFor,
  createJobParts,
  defaultRunnerOptions,
  localTeamId,
  randomIds,
  reconcileJobs,
  robotsTokensFor,
  systemClock,
  webhookOutbox,
  Billing,
  type BrowserSessions,
  type Engine,
  type JobEvent,
  type JobRunner,
  type JobRunnerOptions,
  type Ledger,
  type ServerConfig,
} from '@quarry/core';
import { allowedPrivateHosts, engineOf, sharingOf } from '../compose.js';
import { agentWorkerOf, monitorSchedulerOf } from '../compose-agents.js';
import { searchProviderOf } from '../compose-search.js';
import { ServerMetrics } from '../server/metrics.js';
import type { Services } from '../server/services.js';
import { surfaceHints } from '../surface-hints.js';
import type { Backends } from './backends.js';
import { Reconciler } from './reconciler.js';

/**
 * The one composition of a Quarry process, over the backends it runs on (backends.ts): builds the
 * adapters once (fetchers, browser, LLM, search, blob links) into the engine, the jobs over
 * `createJobParts` (the JobService, PageWorker and JobRunner a library crawl also uses), the agent
 * programs, the webhook deliverer, the recovery of the queue, and the services the routes read.
 * The clock, ids, LLM provider and browser sessions are built here and handed to both the engine
 * and the services.
 *
 * `role` (the distributed QUARRY_ROLE): `api` works no pages and delivers no webhooks, `worker`
 * serves no HTTP (the caller does not start a server), `all` does both.
 */
export type Role = ServerConfig['QUARRY_ROLE'];

export interface Composed {
  engine: Engine;
  runner: JobRunner;
  services: Services;
  /** Runs the periodic reconciler now, unless another process had its turn within the interval (no-op embedded). */
  reconcile(): Promise<void>;
  /** Stops the work, closes the engine, then the backends. */
  close(): Promise<void>;
}

export async function compose(config: ServerConfig, backends: Backends, role: Role = 'all'): Promise<Composed> {
  const clock = systemClock;
  const ids = randomIds;
  const { api, work } = backends;
  const metrics = new ServerMetrics().observe(api.jobs, api.queue);
  let engine: Engine | undefined;
  let closeShared = async () => {};
  try {
    const built = engineOf(config, {
      wrapFetcher: (fetcher) => metrics.measure(fetcher),
      stores: { blobStore: work.blobs, documentCache: work.documents, pageIndex: work.pageIndex, changeHistory: work.changeHistory },
      clock,
      ids,
      // A process that works the queue converts pages: its transform worker loads now, while the
      // server starts, not inside its first crawl (where the first page's links waited for it).
      startTransformWorker: role !== 'api',
    });
    engine = built.engine;
    const { fetcher, llm } = built;
    await api.ledger.ensureTeam(localTeamId, 'local');

    // Webhook deliveries are written by the job store in the same transaction as each change.
    const outbox = webhookOutbox(clock, ids);
    const events = (event: JobEvent) => metrics.recordEvent(event);
    const search = searchProviderOf(config, api.pageIndex, clock);
    const scrapingEngine = engine;
    const agents = agentWorkerOf(scrapingEngine, {
      jobs: work.jobs,
      queue: work.queue,
      clock,
      ids,
      events,
      outbox,
      leaseMs: config.QUARRY_LEASE_MS,
      search,
      monitors: work.monitors,
      ...(llm ? { llm } : {}),
    });
    const { service: jobs, runner } = createJobParts({
      jobs: work.jobs,
      queue: work.queue,
      submit: { jobs: api.jobs, queue: api.queue },
      clock,
      ids,
      events,
      outbox,
      ...(backends.slots ? { slots: backends.slots } : {}),
      fetcher,
      scrape: (url, options, context) => scrapingEngine.scrapeWithLinks(url, options, context),
      robotsTokens: robotsTokensFor(),
      changeHistory: changeHistoryFor(work.changeHistory, sharingOf(config)),
      agents,
      runner: { ...runnerOptionsOf(config), ...(backends.leaseAhead ? { leaseAhead: backends.leaseAhead } : {}) },
      works: role !== 'api',
    });
    const monitorScheduler = monitorSchedulerOf({ clock, ids }, api.jobs, api.queue, api.monitors);
    const shared = backends.shareSessions ? await backends.shareSessions(built.sessions) : undefined;
    closeShared = shared ? () => shared.close() : closeShared;
    const sessions: BrowserSessions | undefined = shared ?? built.sessions;

    const services: Services = {
      config,
      engine,
      clock,
      ids,
      ...(sessions ? { sessions } : {}),
      jobStore: api.jobs,
      queue: api.queue,
      jobs,
      runner,
      ledger: api.ledger,
      billing: new Billing(api.ledger),
      rateLimiter: backends.rateLimiter,
      metrics,
      blobs: api.blobs,
      search,
      monitors: api.monitors,
      monitorScheduler,
      ...(llm ? { llm } : {}),
      isKeylessAllowed: keylessPolicy(config, api.ledger),
    };

    let reconcile = async () => {};
    let timer: NodeJS.Timeout | undefined;
    const recovery = backends.recovery;
    if (recovery.kind === 'startup') {
      // One process: leases left by a previous run (killed mid-crawl) are returned now, and the
      // queue is made to agree with the job store before work starts.
      await recovery.releaseAllLeases();
      await reconcileJobs(work.jobs, work.queue);
      await monitorScheduler.reconcile();
      for (const kind of ['crawl', 'batch_scrape'] as const) for (const job of await work.jobs.listActive(kind)) await runner.settle(job.id);
    } else {
      const reconciler = new Reconciler(work.jobs, recovery.queue, runner, monitorSchedulerOf({ clock, ids }, work.jobs, recovery.queue, work.monitors));
      reconcile = () => recovery.queue.runExclusively('reconcile', config.QUARRY_RECONCILE_INTERVAL_MS, () => reconciler.run()).then(() => undefined);
      timer = setInterval(() => void reconcile().catch(() => undefined), config.QUARRY_RECONCILE_INTERVAL_MS);
      timer.unref();
    }

    const deliverer =
      role === 'api'
        ? undefined
        : new WebhookDeliverer({
            privateHostsHint: surfaceHints.server.privateHosts,
            outbox: work.outbox,
            clock,
            allowPrivateHosts: allowedPrivateHosts(config),
            allowHttp: config.QUARRY_WEBHOOK_ALLOW_HTTP,
            secret: webhookSecretOf(config, work.ledger),
            ...(config.QUARRY_WEBHOOK_CA_FILE ? { ca: readFileSync(config.QUARRY_WEBHOOK_CA_FILE, 'utf8') } : {}),
          });
    deliverer?.start();

    return {
      engine,
      runner,
      services,
      reconcile,
      close: async () => {
        clearInterval(timer);
        await runner.stop();
        await deliverer?.stop();
        await closeShared();
        await scrapingEngine.close();
        await backends.close();
      },
    };
  } catch (error) {
    await closeShared().catch(() => undefined);
    await engine?.close();
    await backends.close();
    throw error;
  }
}

/** The runner options of QUARRY_WORKER_CONCURRENCY, QUARRY_LEASE_MS and QUARRY_TEAM_CONCURRENCY. */
export function runnerOptionsOf(config: ServerConfig): JobRunnerOptions {
  return {
    ...defaultRunnerOptions,
    concurrency: config.QUARRY_WORKER_CONCURRENCY,
    perHostConcurrency: config.QUARRY_WORKER_CONCURRENCY,
    leaseMs: config.QUARRY_LEASE_MS,
    ...(config.QUARRY_TEAM_CONCURRENCY > 0 ? { teamConcurrency: config.QUARRY_TEAM_CONCURRENCY } : {}),
  };
}

/** Requests without a valid key are allowed when auth is off, or auto with no key in the ledger. */
export function keylessPolicy(config: ServerConfig, ledger: Ledger): () => Promise<boolean> {
  return async () => config.QUARRY_AUTH === 'off' || (config.QUARRY_AUTH === 'auto' && !(await ledger.hasAnyKey()));
}

/** A team's own webhook secret, else the operator's QUARRY_WEBHOOK_SECRET, else none (unsigned). */
export function webhookSecretOf(config: ServerConfig, ledger: Ledger): (teamId: string) => Promise<string | undefined> {
  return async (teamId) => (await ledger.getWebhookSecret(teamId)) ?? config.QUARRY_WEBHOOK_SECRET;
}

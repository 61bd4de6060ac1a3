import { readFileSync } from 'node:fs';
import { WebhookDeliverer } from '@quarry/adapters';
import { createSqliteStorage } from '@quarry/storage';
import {
  Billing,
  JobRunner,
  JobService,
  localTeamId,
  reconcileJobs,
  webhookOutbox,
  type JobEvent,
  type ServerConfig,
} from '@quarry/core';
import { allowedPrivateHosts, buildEngine } from './compose.js';
import { blobStoreOf } from './compose-blobs.js';
import { surfaceHints } from './surface-hints.js';
import { searchProviderOf } from './compose-search.js';
import { keylessPolicy, pageWorkerOf, runnerOptionsOf, webhookSecretOf } from './compose-work.js';
import { monitorSchedulerOf } from './compose-agents.js';
import { ServerMetrics } from './server/metrics.js';
import { MemoryRateLimiter, parseRateLimits } from './server/rate-limiter.js';
import type { Services } from './server/services.js';

/**
 * The server's composition: embedded storage (SQLite file, its queue, blobs) under
 * QUARRY_DATA_DIR, the engine, the job service and the worker loop, wired together.
 */
export interface ServerParts {
  services: Services;
  close(): Promise<void>;
}

export async function composeServer(config: ServerConfig): Promise<ServerParts> {
  const storage = createSqliteStorage({ dataDir: config.QUARRY_DATA_DIR });
  const metrics = new ServerMetrics().observe(storage.jobs, storage.queue);
  const blobs = blobStoreOf(config);
  const engine = buildEngine(config, (fetcher) => metrics.measure(fetcher), {
    blobStore: blobs,
    documentCache: storage.documents,
    pageIndex: storage.pageIndex,
    changeHistory: storage.changeHistory,
  });
  const { clock, ids } = engine.parts;
  await storage.ledger.ensureTeam(localTeamId, 'local');

  // Webhook deliveries are written by the job store in the same transaction as each change.
  const outbox = webhookOutbox(clock, ids);
  const events = (event: JobEvent) => metrics.recordEvent(event);
  const search = searchProviderOf(config, storage.pageIndex, clock);
  const { llm } = engine.parts; // the engine's provider: one per process
  const worker = pageWorkerOf(engine, { jobs: storage.jobs, queue: storage.queue, events, outbox, leaseMs: config.QUARRY_LEASE_MS, search, monitors: storage.monitors, ...(llm ? { llm } : {}) });
  const runner = new JobRunner({ jobs: storage.jobs, queue: storage.queue, worker, clock, events, outbox }, runnerOptionsOf(config));
  const jobs = new JobService({ jobs: storage.jobs, queue: storage.queue, clock, ids, events, outbox, onCancel: (jobId) => runner.abortJob(jobId) });
  const monitorScheduler = monitorSchedulerOf(engine, storage.jobs, storage.queue, storage.monitors);
  const rateLimiter = new MemoryRateLimiter(clock, parseRateLimits(config.QUARRY_RATE_LIMITS));

  const services: Services = {
    config,
    engine,
    jobStore: storage.jobs,
    queue: storage.queue,
    jobs,
    runner,
    ledger: storage.ledger,
    billing: new Billing(storage.ledger),
    rateLimiter,
    metrics,
    blobs,
    search,
    monitors: storage.monitors,
    monitorScheduler,
    ...(llm ? { llm } : {}),
    isKeylessAllowed: keylessPolicy(config, storage.ledger),
  };
  // The embedded default is one process: leases left by a previous run (killed mid-crawl) are
  // returned now, and the queue is made to agree with the job store before work starts.
  await storage.queue.releaseAllLeases();
  await reconcileJobs(storage.jobs, storage.queue);
  await monitorScheduler.reconcile();
  for (const kind of ['crawl', 'batch_scrape'] as const) for (const job of await storage.jobs.listActive(kind)) await runner.settle(job.id);

  const deliverer = new WebhookDeliverer({
    privateHostsHint: surfaceHints.server.privateHosts,
    outbox: storage.outbox,
    clock,
    allowPrivateHosts: allowedPrivateHosts(config),
    allowHttp: config.QUARRY_WEBHOOK_ALLOW_HTTP,
    secret: webhookSecretOf(config, storage.ledger),
    ...(config.QUARRY_WEBHOOK_CA_FILE ? { ca: readFileSync(config.QUARRY_WEBHOOK_CA_FILE, 'utf8') } : {}),
  });
  deliverer.start();

  return {
    services,
    close: async () => {
      await runner.stop();
      await deliverer.stop();
      await engine.close();
      storage.close();
    },
  };
}

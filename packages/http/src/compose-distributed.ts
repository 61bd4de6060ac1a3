import { readFileSync } from 'node:fs';
import { BrowserSessionRegistry, WebhookDeliverer } from '@quarry/adapters';
import { BullmqQueue, createPostgresStorage, PostgresBlobStore, createRedis, defaultBullmqQueueOptions, RedisRateLimiter, RedisSlotLimiter, type PostgresStorage } from '@quarry/storage/distributed';
import {
  Billing,
  JobRunner,
  JobService,
  ValidationError,
  agentJobKinds,
  agentStepMessage,
  kickoffKey,
  localTeamId,
  messageFor,
  reconcileJobs,
  webhookOutbox,
  randomIds,
  systemClock,
  type Engine,
  type JobEvent,
  type JobStore,
  type MonitorScheduler,
  type ServerConfig,
} from '@quarry/core';
import { allowedPrivateHosts, buildEngine } from './compose.js';
import { isDistributed } from './distributed-mode.js';
import { blobStoreOf } from './compose-blobs.js';
import { surfaceHints } from './surface-hints.js';
import { searchProviderOf } from './compose-search.js';
import { keylessPolicy, pageWorkerOf, runnerOptionsOf, webhookSecretOf } from './compose-work.js';
import { monitorSchedulerOf } from './compose-agents.js';
import type { ServerParts } from './compose-server.js';
import { ServerMetrics } from './server/metrics.js';
import { SharedBrowserSessions } from './shared-sessions.js';
import { parseRateLimits } from './server/rate-limiter.js';
import type { Services } from './server/services.js';

/**
 * The distributed composition: PostgreSQL for state, BullMQ on Redis for work, and the same
 * services as the embedded server above the ports. A process plays a role:
 *
 *   api     HTTP API only: starts jobs, answers status; never scrapes
 *   worker  page workers and webhook deliveries; no HTTP
 *   all     both (one process that can be scaled out)
 *
 * Every role runs the reconciler: at most one process per interval (a Redis turn) makes Redis
 * agree with PostgreSQL, the source of truth: after Redis lost its data every unfinished item is
 * enqueued again; a job whose pending items lack messages for two checks in a row gets them again;
 * a job with nothing pending is completed (its last worker died before settling it).
 */
export type QuarryRole = ServerConfig['QUARRY_ROLE'];

export interface DistributedParts extends ServerParts {
  role: QuarryRole;
  queue: BullmqQueue;
  /** Runs the reconciler now, unless another process had its turn within the interval. */
  reconcile(): Promise<void>;
}

/** How long a worker's statements wait out a database outage before failing (the API fails at once: 503). */
const workerOutageRetryMs = 60_000;
/** How long an API process's Redis commands may wait (an outage answers 503 after this, not a hang). */
const apiRedisTimeoutMs = 2_000;


export async function composeDistributed(config: ServerConfig, role: QuarryRole = config.QUARRY_ROLE): Promise<DistributedParts> {
  if (!isDistributed(config)) throw new ValidationError('DATABASE_URL and REDIS_URL must be set for the distributed mode', 'DATABASE_URL');
  const metrics = new ServerMetrics();
  // The engine is built once its stores are open (the cache and the index live in PostgreSQL); its
  // clock and ids are the system ones, as buildEngine's.
  const clock = systemClock;
  const ids = randomIds;
  let built: Engine | undefined;
  const opened: PostgresStorage[] = [];
  const openStorage = async (retryUnavailableMs: number, name: string) => {
    const storage = await createPostgresStorage({
      connectionString: config.DATABASE_URL!,
      schema: config.QUARRY_PG_SCHEMA,
      maxConnections: config.QUARRY_PG_POOL_SIZE,
      retryUnavailableMs,
      applicationName: `quarry-${name}`,
      clock,
    });
    opened.push(storage);
    return storage;
  };
  // The API fails fast (503) while Redis or PostgreSQL is down; workers wait a short outage out.
  const redisClients: Array<ReturnType<typeof createRedis>> = [];
  const openQueue = (commandTimeoutMs: number | undefined, name: string) => {
    const redis = createRedis(config.REDIS_URL!, { name: `quarry-${name}`, ...(commandTimeoutMs !== undefined ? { commandTimeoutMs } : {}) });
    redisClients.push(redis);
    return { redis, queue: new BullmqQueue(redis, clock, { ...defaultBullmqQueueOptions, prefix: config.QUARRY_REDIS_PREFIX }) };
  };
  const closeRedis = () => Promise.all(redisClients.map((redis) => redis.quit().catch(() => redis.disconnect())));
  try {
    const apiSide = role === 'worker' ? { retryMs: workerOutageRetryMs, commandTimeoutMs: undefined, name: 'worker' } : { retryMs: 0, commandTimeoutMs: apiRedisTimeoutMs, name: 'api' };
    const api = await openStorage(apiSide.retryMs, apiSide.name);
    const work = role === 'all' ? await openStorage(workerOutageRetryMs, 'worker') : api;
    const apiQueue = openQueue(apiSide.commandTimeoutMs, apiSide.name);
    const workQueue = role === 'all' ? openQueue(undefined, 'worker') : apiQueue;
    const queue = workQueue.queue;
    await api.ledger.ensureTeam(localTeamId, 'local');
    // Blobs live where every process reads them (a PostgreSQL table or an S3 bucket), never on one
    // machine's disk: the worker that takes a screenshot is rarely the process that serves its link.
    const engine = buildEngine(config, (fetcher) => metrics.measure(fetcher), {
      blobStore: blobStoreOf(config, () => new PostgresBlobStore(work.db)),
      documentCache: work.documents,
      pageIndex: work.pageIndex,
      changeHistory: work.changeHistory,
    });
    built = engine;
    const search = searchProviderOf(config, api.pageIndex, clock);

    metrics.observe(api.jobs, apiQueue.queue);
    const outbox = webhookOutbox(clock, ids);
    const events = (event: JobEvent) => metrics.recordEvent(event);
    const { llm } = engine.parts; // the engine's provider: one per process
    const worker = pageWorkerOf(engine, { jobs: work.jobs, queue, events, outbox, leaseMs: config.QUARRY_LEASE_MS, search, monitors: work.monitors, ...(llm ? { llm } : {}) });
    const runnerOptions = runnerOptionsOf(config);
    const slots = new RedisSlotLimiter(workQueue.redis, config.QUARRY_REDIS_PREFIX, clock);
    const runnerDeps = { jobs: work.jobs, queue, worker, clock, events, outbox, slots };
    const runner = role === 'api' ? new ApiRoleRunner(runnerDeps, runnerOptions) : new JobRunner(runnerDeps, runnerOptions);
    const jobs = new JobService({ jobs: api.jobs, queue: apiQueue.queue, clock, ids, events, outbox, onCancel: (jobId) => runner.abortJob(jobId) });
    const monitorScheduler = monitorSchedulerOf(engine, api.jobs, apiQueue.queue, api.monitors);
    // Interact pages are held by one process each; every process forwards calls to the holder (shared-sessions.ts).
    const local = engine.parts.sessions instanceof BrowserSessionRegistry ? engine.parts.sessions : undefined;
    const sessions = new SharedBrowserSessions({ redisUrl: config.REDIS_URL!, prefix: config.QUARRY_REDIS_PREFIX, ...(local ? { local } : {}), opensNew: role !== 'api', ttlMs: config.QUARRY_INTERACT_TTL_SECONDS * 1000, maxPerTeam: config.QUARRY_INTERACT_MAX_SESSIONS, ...(apiSide.commandTimeoutMs !== undefined ? { commandTimeoutMs: apiSide.commandTimeoutMs } : {}), name: `quarry-${apiSide.name}` });
    await sessions.start();
    const rateLimiter = new RedisRateLimiter(apiQueue.redis, parseRateLimits(config.QUARRY_RATE_LIMITS), config.QUARRY_REDIS_PREFIX, clock);

    const services: Services = {
      config,
      engine,
      jobStore: api.jobs,
      queue: apiQueue.queue,
      jobs,
      runner,
      ledger: api.ledger,
      billing: new Billing(api.ledger),
      rateLimiter,
      metrics,
      blobs: blobStoreOf(config, () => new PostgresBlobStore(api.db)),
      search,
      monitors: api.monitors,
      monitorScheduler,
      sessions,
      ...(llm ? { llm } : {}),
      isKeylessAllowed: keylessPolicy(config, api.ledger),
    };

    const reconciler = new Reconciler(work.jobs, queue, runner, monitorSchedulerOf(engine, work.jobs, queue, work.monitors));
    const reconcile = () => queue.runExclusively('reconcile', config.QUARRY_RECONCILE_INTERVAL_MS, () => reconciler.run()).then(() => undefined);
    const timer = setInterval(() => void reconcile().catch(() => undefined), config.QUARRY_RECONCILE_INTERVAL_MS);
    timer.unref();

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
      role,
      services,
      queue,
      reconcile,
      close: async () => {
        clearInterval(timer);
        await runner.stop();
        await deliverer?.stop();
        await sessions.close();
        await engine.close();
        await apiQueue.queue.close();
        if (workQueue !== apiQueue) await workQueue.queue.close();
        await closeRedis();
        for (const storage of opened) await storage.close();
      },
    };
  } catch (error) {
    await closeRedis();
    for (const storage of opened) await storage.close();
    await built?.close();
    throw error;
  }
}

/**
 * The runner of an API-only process: `startServer` starts `services.runner`, and an API process
 * scrapes nothing, so starting it does nothing. It still settles jobs for the reconciler.
 */
class ApiRoleRunner extends JobRunner {
  override start(): void {}
}

/** One pass of making Redis agree with PostgreSQL (see the module comment). */
class Reconciler {
  /** Jobs whose pending items outnumbered their messages at the last pass. */
  private short = new Set<string>();

  constructor(
    private readonly jobs: JobStore,
    private readonly queue: BullmqQueue,
    private readonly runner: JobRunner,
    private readonly monitors: MonitorScheduler,
  ) {}

  async run(): Promise<void> {
    if (!(await this.queue.isIntact())) {
      this.short.clear();
      await reconcileJobs(this.jobs, this.queue);
    }
    const short = new Set<string>();
    for (const kind of ['crawl', 'batch_scrape'] as const) {
      for (const job of await this.jobs.listActive(kind)) {
        const [progress, messages] = await Promise.all([this.jobs.progress(job.id), this.queue.countJobMessages(job.id)]);
        if (kind === 'crawl' && !job.kickoffDone) {
          if (messages === 0) await this.queue.enqueue([{ id: `${job.id}:${kickoffKey}`, jobId: job.id, key: kickoffKey, url: job.url, discoveryDepth: 0, priority: 0 }]);
        } else if (progress.pending === 0) {
          await this.runner.settle(job.id);
        } else if (messages < progress.pending) {
          // Items are enqueued just after they are stored: only a shortfall seen twice is a loss.
          if (this.short.has(job.id)) await this.requeue(job.id);
          else short.add(job.id);
        }
      }
    }
    // An agent job runs one step message at a time: none for two checks in a row means it was lost.
    for (const kind of agentJobKinds) {
      for (const job of await this.jobs.listActive(kind)) {
        if ((await this.queue.countJobMessages(job.id)) > 0) continue;
        if (!this.short.has(job.id)) {
          short.add(job.id);
          continue;
        }
        const saved = await this.jobs.getJobState(job.id);
        await this.queue.enqueue([agentStepMessage(job, (saved?.step ?? 0) + 1)]);
      }
    }
    this.short = short;
    // Active monitors whose chain of ticks broke (a process died between two links) get their next tick.
    await this.monitors.reconcile();
  }

  private async requeue(jobId: string) {
    const pending = await this.jobs.pendingItems(jobId);
    for (let index = 0; index < pending.length; index += 500) {
      await this.queue.enqueue(pending.slice(index, index + 500).map((entry) => messageFor(jobId, entry)));
    }
  }
}

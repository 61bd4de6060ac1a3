import {
  BullmqQueue,
  createPostgresStorage,
  PostgresBlobStore,
  createRedis,
  defaultBullmqQueueOptions,
  RedisRateLimiter,
  RedisSlotLimiter,
  type PostgresStorage,
} from '@quarry/storage/distributed';
import { ValidationError, systemClock, type BrowserSessions, type Clock, type ServerConfig } from '@quarry/core';
import { SharedBrowserSessions, type LocalSessions } from '../shared-sessions.js';
import { blobStoreOf } from '../compose-blobs.js';
import { isDistributed } from '../distributed-mode.js';
import { parseRateLimits } from '../server/rate-limiter.js';
import type { Backends, Stores } from './backends.js';

/**
 * The distributed backends: PostgreSQL for state, BullMQ on Redis for work. A process plays a role:
 *
 *   api     HTTP API only: starts jobs, answers status; never scrapes
 *   worker  page workers and webhook deliveries; no HTTP
 *   all     both (one process that can be scaled out)
 *
 * The API side fails fast (503) while Redis or PostgreSQL is down; the worker side waits a short
 * outage out. Role `all` opens both sides on connections of their own. Blobs live where every
 * process reads them (a PostgreSQL table or an S3 bucket), never on one machine's disk: the worker
 * that takes a screenshot is rarely the process that serves its link.
 *
 * This module loads pg, ioredis and bullmq: import it only when DATABASE_URL and REDIS_URL are set.
 */
export type QuarryRole = ServerConfig['QUARRY_ROLE'];

/** How long a worker's statements wait out a database outage before failing (the API fails at once: 503). */
const workerOutageRetryMs = 60_000;
/** How long an API process's Redis commands may wait (an outage answers 503 after this, not a hang). */
const apiRedisTimeoutMs = 2_000;

export async function distributedBackends(config: ServerConfig, role: QuarryRole = config.QUARRY_ROLE, clock: Clock = systemClock): Promise<Backends> {
  if (!isDistributed(config)) throw new ValidationError('DATABASE_URL and REDIS_URL must be set for the distributed mode', 'DATABASE_URL');
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
  const redisClients: Array<ReturnType<typeof createRedis>> = [];
  const queues: BullmqQueue[] = [];
  const openQueue = (commandTimeoutMs: number | undefined, name: string) => {
    const redis = createRedis(config.REDIS_URL!, { name: `quarry-${name}`, ...(commandTimeoutMs !== undefined ? { commandTimeoutMs } : {}) });
    redisClients.push(redis);
    const queue = new BullmqQueue(redis, clock, { ...defaultBullmqQueueOptions, prefix: config.QUARRY_REDIS_PREFIX });
    queues.push(queue);
    return { redis, queue };
  };
  const closeRedis = () => Promise.all(redisClients.map((redis) => redis.quit().catch(() => redis.disconnect())));
  const closeStorage = async () => {
    for (const storage of opened) await storage.close();
  };
  try {
    const apiSide =
      role === 'worker'
        ? { retryMs: workerOutageRetryMs, commandTimeoutMs: undefined, name: 'worker' }
        : { retryMs: 0, commandTimeoutMs: apiRedisTimeoutMs, name: 'api' };
    const api = await openStorage(apiSide.retryMs, apiSide.name);
    const work = role === 'all' ? await openStorage(workerOutageRetryMs, 'worker') : api;
    const apiQueue = openQueue(apiSide.commandTimeoutMs, apiSide.name);
    const workQueue = role === 'all' ? openQueue(undefined, 'worker') : apiQueue;
    const storesOf = (storage: PostgresStorage, queue: BullmqQueue): Stores => ({
      ...storage,
      queue,
      blobs: blobStoreOf(config, () => new PostgresBlobStore(storage.db)),
    });
    const apiStores = storesOf(api, apiQueue.queue);
    return {
      api: apiStores,
      work: work === api && workQueue === apiQueue ? apiStores : storesOf(work, workQueue.queue),
      rateLimiter: new RedisRateLimiter(apiQueue.redis, parseRateLimits(config.QUARRY_RATE_LIMITS), config.QUARRY_REDIS_PREFIX, clock),
      slots: new RedisSlotLimiter(workQueue.redis, config.QUARRY_REDIS_PREFIX, clock),
      recovery: { kind: 'periodic', queue: workQueue.queue },
      // Interact pages are held by one process each; every process forwards calls to the holder.
      shareSessions: async (local: BrowserSessions | undefined) => {
        const sessions = new SharedBrowserSessions({
          redisUrl: config.REDIS_URL!,
          prefix: config.QUARRY_REDIS_PREFIX,
          ...(isLocalSessions(local) ? { local } : {}),
          opensNew: role !== 'api',
          ttlMs: config.QUARRY_INTERACT_TTL_SECONDS * 1000,
          maxPerTeam: config.QUARRY_INTERACT_MAX_SESSIONS,
          ...(apiSide.commandTimeoutMs !== undefined ? { commandTimeoutMs: apiSide.commandTimeoutMs } : {}),
          name: `quarry-${apiSide.name}`,
        });
        await sessions.start();
        return sessions;
      },
      close: async () => {
        for (const queue of queues) await queue.close();
        await closeRedis();
        await closeStorage();
      },
    };
  } catch (error) {
    await closeRedis();
    await closeStorage();
    throw error;
  }
}

/** This process's own pages, when they can tell which sessions they hold (BrowserSessionRegistry). */
function isLocalSessions(sessions: BrowserSessions | undefined): sessions is LocalSessions {
  return (
    sessions !== undefined &&
    typeof (sessions as Partial<LocalSessions>).holds === 'function' &&
    typeof (sessions as Partial<LocalSessions>).whenAdopted === 'function'
  );
}

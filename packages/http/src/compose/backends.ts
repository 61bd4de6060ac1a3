import { createSqliteStorage } from '@quarry/storage';
import {
  systemClock,
  type BlobStore,
  type BrowserSessions,
  type ChangeHistory,
  type Clock,
  type DocumentCache,
  type JobStore,
  type Ledger,
  type MonitorStore,
  type PageIndex,
  type Queue,
  type ServerConfig,
  type SlotLimiter,
  type WebhookOutbox,
} from '@quarry/core';
import { blobStoreOf } from '../compose-blobs.js';
import { MemoryRateLimiter, parseRateLimits, type RateLimiter } from '../server/rate-limiter.js';

/**
 * The storage a process runs on, chosen before anything is composed over it: `embeddedBackends`
 * (one SQLite file and a local blob folder: `quarry serve`) or `distributedBackends` (PostgreSQL,
 * BullMQ on Redis: compose/distributed-backends.ts, loaded only when DATABASE_URL and REDIS_URL are
 * set, so a CLI run never loads pg, ioredis or bullmq). `compose` (compose.ts) builds the same
 * engine, jobs and services over either.
 */
export interface Stores {
  jobs: JobStore;
  queue: Queue;
  ledger: Ledger;
  documents: DocumentCache;
  pageIndex: PageIndex;
  changeHistory: ChangeHistory;
  monitors: MonitorStore;
  outbox: WebhookOutbox;
  blobs: BlobStore;
}

/** A queue that many processes share, which a periodic reconciler keeps agreeing with the job store. */
export interface SharedQueue extends Queue {
  /** False after Redis lost its data (the job store is the source of truth then). */
  isIntact(): Promise<boolean>;
  countJobMessages(jobId: string): Promise<number>;
  /** Runs `work` unless another process ran it within `periodMs`; true when this one did. */
  runExclusively(name: string, periodMs: number, work: () => Promise<void>): Promise<boolean>;
}

export interface Backends {
  /**
   * What requests read and start jobs on. `work` is what page workers use: the same stores in the
   * embedded mode; in the distributed `all` role, other connections, so an API request never waits
   * behind a worker's statements (and the API side fails fast while a worker waits out an outage).
   */
  api: Stores;
  work: Stores;
  rateLimiter: RateLimiter;
  /** Limits that every worker process respects together (the runner's own in-memory ones when absent). */
  slots?: SlotLimiter;
  /**
   * How the queue is made to agree with the job store: `startup` (one process: leases a killed run
   * left are returned and unfinished work enqueued again before work starts), or a periodic
   * reconciler over a queue every process shares.
   */
  recovery: { kind: 'startup'; releaseAllLeases(): Promise<void> } | { kind: 'periodic'; queue: SharedQueue };
  /**
   * Messages the runner leases beyond its free slots (`JobRunnerOptions.leaseAhead`): the embedded
   * queue has one process working it, so holding a few saves lease writes; a shared queue leaves
   * them to the other workers (absent: 0).
   */
  leaseAhead?: number;
  /**
   * Interact's pages across processes (the distributed mode): given this process's own pages, the
   * sessions the routes use, forwarding each call to the process that holds the page
   * (shared-sessions.ts). Absent: a process's own pages are all there is.
   */
  shareSessions?(local: BrowserSessions | undefined): Promise<BrowserSessions & { close(): Promise<void> }>;
  /** Closes the connections (after everything composed over them stopped). */
  close(): Promise<void>;
}

/**
 * One lease call per 8 pages instead of one per page: lease is an UPDATE and a commit on the
 * server's main thread (0.55 ms of wall time per call in a cmake-doc crawl's profile).
 */
const embeddedLeaseAhead = 8;

/** The embedded storage under QUARRY_DATA_DIR: one SQLite file, its queue, and the configured blob store. */
export function embeddedBackends(config: ServerConfig, clock: Clock = systemClock): Backends {
  const storage = createSqliteStorage({ dataDir: config.QUARRY_DATA_DIR, clock });
  const stores: Stores = { ...storage, blobs: blobStoreOf(config) };
  return {
    api: stores,
    work: stores,
    rateLimiter: new MemoryRateLimiter(clock, parseRateLimits(config.QUARRY_RATE_LIMITS)),
    recovery: { kind: 'startup', releaseAllLeases: async () => void (await storage.queue.releaseAllLeases()) },
    leaseAhead: embeddedLeaseAhead,
    close: async () => storage.close(),
  };
}

import type { ScrapeDocument } from '../document.js';
import type { ErrorJson } from '../errors.js';
import type { JobRequestOf } from '../jobs/job-request.js';
import type { LeasedMessage } from './queue.js';
import type { OutboxEvent } from './webhook-outbox.js';

/**
 * The JobStore port: jobs (crawl, batch scrape, extract, deep research, llms.txt), their page
 * items (the crawl frontier: every URL a job has accepted, by dedup key), their results, errors
 * and robots-blocked URLs. It is the source of truth of a job; the Queue only carries references.
 *
 * Implementations: `MemoryJobStore` (core, for library use), `SqliteJobStore` (storage, embedded
 * default), `PostgresJobStore` (storage, distributed). All pass `describeJobStore` from
 * core/src/ports/testing/job-store-suite.ts.
 */
export type JobKind = 'crawl' | 'batch_scrape' | 'scrape' | AgentJobKind;
/**
 * A `scrape` job is a finished single scrape kept for `GET /scrape/{id}`: id = the document's
 * `metadata.scrapeId`, the document its saved state; it is never queued or listed as active.
 */
/**
 * Jobs that run in steps and answer one JSON value (extract, deep research, llms.txt, a monitor's check). Their
 * `scraping` status is the API's `processing`; their state lives in `getJobState`/`saveJobState`.
 */
export type AgentJobKind = 'extract' | 'deep_research' | 'llmstxt' | 'agent' | 'monitor_check';
export const agentJobKinds: readonly AgentJobKind[] = ['extract', 'deep_research', 'llmstxt', 'agent', 'monitor_check'];
export type JobStatus = 'scraping' | 'completed' | 'failed' | 'cancelled';
export const terminalJobStatuses: ReadonlySet<JobStatus> = new Set(['completed', 'failed', 'cancelled']);

/** What every job has, whatever its kind. */
export interface JobBase {
  id: string;
  teamId: string;
  status: JobStatus;
  /** Start URL of a crawl; first URL of a batch. */
  url: string;
  createdAt: number;
  expiresAt: number;
  /** True once a crawl's kickoff (start URL, robots, sitemaps) or a batch's items have been fully stored; a job is never settled before. */
  kickoffDone: boolean;
  error?: string;
}

/** A job's kind with the request that kind keeps (options, webhook, api version): narrow on `kind`. */
export type JobPayload = { [K in JobKind]: { kind: K; request: JobRequestOf[K] } }[JobKind];

/** A job of one kind. */
export type JobOf<K extends JobKind> = JobBase & { kind: K; request: JobRequestOf[K] };

/**
 * A job: its kind decides its request's shape. Stores check a stored request against its kind
 * when they read it (`parseJobRequest`), so a job read from a store is what its type says.
 */
export type JobRecord = JobBase & JobPayload;

/** Whether a job is of `kind` (narrows its request to that kind's). */
export const isJobOfKind = <K extends JobKind>(job: JobRecord, kind: K): job is Extract<JobRecord, { kind: K }> => job.kind === kind;

/** The job as the kind a caller only ever gets (a program is handed jobs of its own kind); any other is a bug upstream. */
export function jobOfKind<K extends JobKind>(job: JobRecord, kind: K): Extract<JobRecord, { kind: K }> {
  if (!isJobOfKind(job, kind)) throw new Error(`Job ${job.id} is a ${job.kind} job, not ${kind}`);
  return job;
}

export interface FrontierEntry {
  url: string;
  /** Dedup key (crawl/url-normalize.ts `dedupKey`); unique per job. */
  key: string;
  /** Link hops from the start page; seeds and sitemap URLs are 0. */
  discoveryDepth: number;
}

export type ItemState = 'queued' | 'done' | 'failed' | 'cancelled';

export interface PageOutcome {
  key: string;
  /** The finished document, or the error that ended the page. */
  document?: ScrapeDocument;
  error?: ErrorJson & { url: string };
  /** Credits charged to `teamId` in the same transaction; 0 for failures. */
  credits: number;
  /** Model tokens the page's stages used, recorded for `teamId` in the same transaction (default 0). */
  tokens?: number;
  finishedAt: number;
  /** Webhook deliveries written in the same transaction (stores without an outbox ignore them). */
  outbox?: OutboxEvent[];
  /**
   * The queue message that delivered the page. A store whose `acksMessages` is true removes it in
   * the same transaction, as `Queue.ack` would (only under its lease token), whether or not the
   * item was finished now; other stores ignore it and the caller acks.
   */
  ack?: LeasedMessage;
}

export interface JobProgress {
  /** Items accepted and not failed (Firecrawl's `total`). */
  total: number;
  /** Items finished with a document. */
  completed: number;
  failed: number;
  /** Items still queued or in flight. */
  pending: number;
  creditsUsed: number;
}

/** The working state of an agent job: the steps it has finished and one JSON value. */
export interface JobState {
  /** Steps finished; a job without saved state is at step 0. */
  step: number;
  value: unknown;
}

/** How an agent job ends, saved with its last state. */
export interface JobFinish {
  status: 'completed' | 'failed';
  error?: string;
  /** Credits taken from the team (as far as its balance goes); added to the job's creditsUsed. */
  credits: number;
  /** Tokens recorded as the team's token usage. */
  tokens: number;
  /** Reason of the usage rows (e.g. `extract`). */
  reason: string;
  /** When the job finished (epoch ms), for the usage rows. */
  finishedAt: number;
  /** Webhook deliveries written in the same transaction (stores without an outbox ignore them). */
  outbox?: OutboxEvent[];
  /**
   * The queue message that delivered the page. A store whose `acksMessages` is true removes it in
   * the same transaction, as `Queue.ack` would (only under its lease token), whether or not the
   * item was finished now; other stores ignore it and the caller acks.
   */
  ack?: LeasedMessage;
}

export interface JobErrorRecord {
  id: string;
  url: string;
  code?: string;
  error: string;
  timestamp: string;
}

/** The parts of a job that change after it is created (what `updateJob` patches). */
export type JobHead = Pick<JobBase, 'status' | 'kickoffDone' | 'expiresAt' | 'error'>;

/** The jobs themselves: created, read, moved between statuses, listed. */
export interface JobRecords {
  /** Stores a new job, with its webhook deliveries (the `started` event) in the same transaction. */
  createJob(job: JobRecord, outbox?: OutboxEvent[]): Promise<void>;
  /** The job, or undefined when unknown. */
  getJob(id: string): Promise<JobRecord | undefined>;
  /**
   * The job's changing parts as stored now, or undefined when unknown: a read without the request,
   * for a caller that keeps the rest of the job (the job runner reads it per page, and sees a cancel
   * made by another process). Optional: callers without it read `getJob`.
   */
  jobHead?(id: string): Promise<JobHead | undefined>;
  /**
   * Updates a job. With `expectedStatus`, only when the job is in that status (compare-and-set);
   * returns whether the update happened. Terminal statuses are never left. `outbox` deliveries are
   * written in the same transaction, only when the update happened.
   */
  updateJob(
    id: string,
    patch: Partial<Pick<JobRecord, 'status' | 'kickoffDone' | 'error' | 'expiresAt'>>,
    expectedStatus?: JobStatus,
    outbox?: OutboxEvent[],
  ): Promise<boolean>;
  /** Jobs of a team (or all teams) in `scraping` state, oldest first. */
  listActive(kind: JobKind, teamId?: string): Promise<JobRecord[]>;
  /**
   * A team's jobs of every kind and status, newest first, at most `limit` (the dashboard's list).
   * Jobs whose `expiresAt` has passed are included until they are deleted; callers filter them.
   */
  listJobs(teamId: string, limit: number): Promise<JobRecord[]>;
}

/** A job's items (its URLs) and their states: what is queued, seen, finished. */
export interface Frontier {
  /**
   * Adds entries whose keys this job has not seen, in order, while the job holds fewer than `limit`
   * live (not failed) items. Atomic per call. Returns the entries added (state `queued`).
   */
  addItems(jobId: string, entries: FrontierEntry[], limit: number): Promise<FrontierEntry[]>;
  /** Records keys as seen without queuing them (e.g. redirect targets); returns those that were new. */
  markSeen(jobId: string, keys: string[]): Promise<string[]>;
  /** The item, or undefined. */
  getItem(jobId: string, key: string): Promise<(FrontierEntry & { state: ItemState }) | undefined>;
  /** Marks every queued item of a job cancelled. */
  cancelItems(jobId: string): Promise<void>;
  /** Keys of items still queued (for the reconciler and restarts). */
  pendingItems(jobId: string): Promise<FrontierEntry[]>;
  progress(jobId: string): Promise<JobProgress>;
}

/** What a job's pages produced: each item finished exactly once, with its document or error and its charge. */
export interface PageResults {
  /**
   * Finishes an item exactly once: stores the document or the error and charges the credits and
   * tokens in one transaction (a team the ledger does not know is not charged). A second call for
   * the same key is ignored and returns false (at-least-once delivery upstream, exactly-once results
   * and charges here). A failed item frees its slot of the limit. The outcome's
   * `outbox` deliveries are written in the same transaction, only when the item was finished now.
   */
  finishItem(jobId: string, teamId: string, outcome: PageOutcome): Promise<boolean>;
  /**
   * True when `finishItem` acks `outcome.ack` in its transaction (the embedded SQLite store, whose
   * queue is a table of the same file): a page is then stored, charged and off the queue at once,
   * and a worker that dies at any point either leaves all three undone (the message comes back
   * after its lease) or all three done. Absent or false: the caller acks after `finishItem`.
   */
  readonly acksMessages?: boolean;
  /** Documents in completion order. */
  listDocuments(jobId: string, skip: number, limit: number): Promise<ScrapeDocument[]>;
  /**
   * The same documents as `listDocuments`, each as its JSON text (`JSON.stringify` of the document):
   * a store that keeps them as JSON hands out the text it holds, so a caller that writes them out
   * (the status pages) neither parses nor serialises them. Optional: callers without it stringify.
   */
  listDocumentTexts?(jobId: string, skip: number, limit: number): Promise<string[]>;
  listErrors(jobId: string): Promise<JobErrorRecord[]>;
}

/** The URLs robots.txt kept a crawl from. */
export interface RobotsBlockedUrls {
  addRobotsBlocked(jobId: string, urls: string[]): Promise<void>;
  listRobotsBlocked(jobId: string): Promise<string[]>;
}

/** The saved state of an agent job between its steps. */
export interface AgentStates {
  /** An agent job's last saved state, or undefined (unknown job, or no step saved yet). */
  getJobState(jobId: string): Promise<JobState | undefined>;
  /**
   * Saves an agent job's state after step `state.step`, only while the job is `scraping` and its
   * saved step is `state.step - 1`: a step delivered twice is saved once, and of concurrent savers
   * of the same step exactly one wins. With `finish`, the same transaction also moves the job to
   * the finish status (with its error), charges the team (credits as far as its balance goes,
   * tokens recorded; a team the ledger does not know is not charged) and writes the outbox.
   * Returns whether it was saved.
   */
  saveJobState(jobId: string, teamId: string, state: JobState, finish?: JobFinish): Promise<boolean>;
}

/**
 * Every part of a job's state, for the stores that keep them all (in one transaction where a page's
 * result, its charge and its webhook deliveries must land together). Consumers depend on the part
 * they use (the job runner `JobRecords & Frontier & PageResults`, the dashboard's agent result `AgentStates`).
 */
export interface JobStore extends JobRecords, Frontier, PageResults, RobotsBlockedUrls, AgentStates {}

import { agentJobTtlMs, agentStepMessage } from '../agent-jobs/agent-job.js';
import { compileCrawlRules } from '../crawl/crawl-rules.js';
import { checkStartDepth } from '../crawl/url-depth.js';
import { NotFoundError } from '../errors.js';
import type { ScrapeDocument } from '../document.js';
import type { CrawlOptions } from '../options/crawl-options.js';
import type { ScrapeOptions } from '../options/scrape-options.js';
import type { Clock, Ids } from '../ports/clock.js';
import type { AgentJobKind, JobBase, JobPayload, JobRecord, AgentStates, Frontier, JobRecords } from '../ports/job-store.js';
import type { Queue } from '../ports/queue.js';
import { parseTargetUrl } from '../scrape/target-url.js';
import type { JobEvent, JobEventSink } from './job-events.js';
import type { JobOutbox } from './webhook-payloads.js';
import { kickoffKey, type BatchJobRequest, type CrawlJobRequest } from './job-request.js';
import { messageFor } from './page-worker.js';

/**
 * Starting and cancelling jobs. Validation that needs the whole request (start URL depth, path
 * patterns) happens here, before anything is stored, so a bad crawl is a 400 and not a failed job.
 */
export interface JobServiceDeps {
  jobs: JobRecords & Frontier & AgentStates;
  queue: Queue;
  clock: Clock;
  ids: Ids;
  events: JobEventSink;
  /** Webhook deliveries for an event, stored with the change (none in library use). */
  outbox?: JobOutbox;
  /** Called on cancel to abort in-flight pages of this process. */
  onCancel?: (jobId: string) => void;
}

/** The kind and request of an agent job to start. */
export type AgentJobPayload = Extract<JobPayload, { kind: AgentJobKind }>;

/** Jobs and their results are kept this long (Firecrawl: 24 hours). */
export const jobTtlMs = 24 * 60 * 60 * 1000;

export class JobService {
  constructor(private readonly deps: JobServiceDeps) {}

  async startCrawl(input: {
    teamId: string;
    url: string;
    options: CrawlOptions;
    version: 'v1' | 'v2';
    webhook?: unknown;
    id?: string;
    prompt?: CrawlJobRequest['prompt'];
  }): Promise<JobRecord> {
    const start = parseTargetUrl(input.url);
    if (input.options.maxDepth !== undefined) checkStartDepth(start, input.options.maxDepth);
    compileCrawlRules({
      startUrl: start.href,
      includePaths: input.options.includePaths,
      excludePaths: input.options.excludePaths,
      crawlEntireDomain: input.options.crawlEntireDomain,
      allowExternalLinks: input.options.allowExternalLinks,
      allowSubdomains: input.options.allowSubdomains,
      ignoreQueryParameters: input.options.ignoreQueryParameters,
      deduplicateSimilarURLs: input.options.deduplicateSimilarURLs,
      regexOnFullURL: input.options.regexOnFullURL,
    });
    const request: CrawlJobRequest = {
      version: input.version,
      options: input.options,
      ...(input.webhook ? { webhook: input.webhook } : {}),
      ...(input.prompt ? { prompt: input.prompt } : {}),
    };
    const job = this.newJob({ kind: 'crawl', request }, input.teamId, start.href, input.id);
    const started: JobEvent = { type: 'started', job };
    await this.deps.jobs.createJob(job, this.deps.outbox?.(started));
    await this.deps.events(started);
    await this.deps.queue.enqueue([{ id: `${job.id}:${kickoffKey}`, jobId: job.id, key: kickoffKey, url: start.href, discoveryDepth: 0, priority: 0 }]);
    return job;
  }

  async startBatch(input: {
    teamId: string;
    urls: string[];
    options: ScrapeOptions;
    version: 'v1' | 'v2';
    maxConcurrency?: number;
    webhook?: unknown;
    id?: string;
  }): Promise<JobRecord> {
    const request: BatchJobRequest = {
      version: input.version,
      options: input.options,
      ...(input.maxConcurrency !== undefined ? { maxConcurrency: input.maxConcurrency } : {}),
      ...(input.webhook ? { webhook: input.webhook } : {}),
    };
    // kickoffDone stays false until every item is stored: a settle in between (another process's
    // reconciler) would otherwise find nothing pending and complete the batch with no pages.
    const job = this.newJob({ kind: 'batch_scrape', request }, input.teamId, input.urls[0] ?? '', input.id);
    const started: JobEvent = { type: 'started', job };
    await this.deps.jobs.createJob(job, this.deps.outbox?.(started));
    await this.deps.events(started);
    const entries = input.urls.map((url, index) => ({ url, key: String(index).padStart(6, '0'), discoveryDepth: 0 }));
    const added = await this.deps.jobs.addItems(job.id, entries, entries.length);
    await this.deps.jobs.updateJob(job.id, { kickoffDone: true });
    await this.deps.queue.enqueue(added.map((entry) => messageFor(job.id, entry)));
    return { ...job, kickoffDone: true };
  }

  /**
   * Starts an agent job (extract, deep research, llms.txt) from its validated request: the job is
   * stored and its first step queued. `url` is what the job is about (first URL, or the query).
   */
  async startAgentJob(input: AgentJobPayload & { teamId: string; url: string; id?: string }): Promise<JobRecord> {
    const { teamId, url, id, ...payload } = input;
    const job: JobRecord = this.newJob(payload, teamId, url, id);
    job.kickoffDone = true;
    job.expiresAt = job.createdAt + agentJobTtlMs;
    const started: JobEvent = { type: 'started', job };
    await this.deps.jobs.createJob(job, this.deps.outbox?.(started));
    await this.deps.events(started);
    await this.deps.queue.enqueue([agentStepMessage(job, 1)]);
    return job;
  }

  /**
   * Keeps a finished scrape's document for 24 hours under its `metadata.scrapeId`, for
   * `GET /scrape/{id}` (Firecrawl's scrape status). No event, no queue message, no charge.
   */
  async recordScrape(teamId: string, document: ScrapeDocument): Promise<void> {
    const job = this.newJob({ kind: 'scrape', request: {} }, teamId, document.metadata.sourceURL, document.metadata.scrapeId);
    job.kickoffDone = true;
    await this.deps.jobs.createJob(job);
    await this.deps.jobs.saveJobState(
      job.id,
      teamId,
      { step: 1, value: document },
      { status: 'completed', credits: 0, tokens: 0, reason: 'scrape', finishedAt: job.createdAt },
    );
  }

  /** A scrape kept by `recordScrape`, when it is the team's and not expired; else NotFoundError (another team's id reads as unknown). */
  async getScrape(teamId: string, scrapeId: string): Promise<ScrapeDocument> {
    const job = await this.deps.jobs.getJob(scrapeId);
    if (job?.kind !== 'scrape' || job.teamId !== teamId || job.expiresAt <= this.deps.clock.now()) throw new NotFoundError('Scrape not found');
    const state = await this.deps.jobs.getJobState(scrapeId);
    if (!state) throw new NotFoundError('Scrape not found');
    return state.value as ScrapeDocument;
  }

  /** Cancels a job; pages already done stay available. Unknown ids are a NotFoundError. */
  async cancel(jobId: string): Promise<JobRecord> {
    const job = await this.deps.jobs.getJob(jobId);
    if (!job) throw new NotFoundError();
    if (job.status !== 'scraping') return job;
    const cancelled = { ...job, status: 'cancelled' as const };
    const event: JobEvent = { type: 'cancelled', job: cancelled };
    if (await this.deps.jobs.updateJob(jobId, { status: 'cancelled' }, 'scraping', this.deps.outbox?.(event))) {
      await this.deps.jobs.cancelItems(jobId);
      await this.deps.queue.removeJob(jobId);
      this.deps.onCancel?.(jobId);
      await this.deps.events(event);
      return cancelled;
    }
    return (await this.deps.jobs.getJob(jobId)) ?? job;
  }

  private newJob<P extends JobPayload>(payload: P, teamId: string, url: string, id?: string): JobBase & P {
    const now = this.deps.clock.now();
    return {
      id: id ?? this.deps.ids.next(),
      teamId,
      status: 'scraping',
      url,
      createdAt: now,
      expiresAt: now + jobTtlMs,
      kickoffDone: false,
      ...payload,
    };
  }
}

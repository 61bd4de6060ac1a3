import type { ScrapeDocument } from '../document.js';
import type {
  FrontierEntry,
  ItemState,
  JobErrorRecord,
  JobFinish,
  JobHead,
  JobKind,
  JobProgress,
  JobRecord,
  JobState,
  JobStatus,
  JobStore,
  PageOutcome,
} from '../ports/job-store.js';
import { terminalJobStatuses } from '../ports/job-store.js';
import { storedJob } from '../jobs/job-request-schemas.js';

interface ItemRecord extends FrontierEntry {
  state: ItemState;
}

interface JobData {
  job: JobRecord;
  items: Map<string, ItemRecord>;
  seen: Set<string>;
  live: number;
  pending: number;
  documents: ScrapeDocument[];
  completed: number;
  errors: JobErrorRecord[];
  robotsBlocked: Set<string>;
  creditsUsed: number;
  state?: JobState;
}

/** JobStore in memory, for library crawls. Same contract as the durable stores (conformance suite). */
export class MemoryJobStore implements JobStore {
  private readonly jobs = new Map<string, JobData>();

  /**
   * `keepDocuments: false` counts finished documents without keeping them (listDocuments then
   * returns none): a library crawl hands each document to its caller as it finishes, and keeping
   * 5,000 pages of markdown would only cost memory.
   */
  constructor(private readonly options: { keepDocuments?: boolean } = {}) {}

  /** The job's request is checked against its kind here, as the durable stores check a row they read (nothing is serialized in between). */
  async createJob(job: JobRecord): Promise<void> {
    this.jobs.set(job.id, {
      job: storedJob(structuredClone(job)),
      items: new Map(),
      seen: new Set(),
      live: 0,
      pending: 0,
      documents: [],
      completed: 0,
      errors: [],
      robotsBlocked: new Set(),
      creditsUsed: 0,
    });
  }

  async getJob(id: string): Promise<JobRecord | undefined> {
    const data = this.jobs.get(id);
    return data ? structuredClone(data.job) : undefined;
  }

  async jobHead(id: string): Promise<JobHead | undefined> {
    const job = this.jobs.get(id)?.job;
    if (!job) return undefined;
    return { status: job.status, kickoffDone: job.kickoffDone, expiresAt: job.expiresAt, ...(job.error !== undefined ? { error: job.error } : {}) };
  }

  async updateJob(id: string, patch: Partial<Pick<JobRecord, 'status' | 'kickoffDone' | 'error' | 'expiresAt'>>, expectedStatus?: JobStatus): Promise<boolean> {
    const data = this.jobs.get(id);
    if (!data) return false;
    if (expectedStatus !== undefined && data.job.status !== expectedStatus) return false;
    if (patch.status !== undefined && patch.status !== data.job.status && terminalJobStatuses.has(data.job.status)) return false;
    Object.assign(data.job, patch);
    return true;
  }

  async addItems(jobId: string, entries: FrontierEntry[], limit: number): Promise<FrontierEntry[]> {
    const data = this.require(jobId);
    const added: FrontierEntry[] = [];
    for (const entry of entries) {
      if (data.live >= limit) break;
      if (data.seen.has(entry.key)) continue;
      data.seen.add(entry.key);
      data.items.set(entry.key, { ...entry, state: 'queued' });
      data.live++;
      data.pending++;
      added.push(entry);
    }
    return added;
  }

  async markSeen(jobId: string, keys: string[]): Promise<string[]> {
    const data = this.require(jobId);
    const fresh: string[] = [];
    for (const key of keys) {
      if (data.seen.has(key)) continue;
      data.seen.add(key);
      fresh.push(key);
    }
    return fresh;
  }

  async getItem(jobId: string, key: string) {
    const item = this.jobs.get(jobId)?.items.get(key);
    return item ? { ...item } : undefined;
  }

  async finishItem(jobId: string, _teamId: string, outcome: PageOutcome): Promise<boolean> {
    const data = this.require(jobId);
    const item = data.items.get(outcome.key);
    if (item?.state !== 'queued') return false;
    data.pending--;
    data.creditsUsed += outcome.credits;
    if (outcome.document) {
      item.state = 'done';
      if (this.options.keepDocuments !== false) data.documents.push(outcome.document);
      data.completed++;
    } else {
      item.state = 'failed';
      data.live--;
      if (outcome.error) {
        data.errors.push({
          id: `${jobId}:${outcome.key}`,
          url: outcome.error.url,
          code: outcome.error.code,
          error: outcome.error.message,
          timestamp: new Date(outcome.finishedAt).toISOString(),
        });
      }
    }
    return true;
  }

  async cancelItems(jobId: string): Promise<void> {
    const data = this.require(jobId);
    for (const item of data.items.values()) {
      if (item.state === 'queued') {
        item.state = 'cancelled';
        data.pending--;
      }
    }
  }

  async pendingItems(jobId: string): Promise<FrontierEntry[]> {
    const data = this.require(jobId);
    return [...data.items.values()].filter((item) => item.state === 'queued').map(({ url, key, discoveryDepth }) => ({ url, key, discoveryDepth }));
  }

  async progress(jobId: string): Promise<JobProgress> {
    const data = this.require(jobId);
    return {
      total: data.live,
      completed: data.completed,
      failed: data.items.size - data.live,
      pending: data.pending,
      creditsUsed: data.creditsUsed,
    };
  }

  async listDocuments(jobId: string, skip: number, limit: number): Promise<ScrapeDocument[]> {
    return this.require(jobId).documents.slice(skip, skip + limit);
  }

  async listErrors(jobId: string): Promise<JobErrorRecord[]> {
    return [...this.require(jobId).errors];
  }

  async addRobotsBlocked(jobId: string, urls: string[]): Promise<void> {
    const data = this.require(jobId);
    for (const url of urls) data.robotsBlocked.add(url);
  }

  async listRobotsBlocked(jobId: string): Promise<string[]> {
    return [...this.require(jobId).robotsBlocked];
  }

  async listActive(kind: JobKind, teamId?: string): Promise<JobRecord[]> {
    return [...this.jobs.values()]
      .map((data) => data.job)
      .filter((job) => job.kind === kind && job.status === 'scraping' && (teamId === undefined || job.teamId === teamId))
      .sort((a, b) => a.createdAt - b.createdAt)
      .map((job) => structuredClone(job));
  }

  async listJobs(teamId: string, limit: number): Promise<JobRecord[]> {
    return [...this.jobs.values()]
      .map((data) => data.job)
      .filter((job) => job.teamId === teamId)
      .reverse()
      .sort((a, b) => b.createdAt - a.createdAt)
      .slice(0, limit)
      .map((job) => structuredClone(job));
  }

  async getJobState(jobId: string): Promise<JobState | undefined> {
    const state = this.jobs.get(jobId)?.state;
    return state ? structuredClone(state) : undefined;
  }

  /** Saves as the port says; there is no ledger in memory, so `finish` only adds to creditsUsed. */
  async saveJobState(jobId: string, _teamId: string, state: JobState, finish?: JobFinish): Promise<boolean> {
    const data = this.jobs.get(jobId);
    if (data?.job.status !== 'scraping' || (data.state?.step ?? 0) !== state.step - 1) return false;
    data.state = structuredClone(state);
    if (finish) {
      data.job.status = finish.status;
      if (finish.error !== undefined) data.job.error = finish.error;
      data.creditsUsed += finish.credits;
    }
    return true;
  }

  private require(jobId: string): JobData {
    const data = this.jobs.get(jobId);
    if (!data) throw new Error(`Unknown job ${jobId}`);
    return data;
  }
}

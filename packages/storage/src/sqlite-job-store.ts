import {
  NotFoundError,
  storedJob,
  terminalJobStatuses,
  type FrontierEntry,
  type ItemState,
  type JobErrorRecord,
  type JobFinish,
  type JobHead,
  type JobKind,
  type JobProgress,
  type JobRecord,
  type JobState,
  type JobStatus,
  type JobStore,
  type OutboxEvent,
  type PageOutcome,
  type ScrapeDocument,
} from '@quarry/core';
import type { SqliteDatabase } from './open-sqlite.js';
import { type InsertOutboxValues, insertOutboxSql, insertOutboxValues } from './row-mappers.js';
import type { SqliteQueue } from './sqlite-queue.js';
import { TeamCredits } from './team-credits.js';
import type { PendingWrites } from './write-batch.js';

interface JobRow {
  id: string;
  kind: string;
  team_id: string;
  status: JobStatus;
  url: string;
  request: string;
  created_at: number;
  expires_at: number;
  kickoff_done: number;
  error: string | null;
}

type JobPatch = Partial<Pick<JobRecord, 'status' | 'kickoffDone' | 'error' | 'expiresAt'>>;

interface ItemRow {
  key: string;
  url: string;
  discovery_depth: number;
  state: ItemState | 'seen';
}

/**
 * JobStore on SQLite (tables of migration 1). Every method is one statement or one IMMEDIATE
 * transaction, so several processes can share the file. Per-job counters (live, pending, completed,
 * failed, credits) are kept on the job row by the same transactions that change items, so `progress`
 * reads one row. `finishItem` charges the team through the ledger tables of the same connection, in
 * the transaction that stores the page: a page is stored and charged together, exactly once (a team
 * the ledger does not know is not charged; the job still counts the page's credits). Given the
 * queue of the same connection (`createSqliteStorage` does), `finishItem` also acks the page's
 * message in that transaction (`acksMessages`).
 */
export class SqliteJobStore implements JobStore {
  readonly acksMessages: boolean;
  private readonly credits: TeamCredits;
  private readonly statements;
  private readonly addItemsTransaction;
  private readonly markSeenTransaction;
  private readonly finishTransaction;
  private readonly rideAlong: PendingWrites[];
  /** What to call once `finishTransaction` has committed: the ride-along writes it made. */
  private rodeAlong: Array<(() => void) | undefined> = [];
  private readonly updateTransaction;
  private readonly cancelTransaction;
  private readonly createTransaction;
  private readonly saveStateTransaction;

  constructor(
    private readonly db: SqliteDatabase,
    options: {
      queue?: SqliteQueue;
      /**
       * Waiting writes of the same connection (the document cache's) that `finishItem`'s transaction
       * writes too, before the page's own rows: no commit of their own, and not held until a batch fills.
       */
      rideAlong?: PendingWrites[];
    } = {},
  ) {
    const queue = options.queue;
    this.rideAlong = options.rideAlong ?? [];
    this.acksMessages = queue !== undefined;
    this.credits = new TeamCredits(db);
    const statements = {
      insertJob: db.prepare(
        `INSERT INTO jobs (id, kind, team_id, status, url, request, created_at, expires_at, kickoff_done, error)
         VALUES (@id, @kind, @teamId, @status, @url, @request, @createdAt, @expiresAt, @kickoffDone, @error)`,
      ),
      job: db.prepare<[string], JobRow>('SELECT id, kind, team_id, status, url, request, created_at, expires_at, kickoff_done, error FROM jobs WHERE id = ?'),
      jobStatus: db.prepare<[string], { status: JobStatus }>('SELECT status FROM jobs WHERE id = ?'),
      jobHead: db.prepare<[string], Pick<JobRow, 'status' | 'expires_at' | 'kickoff_done' | 'error'>>(
        'SELECT status, expires_at, kickoff_done, error FROM jobs WHERE id = ?',
      ),
      updateJob: db.prepare(
        `UPDATE jobs SET
           status = CASE WHEN @setStatus THEN @status ELSE status END,
           kickoff_done = CASE WHEN @setKickoffDone THEN @kickoffDone ELSE kickoff_done END,
           error = CASE WHEN @setError THEN @error ELSE error END,
           expires_at = CASE WHEN @setExpiresAt THEN @expiresAt ELSE expires_at END
         WHERE id = @id`,
      ),
      live: db.prepare<[string], { live: number }>('SELECT live FROM jobs WHERE id = ?'),
      insertItem: db.prepare<[string, string, string, number, string]>(
        'INSERT INTO job_items (job_id, key, url, discovery_depth, state) VALUES (?, ?, ?, ?, ?) ON CONFLICT (job_id, key) DO NOTHING',
      ),
      countAdded: db.prepare<[number, number, string]>('UPDATE jobs SET live = live + ?, pending = pending + ? WHERE id = ?'),
      item: db.prepare<[string, string], ItemRow>('SELECT key, url, discovery_depth, state FROM job_items WHERE job_id = ? AND key = ?'),
      insertOutbox: db.prepare<InsertOutboxValues>(insertOutboxSql),
      finishItem: db.prepare<[ItemState, string, string]>("UPDATE job_items SET state = ? WHERE job_id = ? AND key = ? AND state = 'queued'"),
      insertDocument: db.prepare<[string, string, string]>('INSERT INTO job_documents (job_id, key, document) VALUES (?, ?, ?)'),
      insertError: db.prepare<[string, string, string, string | null, string, number]>(
        'INSERT INTO job_errors (job_id, key, url, code, message, at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      countDone: db.prepare<[number, string]>('UPDATE jobs SET pending = pending - 1, completed = completed + 1, credits_used = credits_used + ? WHERE id = ?'),
      countFailed: db.prepare<[number, string]>(
        'UPDATE jobs SET pending = pending - 1, live = live - 1, failed = failed + 1, credits_used = credits_used + ? WHERE id = ?',
      ),
      cancelItems: db.prepare<[string]>("UPDATE job_items SET state = 'cancelled' WHERE job_id = ? AND state = 'queued'"),
      countCancelled: db.prepare<[number, string]>('UPDATE jobs SET pending = pending - ? WHERE id = ?'),
      pendingItems: db.prepare<[string], ItemRow>("SELECT key, url, discovery_depth, state FROM job_items WHERE job_id = ? AND state = 'queued' ORDER BY seq"),
      progress: db.prepare<[string], { live: number; completed: number; failed: number; pending: number; credits_used: number }>(
        'SELECT live, completed, failed, pending, credits_used FROM jobs WHERE id = ?',
      ),
      documents: db.prepare<[string, number, number], { document: string }>(
        'SELECT document FROM job_documents WHERE job_id = ? ORDER BY seq LIMIT ? OFFSET ?',
      ),
      errors: db.prepare<[string], { seq: number; url: string; code: string | null; message: string; at: number }>(
        'SELECT seq, url, code, message, at FROM job_errors WHERE job_id = ? ORDER BY seq',
      ),
      insertRobotsBlocked: db.prepare<[string, string]>('INSERT INTO job_robots_blocked (job_id, url) VALUES (?, ?) ON CONFLICT (job_id, url) DO NOTHING'),
      robotsBlocked: db.prepare<[string], { url: string }>('SELECT url FROM job_robots_blocked WHERE job_id = ? ORDER BY seq'),
      deleteExpired: db.prepare<[number]>("DELETE FROM jobs WHERE expires_at <= ? AND status != 'scraping'"),
      active: db.prepare<{ kind: JobKind; team: string | null }, JobRow>(
        `SELECT id, kind, team_id, status, url, request, created_at, expires_at, kickoff_done, error FROM jobs
         WHERE kind = @kind AND status = 'scraping' AND (@team IS NULL OR team_id = @team) ORDER BY created_at, rowid`,
      ),
      ofTeam: db.prepare<[string, number], JobRow>(
        `SELECT id, kind, team_id, status, url, request, created_at, expires_at, kickoff_done, error FROM jobs
         WHERE team_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?`,
      ),
      state: db.prepare<[string], { state: string | null; state_step: number }>('SELECT state, state_step FROM jobs WHERE id = ?'),
      saveState: db.prepare<[string, number, string, number]>(
        "UPDATE jobs SET state = ?, state_step = ? WHERE id = ? AND status = 'scraping' AND state_step = ?",
      ),
      finishJob: db.prepare<[string, string | null, number, string]>('UPDATE jobs SET status = ?, error = ?, credits_used = credits_used + ? WHERE id = ?'),
    };
    this.statements = statements;

    this.addItemsTransaction = db.transaction((jobId: string, entries: FrontierEntry[], limit: number): FrontierEntry[] => {
      let live = this.requireJob(jobId);
      const added: FrontierEntry[] = [];
      for (const entry of entries) {
        if (live >= limit) break;
        if (statements.insertItem.run(jobId, entry.key, entry.url, entry.discoveryDepth, 'queued').changes === 0) continue;
        live++;
        added.push(entry);
      }
      if (added.length > 0) statements.countAdded.run(added.length, added.length, jobId);
      return added;
    });

    this.markSeenTransaction = db.transaction((jobId: string, keys: string[]): string[] => {
      this.requireJob(jobId);
      return keys.filter((key) => statements.insertItem.run(jobId, key, '', 0, 'seen').changes === 1);
    });

    this.finishTransaction = db.transaction((jobId: string, teamId: string, outcome: PageOutcome): boolean => {
      this.rodeAlong = this.rideAlong.map((writes) => writes.writeWithin());
      if (outcome.ack) queue?.ackNow(outcome.ack); // off the queue with its result, or not at all
      const state: ItemState = outcome.document ? 'done' : 'failed';
      if (statements.finishItem.run(state, jobId, outcome.key).changes === 0) return false;
      if (outcome.document) {
        statements.insertDocument.run(jobId, outcome.key, JSON.stringify(outcome.document));
        statements.countDone.run(outcome.credits, jobId);
      } else {
        if (outcome.error) {
          const { url, code, message } = outcome.error;
          statements.insertError.run(jobId, outcome.key, url, code ?? null, message, outcome.finishedAt);
        }
        statements.countFailed.run(outcome.credits, jobId);
      }
      if (outcome.credits > 0) this.credits.charge(teamId, outcome.credits, 'page', outcome.finishedAt, { jobId });
      const tokens = outcome.tokens ?? 0;
      if (tokens > 0) this.credits.chargeTokens(teamId, tokens, 'page', outcome.finishedAt, { jobId });
      this.writeOutbox(outcome.outbox);
      return true;
    });

    this.updateTransaction = db.transaction(
      (id: string, patch: JobPatch, expectedStatus: JobStatus | undefined, outbox: OutboxEvent[] | undefined): boolean => {
        const current = statements.jobStatus.get(id);
        if (!current) return false;
        if (expectedStatus !== undefined && current.status !== expectedStatus) return false;
        if (patch.status !== undefined && patch.status !== current.status && terminalJobStatuses.has(current.status)) return false;
        statements.updateJob.run({
          id,
          setStatus: patch.status !== undefined ? 1 : 0,
          status: patch.status ?? null,
          setKickoffDone: patch.kickoffDone !== undefined ? 1 : 0,
          kickoffDone: patch.kickoffDone ? 1 : 0,
          setError: 'error' in patch ? 1 : 0,
          error: patch.error ?? null,
          setExpiresAt: patch.expiresAt !== undefined ? 1 : 0,
          expiresAt: patch.expiresAt ?? null,
        });
        this.writeOutbox(outbox);
        return true;
      },
    );
    this.createTransaction = db.transaction((job: JobRecord, outbox: OutboxEvent[] | undefined) => {
      statements.insertJob.run({
        id: job.id,
        kind: job.kind,
        teamId: job.teamId,
        status: job.status,
        url: job.url,
        request: JSON.stringify(job.request),
        createdAt: job.createdAt,
        expiresAt: job.expiresAt,
        kickoffDone: job.kickoffDone ? 1 : 0,
        error: job.error ?? null,
      });
      this.writeOutbox(outbox);
    });

    this.saveStateTransaction = db.transaction((jobId: string, teamId: string, state: JobState, finish: JobFinish | undefined): boolean => {
      if (statements.saveState.run(JSON.stringify(state.value), state.step, jobId, state.step - 1).changes === 0) return false;
      if (!finish) return true;
      statements.finishJob.run(finish.status, finish.error ?? null, finish.credits, jobId);
      const context = { jobId };
      if (finish.credits > 0) this.credits.charge(teamId, finish.credits, finish.reason, finish.finishedAt, context);
      if (finish.tokens > 0) this.credits.chargeTokens(teamId, finish.tokens, finish.reason, finish.finishedAt, context);
      this.writeOutbox(finish.outbox);
      return true;
    });

    this.cancelTransaction = db.transaction((jobId: string) => {
      const cancelled = statements.cancelItems.run(jobId).changes;
      if (cancelled > 0) statements.countCancelled.run(cancelled, jobId);
    });
  }

  async createJob(job: JobRecord, outbox?: OutboxEvent[]): Promise<void> {
    this.createTransaction.immediate(job, outbox);
  }

  /** Webhook deliveries of a change, inside the change's transaction (the outbox table shares this db). */
  private writeOutbox(outbox: OutboxEvent[] | undefined) {
    for (const event of outbox ?? []) {
      this.statements.insertOutbox.run(...insertOutboxValues(event));
    }
  }

  async getJob(id: string): Promise<JobRecord | undefined> {
    const row = this.statements.job.get(id);
    return row ? toJob(row) : undefined;
  }

  /** The job without its request: no JSON parse nor request check, for the runner's read per page. */
  async jobHead(id: string): Promise<JobHead | undefined> {
    const row = this.statements.jobHead.get(id);
    if (!row) return undefined;
    return { status: row.status, kickoffDone: row.kickoff_done === 1, expiresAt: row.expires_at, ...(row.error !== null ? { error: row.error } : {}) };
  }

  async updateJob(id: string, patch: JobPatch, expectedStatus?: JobStatus, outbox?: OutboxEvent[]): Promise<boolean> {
    return this.updateTransaction.immediate(id, patch, expectedStatus, outbox);
  }

  async addItems(jobId: string, entries: FrontierEntry[], limit: number): Promise<FrontierEntry[]> {
    if (entries.length === 0) return [];
    return this.addItemsTransaction.immediate(jobId, entries, limit);
  }

  async markSeen(jobId: string, keys: string[]): Promise<string[]> {
    return this.markSeenTransaction.immediate(jobId, keys);
  }

  async getItem(jobId: string, key: string): Promise<(FrontierEntry & { state: ItemState }) | undefined> {
    const row = this.statements.item.get(jobId, key);
    if (!row || row.state === 'seen') return undefined;
    return { ...toEntry(row), state: row.state };
  }

  async finishItem(jobId: string, teamId: string, outcome: PageOutcome): Promise<boolean> {
    if (this.rideAlong.length === 0) return this.finishTransaction.immediate(jobId, teamId, outcome);
    this.rodeAlong = [];
    const finished = this.finishTransaction.immediate(jobId, teamId, outcome); // throws: the ride-along rows were rolled back and still wait
    for (const committed of this.rodeAlong) committed?.();
    this.rodeAlong = [];
    return finished;
  }

  async cancelItems(jobId: string): Promise<void> {
    this.cancelTransaction.immediate(jobId);
  }

  async pendingItems(jobId: string): Promise<FrontierEntry[]> {
    return this.statements.pendingItems.all(jobId).map(toEntry);
  }

  async progress(jobId: string): Promise<JobProgress> {
    const row = this.statements.progress.get(jobId);
    if (!row) throw unknownJob(jobId);
    return { total: row.live, completed: row.completed, failed: row.failed, pending: row.pending, creditsUsed: row.credits_used };
  }

  async listDocuments(jobId: string, skip: number, limit: number): Promise<ScrapeDocument[]> {
    if (limit <= 0) return [];
    return this.statements.documents.all(jobId, limit, Math.max(0, skip)).map((row) => JSON.parse(row.document) as ScrapeDocument);
  }

  async listDocumentTexts(jobId: string, skip: number, limit: number): Promise<string[]> {
    if (limit <= 0) return [];
    return this.statements.documents.all(jobId, limit, Math.max(0, skip)).map((row) => row.document);
  }

  async listErrors(jobId: string): Promise<JobErrorRecord[]> {
    return this.statements.errors.all(jobId).map((row) => ({
      id: `${jobId}:${row.seq}`,
      url: row.url,
      ...(row.code !== null ? { code: row.code } : {}),
      error: row.message,
      timestamp: new Date(row.at).toISOString(),
    }));
  }

  async addRobotsBlocked(jobId: string, urls: string[]): Promise<void> {
    if (urls.length === 0) return;
    this.db
      .transaction(() => {
        for (const url of urls) this.statements.insertRobotsBlocked.run(jobId, url);
      })
      .immediate();
  }

  async listRobotsBlocked(jobId: string): Promise<string[]> {
    return this.statements.robotsBlocked.all(jobId).map((row) => row.url);
  }

  async listActive(kind: JobKind, teamId?: string): Promise<JobRecord[]> {
    return this.statements.active.all({ kind, team: teamId ?? null }).map(toJob);
  }

  async listJobs(teamId: string, limit: number): Promise<JobRecord[]> {
    return this.statements.ofTeam.all(teamId, limit).map(toJob);
  }

  async getJobState(jobId: string): Promise<JobState | undefined> {
    const row = this.statements.state.get(jobId);
    if (!row || row.state === null) return undefined;
    return { step: row.state_step, value: JSON.parse(row.state) as unknown };
  }

  async saveJobState(jobId: string, teamId: string, state: JobState, finish?: JobFinish): Promise<boolean> {
    return this.saveStateTransaction.immediate(jobId, teamId, state, finish);
  }

  /**
   * Deletes finished jobs (not `scraping`) whose `expiresAt` has passed, with their items, documents,
   * errors and robots-blocked URLs; returns how many jobs. Not part of the port: the embedded
   * server calls it now and then.
   */
  async deleteExpired(now: number): Promise<number> {
    return this.statements.deleteExpired.run(now).changes;
  }

  /** The job's live item count; NotFoundError when the job is unknown. */
  private requireJob(jobId: string): number {
    const row = this.statements.live.get(jobId);
    if (!row) throw unknownJob(jobId);
    return row.live;
  }
}

const unknownJob = (jobId: string) => new NotFoundError(`Job ${jobId} not found`);

/** A row as a job; its request is checked against its kind here, once (a malformed one is a StoredJobError). */
function toJob(row: JobRow): JobRecord {
  return storedJob({
    id: row.id,
    kind: row.kind,
    teamId: row.team_id,
    status: row.status,
    url: row.url,
    request: JSON.parse(row.request) as unknown,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    kickoffDone: row.kickoff_done === 1,
    ...(row.error !== null ? { error: row.error } : {}),
  });
}

const toEntry = (row: ItemRow): FrontierEntry => ({ url: row.url, key: row.key, discoveryDepth: row.discovery_depth });

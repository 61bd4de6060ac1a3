import {
  NotFoundError,
  storedJob,
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
import type { PostgresDatabase } from './postgres-database.js';

interface JobRow {
  id: string;
  kind: string;
  team_id: string;
  status: JobStatus;
  url: string;
  request: string;
  created_at: number;
  expires_at: number;
  kickoff_done: boolean;
  error: string | null;
}

interface ItemRow {
  key: string;
  url: string;
  discovery_depth: number;
  state: ItemState | 'seen';
}

type JobPatch = Partial<Pick<JobRecord, 'status' | 'kickoffDone' | 'error' | 'expiresAt'>>;

const jobColumns = 'id, kind, team_id, status, url, request, created_at, expires_at, kickoff_done, error';

/**
 * JobStore on PostgreSQL (tables of postgres-migrations.ts), shared by every API and worker
 * process. Each method is one statement (a data-modifying CTE or one of the schema's SQL functions)
 * or one short transaction, so the database stays the source of truth whatever happens to a
 * process or to Redis:
 *
 * - `finishItem` is `quarry_finish_item`: the item leaves `queued` (at most once: a concurrent
 *   second delivery waits for the row lock and finds it finished), the document or error is stored,
 *   the job's counters move, the team is charged and the webhook rows are written, in one transaction.
 * - `addItems` is `quarry_add_items`: it locks the job row, so dedup and the limit hold across
 *   processes.
 * - `updateJob` is a compare-and-set UPDATE whose outbox rows are inserted only when it matched.
 */
export class PostgresJobStore implements JobStore {
  constructor(private readonly db: PostgresDatabase) {}

  async createJob(job: JobRecord, outbox?: OutboxEvent[]): Promise<void> {
    await this.db.execute(
      `WITH job AS (
         INSERT INTO jobs (id, kind, team_id, status, url, request, created_at, expires_at, kickoff_done, error)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id
       )
       SELECT quarry_add_outbox($11) FROM job WHERE $11::text IS NOT NULL`,
      [
        job.id,
        job.kind,
        job.teamId,
        job.status,
        job.url,
        JSON.stringify(job.request),
        job.createdAt,
        job.expiresAt,
        job.kickoffDone,
        job.error ?? null,
        outboxJson(outbox),
      ],
    );
  }

  async getJob(id: string): Promise<JobRecord | undefined> {
    const [row] = await this.db.query<JobRow>(`SELECT ${jobColumns} FROM jobs WHERE id = $1`, [id]);
    return row ? toJob(row) : undefined;
  }

  /** The job without its request: no JSON parse nor request check, for the runner's read per page. */
  async jobHead(id: string): Promise<JobHead | undefined> {
    const [row] = await this.db.query<Pick<JobRow, 'status' | 'expires_at' | 'kickoff_done' | 'error'>>(
      'SELECT status, expires_at, kickoff_done, error FROM jobs WHERE id = $1',
      [id],
    );
    if (!row) return undefined;
    return { status: row.status, kickoffDone: row.kickoff_done, expiresAt: row.expires_at, ...(row.error !== null ? { error: row.error } : {}) };
  }

  async updateJob(id: string, patch: JobPatch, expectedStatus?: JobStatus, outbox?: OutboxEvent[]): Promise<boolean> {
    const rows = await this.db.query<{ updated: number }>(
      `WITH updated AS (
         UPDATE jobs SET
           status = CASE WHEN $2::boolean THEN $3 ELSE status END,
           kickoff_done = CASE WHEN $4::boolean THEN $5 ELSE kickoff_done END,
           error = CASE WHEN $6::boolean THEN $7 ELSE error END,
           expires_at = CASE WHEN $8::boolean THEN $9 ELSE expires_at END
         WHERE id = $1
           AND ($10::text IS NULL OR status = $10)
           AND NOT ($2::boolean AND status <> $3 AND status IN ('completed', 'failed', 'cancelled'))
         RETURNING id
       ), outbox AS (
         SELECT quarry_add_outbox($11) FROM updated WHERE $11::text IS NOT NULL
       )
       SELECT (SELECT count(*) FROM updated)::int AS updated, (SELECT count(*) FROM outbox) AS written`,
      [
        id,
        patch.status !== undefined,
        patch.status ?? null,
        patch.kickoffDone !== undefined,
        patch.kickoffDone ?? false,
        'error' in patch,
        patch.error ?? null,
        patch.expiresAt !== undefined,
        patch.expiresAt ?? null,
        expectedStatus ?? null,
        outboxJson(outbox),
      ],
    );
    return rows[0]?.updated === 1;
  }

  async addItems(jobId: string, entries: FrontierEntry[], limit: number): Promise<FrontierEntry[]> {
    if (entries.length === 0) return [];
    const rows = await this.db.query<{ out_key: string; out_url: string; out_depth: number }>('SELECT * FROM quarry_add_items($1, $2, $3, $4, $5)', [
      jobId,
      entries.map((entry) => entry.key),
      entries.map((entry) => entry.url),
      entries.map((entry) => entry.discoveryDepth),
      limit,
    ]);
    return rows.map((row) => ({ url: row.out_url, key: row.out_key, discoveryDepth: row.out_depth }));
  }

  async markSeen(jobId: string, keys: string[]): Promise<string[]> {
    return this.db.transaction(async (client) => {
      // The job row lock orders this with addItems, which checks keys before inserting them.
      if ((await client.execute('SELECT 1 FROM jobs WHERE id = $1 FOR NO KEY UPDATE', [jobId])) === 0) throw unknownJob(jobId);
      if (keys.length === 0) return [];
      const rows = await client.query<{ key: string; ord: number }>(
        `INSERT INTO job_items (job_id, key, url, discovery_depth, state)
         SELECT $1, t.key, '', 0, 'seen' FROM unnest($2::text[]) WITH ORDINALITY AS t(key, ord)
         ON CONFLICT DO NOTHING
         RETURNING key`,
        [jobId, keys],
      );
      const added = new Set(rows.map((row) => row.key));
      return [...new Set(keys)].filter((key) => added.has(key));
    });
  }

  async getItem(jobId: string, key: string): Promise<(FrontierEntry & { state: ItemState }) | undefined> {
    const [row] = await this.db.query<ItemRow>('SELECT key, url, discovery_depth, state FROM job_items WHERE job_id = $1 AND key = $2', [jobId, key]);
    if (!row || row.state === 'seen') return undefined;
    return { ...toEntry(row), state: row.state };
  }

  async finishItem(jobId: string, teamId: string, outcome: PageOutcome): Promise<boolean> {
    const error = outcome.document ? undefined : outcome.error;
    const [row] = await this.db.query<{ finished: boolean }>('SELECT quarry_finish_item($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) AS finished', [
      jobId,
      teamId,
      outcome.key,
      outcome.document ? JSON.stringify(outcome.document) : null,
      error?.url ?? null,
      error?.code ?? null,
      error?.message ?? null,
      outcome.credits,
      outcome.tokens ?? 0,
      outcome.finishedAt,
      outboxJson(outcome.outbox),
    ]);
    return row?.finished === true;
  }

  async cancelItems(jobId: string): Promise<void> {
    await this.db.execute(
      `WITH cancelled AS (
         UPDATE job_items SET state = 'cancelled' WHERE job_id = $1 AND state = 'queued' RETURNING 1
       )
       UPDATE jobs SET pending = pending - (SELECT count(*) FROM cancelled) WHERE id = $1`,
      [jobId],
    );
  }

  async pendingItems(jobId: string): Promise<FrontierEntry[]> {
    const rows = await this.db.query<ItemRow>("SELECT key, url, discovery_depth, state FROM job_items WHERE job_id = $1 AND state = 'queued' ORDER BY seq", [
      jobId,
    ]);
    return rows.map(toEntry);
  }

  async progress(jobId: string): Promise<JobProgress> {
    const [row] = await this.db.query<{ live: number; completed: number; failed: number; pending: number; credits_used: number }>(
      'SELECT live, completed, failed, pending, credits_used FROM jobs WHERE id = $1',
      [jobId],
    );
    if (!row) throw unknownJob(jobId);
    return { total: row.live, completed: row.completed, failed: row.failed, pending: row.pending, creditsUsed: row.credits_used };
  }

  async listDocuments(jobId: string, skip: number, limit: number): Promise<ScrapeDocument[]> {
    if (limit <= 0) return [];
    const rows = await this.db.query<{ document: string }>('SELECT document FROM job_documents WHERE job_id = $1 ORDER BY seq LIMIT $2 OFFSET $3', [
      jobId,
      limit,
      Math.max(0, skip),
    ]);
    return rows.map((row) => JSON.parse(row.document) as ScrapeDocument);
  }

  async listErrors(jobId: string): Promise<JobErrorRecord[]> {
    const rows = await this.db.query<{ seq: number; url: string; code: string | null; message: string; at: number }>(
      'SELECT seq, url, code, message, at FROM job_errors WHERE job_id = $1 ORDER BY seq',
      [jobId],
    );
    return rows.map((row) => ({
      id: `${jobId}:${row.seq}`,
      url: row.url,
      ...(row.code !== null ? { code: row.code } : {}),
      error: row.message,
      timestamp: new Date(row.at).toISOString(),
    }));
  }

  async addRobotsBlocked(jobId: string, urls: string[]): Promise<void> {
    if (urls.length === 0) return;
    await this.db.execute(
      `INSERT INTO job_robots_blocked (job_id, url)
       SELECT $1, t.url FROM unnest($2::text[]) WITH ORDINALITY AS t(url, ord) ORDER BY t.ord
       ON CONFLICT DO NOTHING`,
      [jobId, urls],
    );
  }

  async listRobotsBlocked(jobId: string): Promise<string[]> {
    const rows = await this.db.query<{ url: string }>('SELECT url FROM job_robots_blocked WHERE job_id = $1 ORDER BY seq', [jobId]);
    return rows.map((row) => row.url);
  }

  async listJobs(teamId: string, limit: number): Promise<JobRecord[]> {
    const rows = await this.db.query<JobRow>(`SELECT ${jobColumns} FROM jobs WHERE team_id = $1 ORDER BY created_at DESC, seq DESC LIMIT $2`, [teamId, limit]);
    return rows.map(toJob);
  }

  async listActive(kind: JobKind, teamId?: string): Promise<JobRecord[]> {
    const rows = await this.db.query<JobRow>(
      `SELECT ${jobColumns} FROM jobs WHERE kind = $1 AND status = 'scraping' AND ($2::text IS NULL OR team_id = $2) ORDER BY created_at, seq`,
      [kind, teamId ?? null],
    );
    return rows.map(toJob);
  }

  async getJobState(jobId: string): Promise<JobState | undefined> {
    const [row] = await this.db.query<{ state: string | null; state_step: number }>('SELECT state, state_step FROM jobs WHERE id = $1', [jobId]);
    if (!row || row.state === null) return undefined;
    return { step: row.state_step, value: JSON.parse(row.state) as unknown };
  }

  /** One transaction: the compare-and-set on the step, then (finishing) the status, the charges and the outbox. */
  async saveJobState(jobId: string, teamId: string, state: JobState, finish?: JobFinish): Promise<boolean> {
    return this.db.transaction(async (client) => {
      const saved = await client.execute(
        `UPDATE jobs SET state = $2, state_step = $3,
           status = CASE WHEN $5::text IS NULL THEN status ELSE $5 END,
           error = CASE WHEN $5::text IS NULL THEN error ELSE $6 END,
           credits_used = credits_used + $7
         WHERE id = $1 AND status = 'scraping' AND state_step = $4`,
        [jobId, JSON.stringify(state.value), state.step, state.step - 1, finish?.status ?? null, finish?.error ?? null, finish?.credits ?? 0],
      );
      if (saved === 0) return false;
      if (!finish) return true;
      if (finish.credits > 0)
        await client.query('SELECT quarry_charge($1, $2, $3, $4, NULL, $5)', [teamId, finish.credits, finish.reason, finish.finishedAt, jobId]);
      if (finish.tokens > 0) {
        await client.execute(
          `WITH team AS (UPDATE teams SET tokens_used = tokens_used + $2 WHERE id = $1 RETURNING id)
           INSERT INTO usage (team_id, kind, amount, reason, at, api_key_id, job_id) SELECT id, 'tokens', $2, $3, $4, NULL, $5 FROM team`,
          [teamId, finish.tokens, finish.reason, finish.finishedAt, jobId],
        );
      }
      const outbox = outboxJson(finish.outbox);
      if (outbox) await client.query('SELECT quarry_add_outbox($1)', [outbox]);
      return true;
    });
  }

  /**
   * Deletes finished jobs (not `scraping`) whose `expiresAt` has passed, with their items, documents,
   * errors and robots-blocked URLs; returns how many jobs. Not part of the port.
   */
  async deleteExpired(now: number): Promise<number> {
    return this.db.execute("DELETE FROM jobs WHERE expires_at <= $1 AND status <> 'scraping'", [now]);
  }
}

const unknownJob = (jobId: string) => new NotFoundError(`Job ${jobId} not found`);

const outboxJson = (outbox: OutboxEvent[] | undefined) => (outbox && outbox.length > 0 ? JSON.stringify(outbox) : null);

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
    kickoffDone: row.kickoff_done,
    ...(row.error !== null ? { error: row.error } : {}),
  });
}

const toEntry = (row: ItemRow): FrontierEntry => ({ url: row.url, key: row.key, discoveryDepth: row.discovery_depth });

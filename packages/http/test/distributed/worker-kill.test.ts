import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor, type TestServer } from '@quarry/core/testing';
import { areBackingServicesAvailable, dropIsolated, isolatedEnv } from './backing-services.js';
import { startApiProcess, startWorkerProcess, stopAll, type QuarryProcess } from './quarry-processes.js';
import { json, startCrawl, startTokenSite, tokensOf } from './test-site.js';

/**
 * SIGKILL a worker process in the middle of a crawl served by an API process and two workers on
 * PostgreSQL and Redis: the pages it held return to the queue when their lease ends, another
 * worker takes them, and the crawl completes with every page exactly once and creditsUsed equal to
 * the pages, and the ledger charged each page once (its charge commits with the page, so a
 * redelivered page is charged nothing). Runs the built CLI (npm test builds first).
 */
const available = await areBackingServicesAvailable();
const pageCount = 40;

describe.runIf(available)('a worker stopped mid-crawl', () => {
  const env = { ...isolatedEnv(), QUARRY_LEASE_MS: '3000', QUARRY_RECONCILE_INTERVAL_MS: '1000' };
  const processes: QuarryProcess[] = [];
  let site: TestServer;

  beforeAll(async () => {
    site = await startTokenSite(pageCount, 60);
  });
  afterAll(async () => {
    await stopAll(processes);
    await site?.close();
    await dropIsolated(env);
  });

  it('loses nothing and duplicates nothing when killed (SIGKILL)', async () => {
    const api = await startApiProcess(env);
    processes.push(api);
    const [doomed, survivor] = await Promise.all([startWorkerProcess(env, 3), startWorkerProcess(env, 3)]);
    processes.push(doomed!, survivor!);
    const id = await startCrawl(api.url!, `${site.url}/p/0`);
    await waitFor(async () => (await json(`${api.url}/v2/crawl/${id}`)).completed >= 8, { timeoutMs: 30_000, message: 'first pages' });

    doomed!.child.kill('SIGKILL');
    await doomed!.exited;
    const killedAt = (await json(`${api.url}/v2/crawl/${id}`)).completed as number;
    expect(killedAt).toBeLessThan(pageCount);

    const done = await waitFor(
      async () => {
        const status = await json(`${api.url}/v2/crawl/${id}?limit=1000`);
        return status.status === 'completed' ? status : undefined;
      },
      { timeoutMs: 90_000, message: `crawl completion\n--- survivor:\n${survivor!.output()}` },
    );
    const tokens = tokensOf(done.data);
    expect(new Set(tokens).size).toBe(pageCount);
    expect(tokens).toHaveLength(pageCount);
    expect(done.completed).toBe(pageCount);
    expect(done.creditsUsed).toBe(pageCount);
    expect(await pageChargesOf(id)).toEqual({ rows: pageCount, credits: pageCount });
  }, 150_000);

  /** The ledger's usage rows for the job's pages, read from the isolated schema. */
  async function pageChargesOf(jobId: string) {
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ rows: string; credits: string | null }>(
        `SELECT count(*) AS rows, sum(amount) AS credits FROM ${env.QUARRY_PG_SCHEMA}.usage WHERE job_id = $1 AND kind = 'credits' AND reason = 'page'`,
        [jobId],
      );
      return { rows: Number(rows[0]?.rows), credits: Number(rows[0]?.credits) };
    } finally {
      await client.end();
    }
  }

  it('finishes its pages and exits cleanly on SIGTERM', async () => {
    await stopAll(processes.splice(0));
    const api = await startApiProcess(env);
    const [leaving, staying] = await Promise.all([startWorkerProcess(env, 3), startWorkerProcess(env, 3)]);
    processes.push(api, leaving!, staying!);
    const id = await startCrawl(api.url!, `${site.url}/p/0`);
    await waitFor(async () => (await json(`${api.url}/v2/crawl/${id}`)).completed >= 8, { timeoutMs: 30_000, message: 'first pages' });

    leaving!.child.kill('SIGTERM');
    expect(await leaving!.exited).toBe(0);
    expect(leaving!.output()).toContain('stopped cleanly');

    const done = await waitFor(
      async () => {
        const status = await json(`${api.url}/v2/crawl/${id}?limit=1000`);
        return status.status === 'completed' ? status : undefined;
      },
      { timeoutMs: 90_000, message: 'crawl completion' },
    );
    expect(new Set(tokensOf(done.data)).size).toBe(pageCount);
    expect(done.completed).toBe(pageCount);
    expect(done.creditsUsed).toBe(pageCount);
  }, 150_000);
});

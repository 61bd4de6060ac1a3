import { createServer } from 'node:net';
import pg from 'pg';
import { frontierEntry, jobRecord, pageDocument } from '@quarry/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, PostgresJobStore, PostgresLedger, type PostgresDatabase } from '../src/distributed.js';
import { isPostgresAvailable, openTestDatabase, testDatabaseUrl, uniqueSchema } from './postgres-test-database.js';

// Several processes on one schema: each pool stands for a process with its own connections.
const available = await isPostgresAvailable();

describe.runIf(available)('PostgreSQL shared by several processes', () => {
  const schema = uniqueSchema();
  let owner: Awaited<ReturnType<typeof openTestDatabase>>;
  let pools: PostgresDatabase[];

  beforeAll(async () => {
    owner = await openTestDatabase(schema);
    // Processes starting at once apply the migrations once (an advisory lock orders them).
    pools = await Promise.all([1, 2, 3].map(() => openPostgres({ connectionString: testDatabaseUrl, schema, maxConnections: 3 })));
  });
  afterAll(async () => {
    for (const pool of pools ?? []) await pool.close();
    await owner?.drop();
  });

  it('stores and charges each page exactly once when every process delivers every page', async () => {
    const stores = pools.map((pool) => new PostgresJobStore(pool));
    const ledger = new PostgresLedger(pools[0]!);
    await ledger.ensureTeam('team-a', 'A');
    await ledger.setCredits('team-a', 1_000);
    await stores[0]!.createJob(jobRecord('job-x'));
    const keys = Array.from({ length: 40 }, (_, index) => `p${index}`);
    // Every process offers every link: dedup and the limit hold across them.
    const added = (
      await Promise.all(
        stores.map((store) =>
          store.addItems(
            'job-x',
            keys.map((key) => frontierEntry(key)),
            30,
          ),
        ),
      )
    ).flat();
    expect(added).toHaveLength(30);
    const finished = await Promise.all(
      stores.flatMap((store) =>
        added.map((entry) => store.finishItem('job-x', 'team-a', { key: entry.key, document: pageDocument(entry.key.slice(12)), credits: 1, finishedAt: 1 })),
      ),
    );
    expect(finished.filter(Boolean)).toHaveLength(30);
    expect(await stores[1]!.progress('job-x')).toEqual({ total: 30, completed: 30, failed: 0, pending: 0, creditsUsed: 30 });
    expect(await stores[2]!.listDocuments('job-x', 0, 100)).toHaveLength(30);
    expect(await ledger.getCredits('team-a')).toBe(970);
  });

  it('draws the seq of a page only once no other finish of its job is uncommitted, so pages become visible in seq order', async () => {
    // Readers page by offset in seq order (status pages, the crawl watcher): a page whose seq was
    // drawn before another's but committed after it would be skipped for good.
    const store = new PostgresJobStore(pools[0]!);
    await store.createJob(jobRecord('job-order'));
    await store.addItems('job-order', [frontierEntry('first')], 10);
    const lastSeq = async () => (await owner.query<{ last_value: string }>(`SELECT last_value FROM ${schema}.job_documents_seq_seq`))[0]!.last_value;
    const other = new pg.Client({ connectionString: testDatabaseUrl });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(`SELECT 1 FROM ${schema}.jobs WHERE id = 'job-order' FOR UPDATE`);
      const before = await lastSeq();
      const finishing = store.finishItem('job-order', 'team-a', {
        key: frontierEntry('first').key,
        document: pageDocument('first'),
        credits: 0,
        finishedAt: 1,
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await lastSeq()).toBe(before);
      await other.query('COMMIT');
      expect(await finishing).toBe(true);
      expect(await store.listDocuments('job-order', 0, 10)).toHaveLength(1);
    } finally {
      await other.end();
    }
  });

  it('finishes pages and adds links of one job at once from every process without deadlocks', async () => {
    const stores = pools.map((pool) => new PostgresJobStore(pool));
    await stores[0]!.createJob(jobRecord('job-busy'));
    await stores[0]!.addItems(
      'job-busy',
      Array.from({ length: 60 }, (_, index) => frontierEntry(`seed${index}`)),
      1_000,
    );
    // What a crawl does on many workers: each finished page adds its links, all on one job row.
    const work = Array.from({ length: 60 }, (_, index) => {
      const store = stores[index % stores.length]!;
      return Promise.all([
        store.finishItem('job-busy', 'team-a', {
          key: frontierEntry(`seed${index}`).key,
          document: pageDocument(`seed${index}`),
          credits: 1,
          finishedAt: index,
        }),
        store.addItems('job-busy', [frontierEntry(`link${index}`), frontierEntry(`link${index + 1}`)], 1_000),
      ]);
    });
    await Promise.all(work);
    expect(await stores[0]!.progress('job-busy')).toMatchObject({ completed: 60, total: 121, pending: 61 });
  });

  it('answers an unreachable database with a retryable `unavailable` error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(openPostgres({ connectionString: `postgres://postgres@127.0.0.1:${port}/test`, schema })).rejects.toMatchObject({
      code: 'unavailable',
      retryable: true,
      message: expect.stringMatching(/^The database is unavailable \(.*ECONNREFUSED.*\); retry in a few seconds$/),
    });
  });
});

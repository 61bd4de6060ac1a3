import { StoredJobError, type JobStore } from '@quarry/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PostgresJobStore } from '../src/distributed.js';
import { createSqliteStorage, type SqliteStorage } from '../src/index.js';
import { isPostgresAvailable, openTestDatabase, resetTestDatabase } from './postgres-test-database.js';
import { tempDirs } from './temp-dirs.js';

/**
 * A job's request is stored as JSON text and checked against its kind when the row is read.
 * Rows are written here with SQL, as the database holds them: rows an older Quarry wrote must
 * still read, and a row whose request does not fit its kind is an error naming the job and field.
 */
type RawJob = { id: string; kind: string; request: string };

/** Requests as earlier versions wrote them: a crawl from before crawl prompts (no `prompt`, v1 fields), an extract without a webhook, a monitor check without `previousCheckId`, a kept scrape. */
const oldRows: RawJob[] = [
  {
    id: 'old-crawl',
    kind: 'crawl',
    request:
      '{"version":"v1","options":{"includePaths":[],"excludePaths":["^/private"],"maxDepth":10,"sitemap":"include","ignoreQueryParameters":false,"deduplicateSimilarURLs":true,"limit":25,"crawlEntireDomain":false,"allowExternalLinks":false,"allowSubdomains":false,"delaySeconds":0,"regexOnFullURL":false,"ignoreRobotsTxt":false,"scrapeOptions":{"formats":[{"type":"markdown"}],"onlyMainContent":true}}}',
  },
  {
    id: 'old-extract',
    kind: 'extract',
    request: '{"version":"v1","options":{"urls":["https://example.com/"],"prompt":"the title","limit":10,"scrapeOptions":{"formats":[{"type":"markdown"}]}}}',
  },
  {
    id: 'old-check',
    kind: 'monitor_check',
    request: '{"monitorId":"m-1","trigger":"scheduled","runAt":1700000000000,"targets":[{"id":"t-1","type":"scrape","urls":["https://example.com/"]}]}',
  },
  { id: 'old-scrape', kind: 'scrape', request: '{}' },
];

function describeStoredPayloads(name: string, setup: () => Promise<{ jobs: JobStore; insert(row: RawJob): Promise<void> }>) {
  describe(`stored job payloads: ${name}`, () => {
    it('reads rows an older version wrote, the request as stored', async () => {
      const { jobs, insert } = await setup();
      for (const row of oldRows) await insert(row);
      for (const row of oldRows) expect(await jobs.getJob(row.id)).toMatchObject({ id: row.id, kind: row.kind, request: JSON.parse(row.request) });
      const crawl = await jobs.getJob('old-crawl');
      expect(crawl?.kind === 'crawl' && crawl.request.options.limit).toBe(25);
      expect((await jobs.listActive('crawl')).map((job) => job.id)).toEqual(['old-crawl']);
    });

    it('reports a request that does not fit its kind, naming the job and the field', async () => {
      const { jobs, insert } = await setup();
      await insert({ id: 'bad-crawl', kind: 'crawl', request: '{"version":"v2","options":{"limit":"ten"}}' });
      const error = await jobs.getJob('bad-crawl').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(StoredJobError);
      expect(error).toMatchObject({ code: 'internal', details: { jobId: 'bad-crawl', kind: 'crawl', issues: [{ field: 'request.options.limit' }] } });
      expect((error as Error).message).toBe('Stored job bad-crawl (kind crawl) is malformed: `request.options.limit` must be an integer; got "ten"');
    });

    it('reports a request stored under another kind and a kind it does not know', async () => {
      const { jobs, insert } = await setup();
      await insert({ id: 'crawl-as-check', kind: 'monitor_check', request: '{"version":"v2","options":{"limit":10}}' });
      await insert({ id: 'odd-kind', kind: 'sitemap', request: '{}' });
      await expect(jobs.getJob('crawl-as-check')).rejects.toThrow(
        /^Stored job crawl-as-check \(kind monitor_check\) is malformed: `request.monitorId` is required/,
      );
      await expect(jobs.getJob('odd-kind')).rejects.toThrow(/^Stored job odd-kind \(kind sitemap\) is malformed: `kind` must be one of crawl, /);
    });
  });
}

const dirs = tempDirs();
const opened: SqliteStorage[] = [];
afterEach(() => {
  for (const storage of opened.splice(0)) storage.close();
});
afterAll(() => dirs.removeAll());

describeStoredPayloads('SQLite', async () => {
  const storage = createSqliteStorage({ dataDir: dirs.make() });
  opened.push(storage);
  const statement = storage.db.prepare(
    "INSERT INTO jobs (id, kind, team_id, status, url, request, created_at, expires_at, kickoff_done) VALUES (?, ?, 'team-a', 'scraping', 'https://example.com/', ?, 1700000000000, 1700086400000, 1)",
  );
  return { jobs: storage.jobs, insert: async (row) => void statement.run(row.id, row.kind, row.request) };
});

const postgres = await isPostgresAvailable();
describe.runIf(postgres)('PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  describeStoredPayloads('PostgreSQL', async () => {
    await resetTestDatabase(db);
    return {
      jobs: new PostgresJobStore(db),
      insert: async (row) =>
        void (await db.execute(
          "INSERT INTO jobs (id, kind, team_id, status, url, request, created_at, expires_at, kickoff_done) VALUES ($1, $2, 'team-a', 'scraping', 'https://example.com/', $3, 1700000000000, 1700086400000, true)",
          [row.id, row.kind, row.request],
        )),
    };
  });
});

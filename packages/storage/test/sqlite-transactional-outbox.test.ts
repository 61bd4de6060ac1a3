import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCrawlRequest, type JobRecord, type OutboxEvent, type OutboxPhase } from '@quarry/core';
import { createSqliteStorage, type SqliteStorage } from '../src/index.js';

/** Webhook deliveries are written in the same transaction as the change they report, exactly once. */
let storage: SqliteStorage | undefined;
let dir: string | undefined;

afterEach(async () => {
  storage?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const delivery = (id: string, phase?: OutboxPhase): OutboxEvent => ({
  id,
  jobId: 'job-1',
  teamId: 'team',
  url: 'https://hooks.test/x',
  headers: {},
  body: `{"id":"${id}"}`,
  createdAt: 1,
  ...(phase ? { phase } : {}),
});

describe('transactional outbox', () => {
  it('writes deliveries with createJob, finishItem and updateJob, once, none after the last', async () => {
    dir = await mkdtemp(join(tmpdir(), 'quarry-outbox-'));
    storage = createSqliteStorage({ dataDir: dir });
    const job: JobRecord = {
      id: 'job-1',
      kind: 'crawl',
      teamId: 'team',
      status: 'scraping',
      url: 'https://a.test/',
      request: { version: 'v2', options: parseCrawlRequest('v2', { url: 'https://a.test/' }).options },
      createdAt: 1,
      expiresAt: 10,
      kickoffDone: true,
    };
    await storage.jobs.createJob(job, [delivery('started', 'first')]);
    await storage.jobs.addItems(
      'job-1',
      [
        { url: 'https://a.test/', key: 'a.test/', discoveryDepth: 0 },
        { url: 'https://a.test/late', key: 'a.test/late', discoveryDepth: 1 },
      ],
      10,
    );
    const document = {
      metadata: {
        sourceURL: 'https://a.test/',
        url: 'https://a.test/',
        statusCode: 200,
        scrapeId: 's',
        creditsUsed: 1,
        proxyUsed: 'basic' as const,
        engine: 'http',
      },
    };
    const outcome = { key: 'a.test/', document, credits: 1, finishedAt: 2, outbox: [delivery('page-1')] };
    expect(await storage.jobs.finishItem('job-1', 'team', outcome)).toBe(true);
    expect(await storage.jobs.finishItem('job-1', 'team', { ...outcome, outbox: [delivery('page-again')] })).toBe(false);
    expect(await storage.jobs.updateJob('job-1', { status: 'completed' }, 'scraping', [delivery('completed', 'last')])).toBe(true);
    expect(await storage.jobs.updateJob('job-1', { status: 'completed' }, 'scraping', [delivery('completed-again')])).toBe(false);
    // A page finished after the job ended (it was cancelled or failed meanwhile): stored, not announced.
    expect(await storage.jobs.finishItem('job-1', 'team', { ...outcome, key: 'a.test/late', outbox: [delivery('late-page')] })).toBe(true);
    const written = await storage.outbox.list({ jobId: 'job-1' });
    expect(written.map((entry) => [entry.id, entry.phase ?? 'middle'])).toEqual([
      ['started', 'first'],
      ['page-1', 'middle'],
      ['completed', 'last'],
    ]);
  });
});

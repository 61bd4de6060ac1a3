/**
 * Conformance suite for the JobStore port. Every store runs it once:
 *
 * ```ts
 * describeJobStore('SqliteJobStore', () => {
 *   const storage = createSqliteStorage({ dataDir: tempDir() });
 *   return { jobs: storage.jobs, ledger: storage.ledger };
 * });
 * ```
 *
 * `make` is called before each test and must return an empty store. When the fixture has a
 * `ledger` (the store charges page credits to it in `finishItem`), the suite also checks that the
 * charge happens exactly once per page.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ScrapeDocument } from '../../document.js';
import { parseAgentRequest } from '../../options/agent-options.js';
import { parseCrawlRequest } from '../../options/crawl-options.js';
import { parseDeepResearchRequest } from '../../options/deep-research-options.js';
import { parseExtractRequest } from '../../options/extract-options.js';
import { parseLlmsTxtRequest } from '../../options/llmstxt-options.js';
import { parseScrapeOptions } from '../../options/normalize-scrape-options.js';
import type { FrontierEntry, JobBase, JobFinish, JobKind, JobPayload, JobRecord, JobStore, PageOutcome } from '../job-store.js';
import type { Ledger } from '../ledger.js';

export interface JobStoreFixture {
  jobs: JobStore;
  /** The ledger `finishItem` charges, when the store is bound to one. */
  ledger?: Ledger;
}

const teamId = 'team-a';

/** A job of `kind` (crawl by default) with a request of that kind's shape, as the API writes one. */
export function jobRecord(id: string, overrides: Partial<JobBase> & { kind?: JobKind } = {}): JobRecord {
  const { kind = 'crawl', ...base } = overrides;
  return {
    id,
    teamId,
    status: 'scraping',
    url: 'https://example.com/',
    createdAt: 1_700_000_000_000,
    expiresAt: 1_700_086_400_000,
    kickoffDone: false,
    ...base,
    ...samplePayload(kind),
  };
}

/** A request of each kind, from the same option parsers the routes use. */
export function samplePayload(kind: JobKind): JobPayload {
  const url = 'https://example.com/';
  const webhook = { url: 'https://hooks.example/x' };
  switch (kind) {
    case 'crawl':
      return { kind, request: { version: 'v2', options: parseCrawlRequest('v2', { url, limit: 10, includePaths: ['^/docs'] }).options, webhook } };
    case 'batch_scrape':
      return { kind, request: { version: 'v2', options: parseScrapeOptions('v2', { formats: ['markdown'] }), maxConcurrency: 2, webhook } };
    case 'scrape':
      return { kind, request: {} };
    case 'extract':
      return { kind, request: { version: 'v2', options: parseExtractRequest('v2', { urls: [url], prompt: 'the title' }).options, webhook } };
    case 'deep_research':
      return { kind, request: { version: 'v1', options: parseDeepResearchRequest({ query: 'what is a quarry' }) } };
    case 'llmstxt':
      return { kind, request: { version: 'v1', options: parseLlmsTxtRequest({ url }) } };
    case 'agent':
      return { kind, request: { version: 'v2', options: parseAgentRequest({ prompt: 'find the title', urls: [url] }) } };
    case 'monitor_check':
      return {
        kind,
        request: { monitorId: 'monitor-1', trigger: 'manual', runAt: 1_700_000_000_000, targets: [{ id: 'target-1', type: 'scrape', urls: [url] }] },
      };
  }
}

export function frontierEntry(key: string, discoveryDepth = 1): FrontierEntry {
  return { url: `https://example.com/${key}`, key: `example.com/${key}`, discoveryDepth };
}

export function pageDocument(key: string, credits = 1): ScrapeDocument {
  return {
    markdown: `# Page ${key}\n\nText with “quotes”, 日本語 and emoji 🪨.`,
    links: [`https://example.com/${key}/next`],
    metadata: {
      title: `Page ${key}`,
      sourceURL: `https://example.com/${key}`,
      url: `https://example.com/${key}`,
      statusCode: 200,
      scrapeId: `scrape-${key}`,
      creditsUsed: credits,
      proxyUsed: 'basic',
      engine: 'http',
      'og:title': ['a', 'b'],
    },
  };
}

function success(key: string, credits = 1, finishedAt = 1_700_000_001_000): PageOutcome {
  return { key: `example.com/${key}`, document: pageDocument(key, credits), credits, finishedAt };
}

function failure(key: string, finishedAt = 1_700_000_002_000): PageOutcome {
  return {
    key: `example.com/${key}`,
    error: { code: 'target_failed', message: `Fetching ${key} failed: 503`, url: `https://example.com/${key}` },
    credits: 0,
    finishedAt,
  };
}

const keysOf = (entries: FrontierEntry[]) => entries.map((item) => item.key);

export function describeJobStore(name: string, make: () => JobStoreFixture | Promise<JobStoreFixture>): void {
  describe(`JobStore conformance: ${name}`, () => {
    let store: JobStore;
    let ledger: Ledger | undefined;

    beforeEach(async () => {
      const fixture = await make();
      store = fixture.jobs;
      ledger = fixture.ledger;
      await store.createJob(jobRecord('job-1'));
    });

    describe('jobs', () => {
      it('returns a created job as it was stored, and undefined for an unknown id', async () => {
        expect(await store.getJob('job-1')).toEqual(jobRecord('job-1'));
        expect(await store.getJob('nope')).toBeUndefined();
      });

      it('returns a job of every kind with its request as the API wrote it', async () => {
        const kinds: JobKind[] = ['crawl', 'batch_scrape', 'scrape', 'extract', 'deep_research', 'llmstxt', 'agent', 'monitor_check'];
        for (const kind of kinds) await store.createJob(jobRecord(`job-${kind}`, { kind }));
        for (const kind of kinds) expect(await store.getJob(`job-${kind}`)).toEqual(jobRecord(`job-${kind}`, { kind }));
      });

      it('returns copies: changing a returned job changes nothing stored', async () => {
        const job = (await store.getJob('job-1'))!;
        job.status = 'failed';
        (job.request as { version: string }).version = 'v0';
        expect(await store.getJob('job-1')).toEqual(jobRecord('job-1'));
      });

      it('applies a patch and keeps the other fields', async () => {
        expect(await store.updateJob('job-1', { kickoffDone: true, expiresAt: 5 })).toBe(true);
        expect(await store.getJob('job-1')).toEqual({ ...jobRecord('job-1'), kickoffDone: true, expiresAt: 5 });
        expect(await store.updateJob('job-1', { status: 'failed', error: 'robots.txt unreachable' })).toBe(true);
        expect(await store.getJob('job-1')).toMatchObject({ status: 'failed', error: 'robots.txt unreachable', kickoffDone: true });
      });

      it("reads a job's head as getJob reads those fields, when the store reads heads", async () => {
        if (!store.jobHead) return;
        const head = (job: JobRecord | undefined) =>
          job && { status: job.status, kickoffDone: job.kickoffDone, expiresAt: job.expiresAt, ...(job.error !== undefined ? { error: job.error } : {}) };
        expect(await store.jobHead('job-1')).toEqual(head(await store.getJob('job-1')));
        await store.updateJob('job-1', { kickoffDone: true, expiresAt: 5 });
        expect(await store.jobHead('job-1')).toEqual(head(await store.getJob('job-1')));
        await store.updateJob('job-1', { status: 'cancelled', error: 'stopped elsewhere' });
        expect(await store.jobHead('job-1')).toEqual({ status: 'cancelled', kickoffDone: true, expiresAt: 5, error: 'stopped elsewhere' });
        expect(await store.jobHead('nope')).toBeUndefined();
      });

      it('compares and sets on the expected status', async () => {
        expect(await store.updateJob('job-1', { status: 'completed' }, 'cancelled')).toBe(false);
        expect((await store.getJob('job-1'))?.status).toBe('scraping');
        expect(await store.updateJob('job-1', { status: 'completed' }, 'scraping')).toBe(true);
        expect(await store.updateJob('job-1', { status: 'cancelled' }, 'scraping')).toBe(false);
        expect((await store.getJob('job-1'))?.status).toBe('completed');
      });

      it('lets exactly one of many concurrent compare-and-sets win', async () => {
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, index) => store.updateJob('job-1', { status: index % 2 ? 'completed' : 'cancelled' }, 'scraping')),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
      });

      it('never leaves a terminal status, but still takes other fields', async () => {
        for (const status of ['completed', 'failed', 'cancelled'] as const) {
          await store.createJob(jobRecord(`job-${status}`));
          expect(await store.updateJob(`job-${status}`, { status })).toBe(true);
          expect(await store.updateJob(`job-${status}`, { status: 'scraping' })).toBe(false);
          expect(await store.updateJob(`job-${status}`, { status: status === 'failed' ? 'completed' : 'failed' })).toBe(false);
          expect((await store.getJob(`job-${status}`))?.status).toBe(status);
          expect(await store.updateJob(`job-${status}`, { expiresAt: 42 })).toBe(true);
          expect((await store.getJob(`job-${status}`))?.expiresAt).toBe(42);
        }
      });

      it("lists a team's jobs of every kind and status, newest first, up to a limit", async () => {
        await store.createJob(jobRecord('job-old', { createdAt: 1_600_000_000_000 }));
        await store.createJob(jobRecord('job-batch', { kind: 'batch_scrape', createdAt: 1_800_000_000_000 }));
        await store.createJob(jobRecord('job-done', { createdAt: 1_750_000_000_000 }));
        await store.updateJob('job-done', { status: 'completed' });
        await store.createJob(jobRecord('job-other', { teamId: 'team-b', createdAt: 1_900_000_000_000 }));
        const ids = (jobs: JobRecord[]) => jobs.map((job) => job.id);
        expect(ids(await store.listJobs(teamId, 10))).toEqual(['job-batch', 'job-done', 'job-1', 'job-old']);
        expect(ids(await store.listJobs(teamId, 2))).toEqual(['job-batch', 'job-done']);
        expect(ids(await store.listJobs('team-b', 10))).toEqual(['job-other']);
        expect(await store.listJobs('team-c', 10)).toEqual([]);
        expect((await store.listJobs(teamId, 2))[1]).toEqual({ ...jobRecord('job-done', { createdAt: 1_750_000_000_000 }), status: 'completed' });
      });

      it('answers false when updating an unknown job', async () => {
        expect(await store.updateJob('nope', { status: 'completed' })).toBe(false);
      });

      it('lists the scraping jobs of a kind, oldest first, for one team or all', async () => {
        await store.createJob(jobRecord('job-0', { createdAt: 1_600_000_000_000 }));
        await store.createJob(jobRecord('job-b', { teamId: 'team-b', createdAt: 1_800_000_000_000 }));
        await store.createJob(jobRecord('job-batch', { kind: 'batch_scrape' }));
        await store.createJob(jobRecord('job-done'));
        await store.updateJob('job-done', { status: 'completed' });
        const ids = (jobs: JobRecord[]) => jobs.map((job) => job.id);
        expect(ids(await store.listActive('crawl'))).toEqual(['job-0', 'job-1', 'job-b']);
        expect(ids(await store.listActive('crawl', teamId))).toEqual(['job-0', 'job-1']);
        expect(ids(await store.listActive('crawl', 'team-c'))).toEqual([]);
        expect(ids(await store.listActive('batch_scrape'))).toEqual(['job-batch']);
        expect((await store.listActive('crawl', 'team-b'))[0]).toEqual(jobRecord('job-b', { teamId: 'team-b', createdAt: 1_800_000_000_000 }));
      });
    });

    describe('items', () => {
      it('adds new keys in order, skips keys already seen (in the call and before), and returns what it added', async () => {
        const added = await store.addItems('job-1', [frontierEntry('a'), frontierEntry('b'), frontierEntry('a'), frontierEntry('c', 0)], 100);
        expect(added).toEqual([frontierEntry('a'), frontierEntry('b'), frontierEntry('c', 0)]);
        expect(await store.addItems('job-1', [frontierEntry('b'), frontierEntry('d'), frontierEntry('c')], 100)).toEqual([frontierEntry('d')]);
        expect(keysOf(await store.pendingItems('job-1'))).toEqual(keysOf([frontierEntry('a'), frontierEntry('b'), frontierEntry('c'), frontierEntry('d')]));
        expect(await store.getItem('job-1', frontierEntry('c').key)).toEqual({ ...frontierEntry('c', 0), state: 'queued' });
        expect(await store.getItem('job-1', 'example.com/zzz')).toBeUndefined();
      });

      it('keeps dedup keys per job', async () => {
        await store.createJob(jobRecord('job-2'));
        expect(await store.addItems('job-1', [frontierEntry('a')], 10)).toHaveLength(1);
        expect(await store.addItems('job-2', [frontierEntry('a')], 10)).toHaveLength(1);
      });

      it('stops at the limit of live items', async () => {
        expect(keysOf(await store.addItems('job-1', [frontierEntry('a'), frontierEntry('b'), frontierEntry('c')], 2))).toEqual(
          keysOf([frontierEntry('a'), frontierEntry('b')]),
        );
        expect(await store.addItems('job-1', [frontierEntry('d')], 2)).toEqual([]);
        // A key refused by the limit was not recorded as seen: it can come in once a slot frees.
        expect(await store.getItem('job-1', frontierEntry('c').key)).toBeUndefined();
        expect((await store.progress('job-1')).total).toBe(2);
      });

      it('never exceeds the limit nor adds a key twice under concurrent calls', async () => {
        const calls = Array.from({ length: 12 }, (_, call) =>
          store.addItems(
            'job-1',
            Array.from({ length: 20 }, (_, index) => frontierEntry(`p${(call * 7 + index) % 40}`)),
            30,
          ),
        );
        const added = (await Promise.all(calls)).flat();
        const keys = keysOf(added);
        expect(new Set(keys).size).toBe(keys.length);
        expect(keys).toHaveLength(30);
        expect((await store.progress('job-1')).total).toBe(30);
        expect(await store.pendingItems('job-1')).toHaveLength(30);
      });

      it('marks keys seen without queuing them, answering which were new', async () => {
        await store.addItems('job-1', [frontierEntry('a')], 10);
        expect(await store.markSeen('job-1', [frontierEntry('a').key, frontierEntry('r').key, frontierEntry('r').key, frontierEntry('s').key])).toEqual([
          frontierEntry('r').key,
          frontierEntry('s').key,
        ]);
        expect(await store.markSeen('job-1', [frontierEntry('r').key])).toEqual([]);
        expect(await store.getItem('job-1', frontierEntry('r').key)).toBeUndefined();
        expect(await store.addItems('job-1', [frontierEntry('r'), frontierEntry('t')], 10)).toEqual([frontierEntry('t')]);
        expect((await store.progress('job-1')).total).toBe(2);
      });

      it('rejects items for an unknown job', async () => {
        await expect(store.addItems('nope', [frontierEntry('a')], 10)).rejects.toThrow();
      });
    });

    describe('results', () => {
      it('finishes an item exactly once', async () => {
        await store.addItems('job-1', [frontierEntry('a')], 10);
        expect(await store.finishItem('job-1', teamId, success('a', 2))).toBe(true);
        expect(await store.finishItem('job-1', teamId, success('a', 2))).toBe(false);
        expect(await store.finishItem('job-1', teamId, failure('a'))).toBe(false);
        expect(await store.getItem('job-1', frontierEntry('a').key)).toMatchObject({ state: 'done' });
        expect(await store.listDocuments('job-1', 0, 10)).toEqual([pageDocument('a', 2)]);
        expect(await store.progress('job-1')).toEqual({ total: 1, completed: 1, failed: 0, pending: 0, creditsUsed: 2 });
      });

      it('finishes exactly once under concurrent deliveries of the same page', async () => {
        await store.addItems('job-1', [frontierEntry('a')], 10);
        const results = await Promise.all(
          Array.from({ length: 6 }, (_, index) => store.finishItem('job-1', teamId, index % 2 ? failure('a') : success('a', 3))),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        const progress = await store.progress('job-1');
        expect(progress.completed + progress.failed).toBe(1);
        expect(progress.pending).toBe(0);
      });

      it('refuses to finish unknown, never-added or cancelled items', async () => {
        expect(await store.finishItem('job-1', teamId, success('ghost'))).toBe(false);
        await store.markSeen('job-1', [frontierEntry('seen').key]);
        expect(await store.finishItem('job-1', teamId, success('seen'))).toBe(false);
        await store.addItems('job-1', [frontierEntry('a')], 10);
        await store.cancelItems('job-1');
        expect(await store.finishItem('job-1', teamId, success('a'))).toBe(false);
        expect(await store.listDocuments('job-1', 0, 10)).toEqual([]);
        expect((await store.progress('job-1')).creditsUsed).toBe(0);
      });

      it('records a failure as an error, and frees its slot of the limit', async () => {
        await store.addItems('job-1', [frontierEntry('a'), frontierEntry('b')], 2);
        expect(await store.finishItem('job-1', teamId, failure('a', 1_700_000_000_500))).toBe(true);
        expect(await store.getItem('job-1', frontierEntry('a').key)).toMatchObject({ state: 'failed' });
        expect(await store.progress('job-1')).toEqual({ total: 1, completed: 0, failed: 1, pending: 1, creditsUsed: 0 });
        expect(keysOf(await store.addItems('job-1', [frontierEntry('a'), frontierEntry('c'), frontierEntry('d')], 2))).toEqual([frontierEntry('c').key]);
        const errors = await store.listErrors('job-1');
        expect(errors).toEqual([
          {
            id: expect.any(String),
            url: 'https://example.com/a',
            code: 'target_failed',
            error: 'Fetching a failed: 503',
            timestamp: new Date(1_700_000_000_500).toISOString(),
          },
        ]);
      });

      it('records no error for a silent failure (raced redirect), but still frees the slot', async () => {
        await store.addItems('job-1', [frontierEntry('a')], 1);
        expect(await store.finishItem('job-1', teamId, { key: frontierEntry('a').key, credits: 0, finishedAt: 1 })).toBe(true);
        expect(await store.listErrors('job-1')).toEqual([]);
        expect(await store.progress('job-1')).toEqual({ total: 0, completed: 0, failed: 1, pending: 0, creditsUsed: 0 });
        expect(await store.addItems('job-1', [frontierEntry('b')], 1)).toHaveLength(1);
      });

      it('keeps errors in the order they happened, with distinct ids', async () => {
        await store.addItems('job-1', [frontierEntry('a'), frontierEntry('b'), frontierEntry('c')], 10);
        await store.finishItem('job-1', teamId, failure('c'));
        await store.finishItem('job-1', teamId, failure('a'));
        const errors = await store.listErrors('job-1');
        expect(errors.map((error) => error.url)).toEqual(['https://example.com/c', 'https://example.com/a']);
        expect(new Set(errors.map((error) => error.id)).size).toBe(2);
      });

      it('lists documents in completion order, with skip and limit', async () => {
        const keys = ['a', 'b', 'c', 'd', 'e'];
        await store.addItems(
          'job-1',
          keys.map((key) => frontierEntry(key)),
          10,
        );
        for (const key of ['c', 'a', 'e', 'b']) await store.finishItem('job-1', teamId, success(key));
        await store.finishItem('job-1', teamId, failure('d'));
        const urls = (documents: ScrapeDocument[]) => documents.map((document) => document.metadata.url.slice('https://example.com/'.length));
        expect(urls(await store.listDocuments('job-1', 0, 100))).toEqual(['c', 'a', 'e', 'b']);
        expect(urls(await store.listDocuments('job-1', 1, 2))).toEqual(['a', 'e']);
        if (store.listDocumentTexts) {
          // The texts, where a store hands them out, are the same documents as JSON, in the same order.
          const texts = await store.listDocumentTexts('job-1', 1, 2);
          expect(texts).toEqual((await store.listDocuments('job-1', 1, 2)).map((document) => JSON.stringify(document)));
          expect(await store.listDocumentTexts('job-1', 0, 0)).toEqual([]);
        }
        expect(urls(await store.listDocuments('job-1', 3, 10))).toEqual(['b']);
        expect(await store.listDocuments('job-1', 4, 10)).toEqual([]);
        expect(await store.listDocuments('job-1', 0, 0)).toEqual([]);
        expect((await store.listDocuments('job-1', 0, 1))[0]).toEqual(pageDocument('c'));
      });

      it('keeps each job its own documents and progress', async () => {
        await store.createJob(jobRecord('job-2'));
        await store.addItems('job-1', [frontierEntry('a')], 10);
        await store.addItems('job-2', [frontierEntry('a'), frontierEntry('b')], 10);
        await store.finishItem('job-2', teamId, success('b', 5));
        expect(await store.listDocuments('job-1', 0, 10)).toEqual([]);
        expect(await store.progress('job-1')).toEqual({ total: 1, completed: 0, failed: 0, pending: 1, creditsUsed: 0 });
        expect(await store.progress('job-2')).toEqual({ total: 2, completed: 1, failed: 0, pending: 1, creditsUsed: 5 });
      });

      it('counts progress through a whole crawl', async () => {
        await store.addItems(
          'job-1',
          ['a', 'b', 'c', 'd'].map((key) => frontierEntry(key)),
          10,
        );
        await store.finishItem('job-1', teamId, success('a', 1));
        await store.finishItem('job-1', teamId, success('b', 5));
        await store.finishItem('job-1', teamId, failure('c'));
        expect(await store.progress('job-1')).toEqual({ total: 3, completed: 2, failed: 1, pending: 1, creditsUsed: 6 });
        await store.cancelItems('job-1');
        expect(await store.progress('job-1')).toEqual({ total: 3, completed: 2, failed: 1, pending: 0, creditsUsed: 6 });
        expect(await store.getItem('job-1', frontierEntry('d').key)).toMatchObject({ state: 'cancelled' });
        expect(await store.getItem('job-1', frontierEntry('a').key)).toMatchObject({ state: 'done' });
        expect(await store.pendingItems('job-1')).toEqual([]);
      });

      it('lists pending items as frontier entries', async () => {
        await store.addItems('job-1', [frontierEntry('a', 0), frontierEntry('b', 2), frontierEntry('c', 3)], 10);
        await store.finishItem('job-1', teamId, success('b'));
        expect(await store.pendingItems('job-1')).toEqual([frontierEntry('a', 0), frontierEntry('c', 3)]);
      });

      it('charges the credits of each finished page to the team exactly once', async (context) => {
        if (!ledger) return context.skip('this store is not bound to a ledger');
        await ledger.ensureTeam(teamId, 'Team A');
        await ledger.setCredits(teamId, 10);
        await store.addItems('job-1', [frontierEntry('a'), frontierEntry('b'), frontierEntry('c')], 10);
        await store.finishItem('job-1', teamId, success('a', 3));
        await store.finishItem('job-1', teamId, success('a', 3));
        await store.finishItem('job-1', teamId, failure('b'));
        expect(await ledger.getCredits(teamId)).toBe(7);
        await store.finishItem('job-1', teamId, success('c', 9));
        expect(await ledger.getCredits(teamId)).toBe(0);
        expect((await store.progress('job-1')).creditsUsed).toBe(12);
        const usage = await ledger.listUsage(teamId, { kind: 'credits' });
        expect(usage.map((row) => [row.amount, row.jobId])).toEqual([
          [3, 'job-1'],
          [7, 'job-1'],
        ]);
      });

      it('leaves an unlimited team unlimited', async (context) => {
        if (!ledger) return context.skip('this store is not bound to a ledger');
        await ledger.ensureTeam(teamId, 'Team A');
        await store.addItems('job-1', [frontierEntry('a')], 10);
        await store.finishItem('job-1', teamId, success('a', 5));
        expect(await ledger.getCredits(teamId)).toBeNull();
      });
    });

    describe('agent job state', () => {
      const finish = (overrides: Partial<JobFinish> = {}): JobFinish => ({
        status: 'completed',
        credits: 4,
        tokens: 1_500,
        reason: 'extract',
        finishedAt: 1_700_000_003_000,
        ...overrides,
      });

      beforeEach(async () => {
        await store.createJob(jobRecord('agent-1', { kind: 'extract', kickoffDone: true }));
      });

      it('has no state before the first step, and keeps each saved state with its step', async () => {
        expect(await store.getJobState('agent-1')).toBeUndefined();
        expect(await store.getJobState('nope')).toBeUndefined();
        const value = { phase: 'scrape', urls: ['https://example.com/a'], text: '日本語 🪨' };
        expect(await store.saveJobState('agent-1', teamId, { step: 1, value })).toBe(true);
        expect(await store.getJobState('agent-1')).toEqual({ step: 1, value });
        expect(await store.saveJobState('agent-1', teamId, { step: 2, value: { phase: 'extract' } })).toBe(true);
        expect(await store.getJobState('agent-1')).toEqual({ step: 2, value: { phase: 'extract' } });
        expect((await store.getJob('agent-1'))?.status).toBe('scraping');
      });

      it('saves a step once: a repeated or skipped step is refused', async () => {
        expect(await store.saveJobState('agent-1', teamId, { step: 2, value: 'skipped' })).toBe(false);
        expect(await store.saveJobState('agent-1', teamId, { step: 1, value: 'first' })).toBe(true);
        expect(await store.saveJobState('agent-1', teamId, { step: 1, value: 'again' })).toBe(false);
        expect(await store.getJobState('agent-1')).toEqual({ step: 1, value: 'first' });
        expect(await store.saveJobState('nope', teamId, { step: 1, value: 'x' })).toBe(false);
      });

      it('lets exactly one of many concurrent savers of a step win', async () => {
        const results = await Promise.all(Array.from({ length: 8 }, (_, index) => store.saveJobState('agent-1', teamId, { step: 1, value: index })));
        expect(results.filter(Boolean)).toHaveLength(1);
        expect((await store.getJobState('agent-1'))?.value).toBe(results.indexOf(true));
      });

      it('finishes with the last state, and saves nothing once the job is terminal', async () => {
        expect(await store.saveJobState('agent-1', teamId, { step: 1, value: { data: { name: 'Quarry' } } }, finish())).toBe(true);
        expect(await store.getJob('agent-1')).toMatchObject({ status: 'completed' });
        expect((await store.progress('agent-1')).creditsUsed).toBe(4);
        expect(await store.saveJobState('agent-1', teamId, { step: 2, value: 'late' })).toBe(false);
        expect(await store.getJobState('agent-1')).toEqual({ step: 1, value: { data: { name: 'Quarry' } } });
        await store.createJob(jobRecord('agent-2', { kind: 'llmstxt' }));
        expect(
          await store.saveJobState(
            'agent-2',
            teamId,
            { step: 1, value: null },
            finish({ status: 'failed', error: 'model unreachable', credits: 0, tokens: 0 }),
          ),
        ).toBe(true);
        expect(await store.getJob('agent-2')).toMatchObject({ status: 'failed', error: 'model unreachable' });
        await store.createJob(jobRecord('agent-3', { kind: 'deep_research' }));
        expect(await store.updateJob('agent-3', { status: 'cancelled' })).toBe(true);
        expect(await store.saveJobState('agent-3', teamId, { step: 1, value: 'x' })).toBe(false);
      });

      it('charges credits and records tokens when it finishes, exactly once', async (context) => {
        if (!ledger) return context.skip('this store is not bound to a ledger');
        await ledger.ensureTeam(teamId, 'Team A');
        await ledger.setCredits(teamId, 10);
        const before = (await ledger.getTeam(teamId))!.tokensUsed;
        expect(await store.saveJobState('agent-1', teamId, { step: 1, value: 'working' })).toBe(true);
        expect(await ledger.getCredits(teamId)).toBe(10);
        expect(await store.saveJobState('agent-1', teamId, { step: 2, value: 'done' }, finish())).toBe(true);
        expect(await store.saveJobState('agent-1', teamId, { step: 2, value: 'done' }, finish())).toBe(false);
        expect(await ledger.getCredits(teamId)).toBe(6);
        expect((await ledger.getTeam(teamId))!.tokensUsed).toBe(before + 1_500);
        const usage = await ledger.listUsage(teamId);
        expect(usage.map((row) => [row.kind, row.amount, row.reason, row.jobId])).toEqual([
          ['credits', 4, 'extract', 'agent-1'],
          ['tokens', 1_500, 'extract', 'agent-1'],
        ]);
      });
    });

    describe('robots-blocked URLs', () => {
      it('keeps them once each, in the order they came', async () => {
        await store.addRobotsBlocked('job-1', ['https://example.com/private', 'https://example.com/admin']);
        await store.addRobotsBlocked('job-1', ['https://example.com/private', 'https://example.com/z']);
        expect(await store.listRobotsBlocked('job-1')).toEqual(['https://example.com/private', 'https://example.com/admin', 'https://example.com/z']);
        await store.createJob(jobRecord('job-2'));
        expect(await store.listRobotsBlocked('job-2')).toEqual([]);
      });
    });
  });
}

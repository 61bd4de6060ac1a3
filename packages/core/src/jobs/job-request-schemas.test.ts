import { describe, expect, it } from 'vitest';
import { MemoryJobStore } from '../memory/memory-job-store.js';
import type { JobRecord } from '../ports/job-store.js';
import { jobRecord } from '../ports/testing/job-store-suite.js';
import { StoredJobError, storedJob } from './job-request-schemas.js';

/** A job as a store might hold it after a bug or a hand edit: any kind, any request. */
const raw = (kind: string, request: unknown) => ({ ...jobRecord('job-7'), kind, request });

describe('storedJob', () => {
  it('passes a request of its kind through, unknown fields included (rows of older versions)', () => {
    const job = jobRecord('job-7');
    const request = { ...job.request, addedByAnOlderVersion: true };
    expect(storedJob({ ...job, request })).toEqual({ ...job, request });
  });

  it('names the job, its kind and every field that does not fit', () => {
    const error = (() => {
      try {
        return storedJob(raw('llmstxt', { version: 'v2', options: { url: 'https://example.com/' } }));
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(StoredJobError);
    expect(error).toMatchObject({ code: 'internal', details: { jobId: 'job-7', kind: 'llmstxt' } });
    expect((error as StoredJobError).issues.map((issue) => issue.field)).toEqual(['request.version', 'request.options.maxUrls']);
    expect((error as Error).message).toContain('Stored job job-7 (kind llmstxt) is malformed: ');
  });

  it('refuses a request that is not an object and a kind it does not know', () => {
    expect(() => storedJob(raw('crawl', null))).toThrow('Stored job job-7 (kind crawl) is malformed: `request` must be an object');
    expect(() => storedJob(raw('crawl', ['v2']))).toThrow(StoredJobError);
    expect(() => storedJob(raw('screenshot', {}))).toThrow(
      /`kind` must be one of crawl, batch_scrape, scrape, extract, deep_research, llmstxt, agent, monitor_check; got "screenshot"/,
    );
  });

  it('is what MemoryJobStore checks a job with before keeping it', async () => {
    const store = new MemoryJobStore();
    const misfit = raw('monitor_check', { version: 'v2', options: { limit: 10 } }) as JobRecord;
    await expect(store.createJob(misfit)).rejects.toThrow(/^Stored job job-7 \(kind monitor_check\) is malformed: `request.monitorId` is required/);
    expect(await store.getJob('job-7')).toBeUndefined();
  });
});

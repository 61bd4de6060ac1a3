import { describe, expect, it } from 'vitest';
import { MemoryJobStore } from '../memory/memory-job-store.js';
import { MemoryQueue } from '../memory/memory-queue.js';
import { parseScrapeOptions } from '../options/normalize-scrape-options.js';
import { randomIds, systemClock } from '../ports/clock.js';
import type { FrontierEntry } from '../ports/job-store.js';
import { JobRunner } from './job-runner.js';
import { JobService } from './job-service.js';
import { PageWorker } from './page-worker.js';

/**
 * A batch being started is not complete: another process's reconciler may settle the job between
 * the job row and its items (the distributed mode runs one every few seconds). It must find the
 * job still starting, not "completed with no pages".
 */
class SlowItemsStore extends MemoryJobStore {
  beforeItems: (jobId: string) => Promise<void> = async () => undefined;

  override async addItems(jobId: string, entries: FrontierEntry[], limit: number) {
    await this.beforeItems(jobId);
    return super.addItems(jobId, entries, limit);
  }
}

describe('starting a batch', () => {
  it('cannot be completed by a settle that runs before its items are stored', async () => {
    const jobs = new SlowItemsStore();
    const queue = new MemoryQueue(systemClock, randomIds);
    const events = async () => undefined;
    const worker = new PageWorker({
      jobs,
      queue,
      fetcher: { name: 'unused', fetch: async () => Promise.reject(new Error('not fetched in this test')) },
      clock: systemClock,
      ids: randomIds,
      scrape: async () => Promise.reject(new Error('not scraped in this test')),
      events,
      robotsTokens: ['QuarryBot'],
    });
    const runner = new JobRunner({ jobs, queue, worker, clock: systemClock, events });
    const service = new JobService({ jobs, queue, clock: systemClock, ids: randomIds, events });
    jobs.beforeItems = async (jobId) => {
      await runner.settle(jobId); // what a reconciler in another process may do at this moment
      expect((await jobs.getJob(jobId))?.status).toBe('scraping');
    };
    const job = await service.startBatch({
      teamId: 't',
      urls: ['https://a.example/1', 'https://a.example/2'],
      options: parseScrapeOptions('v2', {}),
      version: 'v2',
    });
    expect(job.kickoffDone).toBe(true);
    expect((await jobs.getJob(job.id))?.status).toBe('scraping');
    expect((await jobs.progress(job.id)).pending).toBe(2);
  });
});

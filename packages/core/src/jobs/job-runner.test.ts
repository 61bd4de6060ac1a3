import { describe, expect, it } from 'vitest';
import { MemoryJobStore } from '../memory/memory-job-store.js';
import { MemoryQueue } from '../memory/memory-queue.js';
import { systemClock } from '../ports/clock.js';
import type { JobRecord } from '../ports/job-store.js';
import type { LeasedMessage, Queue } from '../ports/queue.js';
import { queueMessage } from '../ports/testing/queue-suite.js';
import { JobRunner } from './job-runner.js';
import type { PageWorker } from './page-worker.js';

const job: JobRecord = {
  id: 'job-1',
  kind: 'batch_scrape',
  teamId: 'team-a',
  status: 'scraping',
  url: 'https://example.com/',
  request: { version: 'v2', urls: [], options: {} } as never,
  createdAt: 1,
  expiresAt: Number.MAX_SAFE_INTEGER,
  kickoffDone: false,
};

/** A page worker whose pages end when the test says so: enough to watch what the runner leases and acks. */
function heldWorker() {
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  const worker = {
    pacing: async () => ({ maxConcurrency: undefined, delaySeconds: 0 }),
    handle: (_job: JobRecord, message: LeasedMessage) => {
      started.push(message.key);
      return new Promise<boolean>((resolve) => finish.set(message.key, () => resolve(false)));
    },
    addFinalPages: async () => false,
    forget: () => undefined,
  } as unknown as PageWorker;
  return { worker, started, finish: (key: string) => finish.get(key)!() };
}

async function until(check: () => boolean | Promise<boolean>) {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('JobRunner leaseAhead', () => {
  it('leases more than its free slots in one call, works the extra as slots free, and gives back the rest at stop', async () => {
    const jobs = new MemoryJobStore();
    await jobs.createJob(job);
    const memory = new MemoryQueue();
    const leaseCalls: number[] = [];
    const queue: Queue = Object.assign(Object.create(memory) as Queue, {
      lease: async (max: number, leaseMs: number) => {
        leaseCalls.push(max);
        return memory.lease(max, leaseMs);
      },
    });
    await queue.enqueue(['a', 'b', 'c', 'd', 'e'].map((key) => queueMessage(key)));
    const { worker, started, finish } = heldWorker();
    const runner = new JobRunner(
      { jobs, queue, worker, clock: systemClock, events: async () => undefined },
      { concurrency: 2, perHostConcurrency: 2, leaseMs: 60_000, leaseAhead: 2 },
    );
    runner.start();
    await until(() => started.length === 2);
    expect(leaseCalls).toEqual([4]); // two slots and two ahead
    expect(await memory.depth()).toEqual({ waiting: 1, active: 4 });
    finish('a');
    await until(() => started.length === 3);
    expect(started).toEqual(['a', 'b', 'c']);
    expect(leaseCalls).toEqual([4]); // 'c' came from the runner, not the queue
    const stopped = runner.stop();
    finish('b');
    finish('c');
    await stopped;
    // a, b and c done and acked; d, leased ahead and never started, is given back, its delivery not counted.
    expect(await memory.depth()).toEqual({ waiting: 2, active: 0 });
    expect((await memory.lease(10, 1_000)).map((message) => [message.key, message.attempts]).sort()).toEqual([
      ['d', 0],
      ['e', 0],
    ]);
  });
});

describe('JobRunner job reads', () => {
  it('reads a job whole once, then its head per page, and sees a cancel made elsewhere', async () => {
    const jobs = new MemoryJobStore();
    await jobs.createJob(job);
    const reads = { getJob: 0, jobHead: 0 };
    const counted = Object.assign(Object.create(jobs) as MemoryJobStore, {
      getJob: (id: string) => {
        reads.getJob++;
        return jobs.getJob(id);
      },
      jobHead: (id: string) => {
        reads.jobHead++;
        return jobs.jobHead(id);
      },
    });
    const queue = new MemoryQueue();
    await queue.enqueue(['a', 'b', 'c'].map((key) => queueMessage(key)));
    const handed: JobRecord[] = [];
    const { worker, started, finish } = heldWorker();
    const handle = worker.handle.bind(worker);
    worker.handle = (handedJob, message, signal) => {
      handed.push(handedJob);
      return handle(handedJob, message, signal);
    };
    const runner = new JobRunner(
      { jobs: counted, queue, worker, clock: systemClock, events: async () => undefined },
      { concurrency: 1, perHostConcurrency: 1, leaseMs: 60_000 },
    );
    runner.start();
    await until(() => started.length === 1);
    // Another process changes the job (its kickoff not done, so no page settles it), then this page ends.
    await jobs.updateJob(job.id, { expiresAt: 123_456 });
    finish('a');
    await until(() => started.length === 2);
    expect(handed[1]).toEqual({ ...job, expiresAt: 123_456 }); // the head read now, the rest as created
    // Another process cancels the job (no abortJob here): the next page is dropped, not worked.
    await jobs.updateJob(job.id, { status: 'cancelled' });
    finish('b');
    await until(async () => {
      const depth = await queue.depth();
      return depth.waiting + depth.active === 0;
    });
    await runner.stop();
    expect(started).toEqual(['a', 'b']);
    // Whole reads: a's dispatch, and c's (a cancelled job leaves the cache); heads: b's dispatch and both settles.
    expect(reads).toEqual({ getJob: 2, jobHead: 3 });
  });
});

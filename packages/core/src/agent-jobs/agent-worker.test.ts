import { describe, expect, it } from 'vitest';
import type { JobEvent } from '../jobs/job-events.js';
import { JobService } from '../jobs/job-service.js';
import { MemoryJobStore } from '../memory/memory-job-store.js';
import { MemoryQueue } from '../memory/memory-queue.js';
import { parseLlmsTxtRequest } from '../options/llmstxt-options.js';
import { randomIds } from '../ports/clock.js';
import { ManualClock } from '../ports/testing/manual-clock.js';
import type { AgentProgram } from './agent-program.js';
import { AgentWorker, reconcileAgentJobs } from './agent-worker.js';

/** A program of three steps that records each run; the third finishes with the runs it saw. */
function counting(runs: number[]): AgentProgram<{ steps: number }> {
  return {
    kind: 'llmstxt',
    initial: () => ({ steps: 0 }),
    step: async (_context, state) => {
      const next = { steps: state.steps + 1 };
      runs.push(next.steps);
      return { state: next, done: next.steps === 3 };
    },
  };
}

/** One step that spends 3,000 model tokens (200 credits) and, with a limit, says the job may cost at most `limit`. */
function spending(limit: number | undefined): AgentProgram<{ done: boolean }> {
  return {
    kind: 'llmstxt',
    initial: () => ({ done: false }),
    step: async (context) => {
      context.usage.tokens += 3_000;
      return { state: { done: true }, done: true };
    },
    ...(limit === undefined ? {} : { creditLimit: () => limit }),
  };
}

async function setup(program?: AgentProgram<any>) {
  const clock = new ManualClock();
  const jobs = new MemoryJobStore();
  const queue = new MemoryQueue(clock);
  const events: JobEvent[] = [];
  const runs: number[] = [];
  const worker = new AgentWorker({
    jobs,
    queue,
    clock,
    events: (event) => void events.push(event),
    programs: { llmstxt: program ?? counting(runs) },
    scrape: async () => {
      throw new Error('no pages in this test');
    },
    map: async () => [],
    stepBudgetMs: 1_000,
  });
  const service = new JobService({ jobs, queue, clock, ids: randomIds, events: (event) => void events.push(event) });
  const job = await service.startAgentJob({
    kind: 'llmstxt',
    teamId: 'team',
    url: 'https://site.test/',
    request: { version: 'v1', options: parseLlmsTxtRequest({ url: 'https://site.test/' }) },
  });
  return { jobs, queue, worker, job, events, runs };
}

describe('AgentWorker', () => {
  it('runs a job step by step, one message per step, and completes it once', async () => {
    const { jobs, queue, worker, job, events, runs } = await setup();
    for (let turn = 0; turn < 5; turn++) {
      const [message] = await queue.lease(1, 60_000);
      if (!message) break;
      await worker.handle((await jobs.getJob(job.id))!, message, new AbortController().signal);
      await queue.ack(message);
    }
    expect(runs).toEqual([1, 2, 3]);
    expect(await jobs.getJob(job.id)).toMatchObject({ status: 'completed' });
    expect(await jobs.getJobState(job.id)).toEqual({ step: 3, value: { usage: { tokens: 0 }, program: { steps: 3 }, charged: { credits: 0, tokens: 0 } } });
    expect(events.map((event) => event.type)).toEqual(['started', 'completed']);
    expect(await queue.depth()).toEqual({ waiting: 0, active: 0 });
  });

  it('runs a step delivered twice once: the second delivery only queues the next step', async () => {
    const { jobs, queue, worker, job, runs } = await setup();
    const [first] = await queue.lease(1, 60_000);
    await worker.handle(job, first!, new AbortController().signal);
    await worker.handle(job, first!, new AbortController().signal);
    await queue.ack(first!);
    expect(runs).toEqual([1]);
    expect((await jobs.getJobState(job.id))?.step).toBe(1);
    const [second] = await queue.lease(1, 60_000);
    expect(second?.key).toBe('~step:2');
  });

  it('offers the next step of every running agent job when reconciling', async () => {
    const { jobs, queue, worker, job } = await setup();
    const [first] = await queue.lease(1, 60_000);
    await worker.handle(job, first!, new AbortController().signal);
    await queue.removeJob(job.id); // the queue lost its messages
    expect(await reconcileAgentJobs(jobs, queue)).toBe(1);
    const [again] = await queue.lease(1, 60_000);
    expect(again?.key).toBe('~step:2');
  });

  it.each([
    [undefined, 200],
    [50, 50],
  ])("charges what the job used, never past the program's credit limit (%s)", async (limit, credits) => {
    const { jobs, queue, worker, job } = await setup(spending(limit));
    const [message] = await queue.lease(1, 60_000);
    await worker.handle(job, message!, new AbortController().signal);
    expect(await jobs.getJob(job.id)).toMatchObject({ status: 'completed' });
    expect((await jobs.getJobState(job.id))?.value).toMatchObject({ charged: { credits, tokens: 3_000 } });
  });
});

import type { AgentWorker } from '../agent-jobs/agent-worker.js';
import type { ChangeHistory } from '../ports/change-history.js';
import type { Clock, Ids } from '../ports/clock.js';
import type { Fetcher } from '../ports/fetcher.js';
import type { AgentStates, Frontier, JobRecords, JobStore } from '../ports/job-store.js';
import type { Queue } from '../ports/queue.js';
import type { SlotLimiter } from '../ports/slot-limiter.js';
import type { JobEventSink } from './job-events.js';
import { JobRunner, defaultRunnerOptions, type JobRunnerOptions } from './job-runner.js';
import { JobService } from './job-service.js';
import { PageWorker, type PageWorkerDeps } from './page-worker.js';
import type { JobOutbox } from './webhook-payloads.js';

/**
 * What drives jobs over a job store and a queue: the JobService that starts and cancels them, the
 * PageWorker that does one message's work, and the JobRunner that leases messages for it. The one
 * place they are wired together: a library crawl calls it with in-memory stores (engine.ts), the
 * server with its durable ones (packages/http/src/compose/compose.ts).
 */
export interface JobPartsDeps {
  /** The store and queue the worker and runner work against. */
  jobs: JobStore;
  queue: Queue;
  /**
   * The store and queue jobs are started and cancelled on, when not the worker's (a distributed
   * process keeps separate connections for its API and its workers).
   */
  submit?: { jobs: JobRecords & Frontier & AgentStates; queue: Queue };
  clock: Clock;
  ids: Ids;
  events: JobEventSink;
  /** Webhook deliveries for an event, stored with the change (none in library use). */
  outbox?: JobOutbox;
  /** Limits shared by every process (the runner's own in-memory limits when absent). */
  slots?: SlotLimiter;
  /** How pages are fetched (robots.txt, sitemaps) and scraped. */
  fetcher: Fetcher;
  scrape: PageWorkerDeps['scrape'];
  robotsTokens: string[];
  changeHistory?: ChangeHistory;
  /** Runs agent job steps (extract, deep research, ...); such jobs fail without it. */
  agents?: AgentWorker;
  runner?: JobRunnerOptions;
  /**
   * False for a process that starts jobs but works none (the distributed API role): its runner's
   * `start` does nothing, though it still settles jobs for a reconciler.
   */
  works?: boolean;
}

export interface JobParts {
  service: JobService;
  worker: PageWorker;
  runner: JobRunner;
}

export function createJobParts(deps: JobPartsDeps): JobParts {
  const { jobs, queue, clock, ids, events, outbox, slots } = deps;
  const worker = new PageWorker({
    jobs,
    queue,
    fetcher: deps.fetcher,
    clock,
    ids,
    scrape: deps.scrape,
    events,
    robotsTokens: deps.robotsTokens,
    ...(outbox ? { outbox } : {}),
    ...(deps.changeHistory ? { changeHistory: deps.changeHistory } : {}),
    ...(deps.agents ? { agents: deps.agents } : {}),
  });
  const runnerDeps = { jobs, queue, worker, clock, events, ...(outbox ? { outbox } : {}), ...(slots ? { slots } : {}) };
  const runnerOptions = deps.runner ?? defaultRunnerOptions;
  const runner = deps.works === false ? new IdleJobRunner(runnerDeps, runnerOptions) : new JobRunner(runnerDeps, runnerOptions);
  const submit = deps.submit ?? { jobs, queue };
  const service = new JobService({
    jobs: submit.jobs,
    queue: submit.queue,
    clock,
    ids,
    events,
    ...(outbox ? { outbox } : {}),
    onCancel: (jobId) => runner.abortJob(jobId),
  });
  return { service, worker, runner };
}

/** The runner of a process that works no pages: starting it does nothing; it still settles jobs. */
class IdleJobRunner extends JobRunner {
  override start(): void {}
}

import {
  AgentWorker,
  agentProgram,
  deepResearchProgram,
  extractProgram,
  llmsTxtProgram,
  monitorCheckProgram,
  MonitorScheduler,
  type Clock,
  type Engine,
  type Ids,
  type JobEventSink,
  type JobOutbox,
  type JobStore,
  type LlmProvider,
  type MonitorStore,
  type Queue,
  type SearchProvider,
} from '@quarry/core';

/**
 * The agent jobs of a process (extract, deep research, llms.txt, agent): their programs, run by an
 * AgentWorker with this process's engine and the model and search providers it has. A step works
 * at most a quarter of the queue lease (and 30 s), so a living worker never loses its lease.
 */
export interface AgentParts {
  jobs: JobStore;
  clock: Clock;
  ids: Ids;
  queue: Queue;
  events: JobEventSink;
  outbox: JobOutbox;
  llm?: LlmProvider | undefined;
  search?: SearchProvider | undefined;
  leaseMs?: number;
  /** Monitors, whose checks this process runs (without them a monitor check fails). */
  monitors?: MonitorStore | undefined;
}

export const maxStepBudgetMs = 30_000;

export function agentWorkerOf(engine: Engine, parts: AgentParts): AgentWorker {
  return new AgentWorker({
    jobs: parts.jobs,
    queue: parts.queue,
    clock: parts.clock,
    events: parts.events,
    outbox: parts.outbox,
    programs: {
      extract: extractProgram,
      deep_research: deepResearchProgram,
      llmstxt: llmsTxtProgram,
      agent: agentProgram,
      ...(parts.monitors
        ? { monitor_check: monitorCheckProgram({ monitors: parts.monitors, scheduler: monitorSchedulerOf(parts, parts.jobs, parts.queue, parts.monitors) }) }
        : {}),
    },
    scrape: (url, options, context) => engine.scrapeParsed(url, options, context),
    map: (url, options, context) => engine.map(url, options, context),
    llm: parts.llm,
    search: parts.search,
    stepBudgetMs: Math.min(maxStepBudgetMs, Math.floor((parts.leaseMs ?? 4 * maxStepBudgetMs) / 4)),
  });
}

/** The scheduler of monitor checks over a process's stores and queue. */
export function monitorSchedulerOf(time: { clock: Clock; ids: Ids }, jobs: JobStore, queue: Queue, monitors: MonitorStore): MonitorScheduler {
  return new MonitorScheduler({ jobs, queue, monitors, clock: time.clock, ids: time.ids });
}

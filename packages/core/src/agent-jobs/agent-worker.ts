import type { MapLink } from '../crawl/map-site.js';
import type { ScrapeDocument } from '../document.js';
import type { JobEvent, JobEventSink } from '../jobs/job-events.js';
import type { JobOutbox } from '../jobs/webhook-payloads.js';
import { tokensUsedBy } from '../llm/json-stage.js';
import type { MapOptionsInput } from '../options/map-options.js';
import type { ScrapeOptions } from '../options/scrape-options.js';
import type { Clock } from '../ports/clock.js';
import { agentJobKinds, type AgentJobKind, type AgentStates, type Frontier, type JobRecord, type JobRecords, type PageResults } from '../ports/job-store.js';
import type { LlmProvider, LlmUsage } from '../ports/llm-provider.js';
import type { LeasedMessage, Queue } from '../ports/queue.js';
import type { SearchProvider } from '../ports/search-provider.js';
import { agentCredits, agentStepMessage, agentStepOf, type AgentState, type AgentUsage } from './agent-job.js';
import type { AgentProgram, StepContext } from './agent-program.js';
import { jobDocuments, pageCredits } from './step-pages.js';

/**
 * Runs one step of an agent job (see agent-job.ts): loads the saved state, runs the job's program
 * until its step deadline, saves the state with the step number (compare-and-set) and enqueues the
 * next step, or, when the program is done, saves the result, the `completed` status and the
 * charges in one transaction. A step delivered again after it was saved only makes sure the next
 * one is queued.
 */
export interface AgentWorkerDeps {
  jobs: JobRecords & Frontier & PageResults & AgentStates;
  queue: Queue;
  clock: Clock;
  events: JobEventSink;
  outbox?: JobOutbox;
  programs: Partial<Record<AgentJobKind, AgentProgram<any>>>;
  scrape: (url: string, options: ScrapeOptions, context: { signal: AbortSignal; teamId: string }) => Promise<ScrapeDocument>;
  map: (url: string, options: MapOptionsInput, context: { signal: AbortSignal; teamId: string }) => Promise<MapLink[]>;
  llm?: LlmProvider | undefined;
  search?: SearchProvider | undefined;
  /** How long one step may work before it saves and hands over (well under the queue lease). */
  stepBudgetMs: number;
}

export class AgentWorker {
  constructor(private readonly deps: AgentWorkerDeps) {}

  async handle(job: JobRecord, message: LeasedMessage, signal: AbortSignal): Promise<void> {
    const step = agentStepOf(message.key);
    const program = this.deps.programs[job.kind as AgentJobKind];
    if (!program) throw new Error(`No worker for ${job.kind} jobs in this process`);
    if (step === undefined) return;
    const saved = await this.deps.jobs.getJobState(job.id);
    const done = saved?.step ?? 0;
    if (done >= step) {
      // Saved by an earlier delivery that died before enqueuing the next step.
      await this.deps.queue.enqueue([agentStepMessage(job, done + 1)]);
      return;
    }
    if (done !== step - 1) return; // a stale message from before a reconcile; the right one is queued
    const state: AgentState = (saved?.value as AgentState | undefined) ?? { usage: { tokens: 0 }, program: program.initial(job) };
    const usage: AgentUsage = { ...state.usage };
    const context = this.contextFor(job, signal, usage);
    const result = await program.step(context, state.program);
    const next: AgentState = { usage, program: result.state };
    if (!result.done) {
      if (await this.deps.jobs.saveJobState(job.id, job.teamId, { step, value: next })) await this.deps.queue.enqueue([agentStepMessage(job, step + 1)]);
      return;
    }
    // Pages cost what scraping them costs (a json page 5, its tokens included); the job's own
    // model calls (analysis, descriptions) are charged by their tokens.
    const documents = await jobDocuments(context);
    const pageTokens = documents.reduce((sum, document) => sum + tokensUsedBy(document), 0);
    const limit = program.creditLimit?.(job);
    const credits = agentCredits(pageCredits(documents), usage.tokens);
    next.charged = { credits: limit === undefined ? credits : Math.min(credits, limit), tokens: usage.tokens + pageTokens };
    const data = program.completedData ? program.completedData(job, result.state) : [];
    const event: JobEvent = { type: 'completed', job: { ...job, status: 'completed' }, ...(data && data.length > 0 ? { data } : {}) };
    const finished = await this.deps.jobs.saveJobState(
      job.id,
      job.teamId,
      { step, value: next },
      {
        status: 'completed',
        ...next.charged,
        reason: job.kind,
        finishedAt: this.deps.clock.now(),
        ...(this.deps.outbox && data ? { outbox: this.deps.outbox(event) } : {}),
      },
    );
    if (finished) await this.deps.events(event);
  }

  private contextFor(job: JobRecord, signal: AbortSignal, usage: AgentUsage): StepContext {
    const { clock } = this.deps;
    return {
      job,
      jobs: this.deps.jobs,
      signal,
      now: () => clock.now(),
      deadline: clock.now() + this.deps.stepBudgetMs,
      llm: this.deps.llm ? meteredLlm(this.deps.llm, usage) : undefined,
      search: this.deps.search,
      scrape: (url, options) => this.deps.scrape(url, options, { signal, teamId: job.teamId }),
      map: (url, options) => this.deps.map(url, options, { signal, teamId: job.teamId }),
      usage,
    };
  }
}

/** The provider, with the tokens of every call added to `usage`. */
export function meteredLlm(provider: LlmProvider, usage: AgentUsage): LlmProvider {
  const count = (used: LlmUsage) => {
    usage.tokens += used.inputTokens + used.outputTokens;
  };
  return {
    model: provider.model,
    contextTokens: provider.contextTokens,
    countTokens: (text) => provider.countTokens(text),
    generateText: async (request) => {
      const result = await provider.generateText(request);
      count(result.usage);
      return result;
    },
    generateObject: async (request) => {
      const result = await provider.generateObject(request);
      count(result.usage);
      return result;
    },
  };
}

/**
 * Makes the queue agree with the JobStore for agent jobs: every running one gets the message of
 * its next step (idempotent by message id; a step already saved is skipped by the worker).
 */
export async function reconcileAgentJobs(jobs: JobRecords & AgentStates, queue: Queue): Promise<number> {
  let offered = 0;
  for (const kind of agentJobKinds) {
    for (const job of await jobs.listActive(kind)) {
      const saved = await jobs.getJobState(job.id);
      await queue.enqueue([agentStepMessage(job, (saved?.step ?? 0) + 1)]);
      offered++;
    }
  }
  return offered;
}

import { creditPrices } from '../billing/prices.js';
import type { AgentJobKind, JobBase, JobPayload, JobRecord } from '../ports/job-store.js';
import { agentJobKinds } from '../ports/job-store.js';
import type { QueueMessage } from '../ports/queue.js';

/**
 * Agent jobs (extract, deep research, llms.txt) run as a chain of steps: one queue message per
 * step, each doing a bounded amount of work, saving the job's state and enqueuing the next. A
 * worker that dies mid-step loses only that step: its message comes back after the lease and the
 * step runs again from the last saved state (the JobStore saves each step once).
 *
 *   POST -> job + message ~step:1 -> worker: load state, run the program for one step,
 *           save state (compare-and-set on the step) -> enqueue ~step:2 ... -> finish: result,
 *           status and charges saved in one transaction
 */

/** Message keys of agent steps start with `~` so that a step that throws fails its job. */
export const agentStepPrefix = '~step:';

/** Agent jobs and their results are kept this long (Firecrawl: 6 hours). */
export const agentJobTtlMs = 6 * 60 * 60 * 1000;

/** Tokens that make one credit when an agent job is charged (extract and research bill tokens); priced in billing/prices.ts. */
export const tokensPerCredit: number = creditPrices.tokensPerAgentCredit;

export function isAgentJob(job: Pick<JobRecord, 'kind'>): job is Pick<JobRecord, 'kind'> & { kind: AgentJobKind } {
  return (agentJobKinds as readonly string[]).includes(job.kind);
}

/** A step's message; the first step of a monitor's check waits until its request's `runAt` (the tick). */
export function agentStepMessage(job: Pick<JobBase, 'id' | 'url'> & JobPayload, step: number): QueueMessage {
  const runAt = job.kind === 'monitor_check' ? job.request.runAt : undefined;
  return {
    id: `${job.id}:${agentStepPrefix}${step}`,
    jobId: job.id,
    key: `${agentStepPrefix}${step}`,
    url: job.url,
    discoveryDepth: 0,
    priority: 0,
    ...(step === 1 && typeof runAt === 'number' ? { notBefore: runAt } : {}),
  };
}

/** The step a message asks for, or undefined when it is not an agent step. */
export function agentStepOf(key: string): number | undefined {
  if (!key.startsWith(agentStepPrefix)) return undefined;
  const step = Number(key.slice(agentStepPrefix.length));
  return Number.isInteger(step) && step >= 1 ? step : undefined;
}

/** What an agent job costs: the credits of its pages (per the scrape rules) plus its model tokens in credits. */
export function agentCredits(pageCredits: number, tokens: number): number {
  return pageCredits + Math.ceil(tokens / tokensPerCredit);
}

export interface AgentUsage {
  /** Model tokens, prompt and output. */
  tokens: number;
}

/** What the JobStore keeps for an agent job: the usage so far and the program's own state. */
export interface AgentState<State = unknown> {
  usage: AgentUsage;
  program: State;
  /** What the finished job was charged (credits asked for, tokens recorded). */
  charged?: { credits: number; tokens: number };
}

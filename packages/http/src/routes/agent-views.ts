import type { AgentJobKind, AgentState, JobRecord } from '@quarry/core';
import type { Services } from '../server/services.js';
import { callerJob } from './job-views.js';
import type { Caller } from '../server/request-context.js';

/**
 * Reads shared by the extract, deep research and llms.txt routes: the caller's agent job, its
 * saved program state, and the API's status fields. The stored `scraping` status is the API's
 * `processing`; `success` is false only for a failed job (as Firecrawl answers).
 */
export type AgentApiStatus = 'processing' | 'completed' | 'failed' | 'cancelled';

export interface AgentJobRead<State> {
  job: JobRecord;
  state: State | undefined;
  /** What the finished job was charged. */
  charged: { credits: number; tokens: number } | undefined;
}

export async function callerAgentJob<State>(services: Services, caller: Caller, id: string, kind: AgentJobKind): Promise<AgentJobRead<State>> {
  const job = await callerJob(services, caller, id, [kind]);
  const saved = (await services.jobStore.getJobState(job.id))?.value as AgentState<State> | undefined;
  return { job, state: saved?.program, charged: saved?.charged };
}

export function agentStatusFields(job: JobRecord) {
  const status: AgentApiStatus = job.status === 'scraping' ? 'processing' : job.status;
  return {
    success: status !== 'failed',
    status,
    ...(job.error !== undefined && status === 'failed' ? { error: job.error } : {}),
    expiresAt: new Date(job.expiresAt).toISOString(),
  };
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  agentOptionsOf,
  agentView,
  NotConfiguredError,
  parseAgentRequest,
  providerHelp,
  ValidationError,
  type AgentJobRequest,
  type AgentRunState,
  type JobRecord,
} from '@quarry/core';
import { bodyObject } from '../server/body.js';
import type { Caller } from '../server/request-context.js';
import type { Services } from '../server/services.js';
import { agentStatusFields, callerAgentJob } from './agent-views.js';
import { cancelJob } from './job-views.js';

/**
 * The agent (v2): POST starts the job (`{success, id}`), GET /{id} answers `{success, status:
 * processing|completed|failed|cancelled, data, sources, model?, effort, warning?, error?,
 * expiresAt, creditsUsed}`, DELETE cancels (`{success, status}`), GET lists the team's agent runs
 * newest first (`?before=` an ISO time, for the next page). Without a model: 501.
 */
const listPageSize = 50;

export function agentRoutes(app: FastifyInstance, services: Services) {
  app.post('/v2/agent', { config: { kind: 'extract' } }, (request) => startAgentAction(services, request.caller, request.body));

  app.get('/v2/agent', { config: { kind: 'extractStatus' } }, async (request) => {
    const before = beforeOf(request);
    const now = services.clock.now();
    const jobs = (await services.jobStore.listJobs(request.caller.teamId, 1_000)).filter(
      (job) => job.kind === 'agent' && job.expiresAt > now && job.createdAt < before,
    );
    const page = jobs.slice(0, listPageSize);
    const more = jobs.length > listPageSize;
    return {
      success: true,
      agents: page.map(listItem),
      ...(more ? { next: `/v2/agent?before=${encodeURIComponent(new Date(page.at(-1)!.createdAt).toISOString())}` } : {}),
    };
  });

  app.get('/v2/agent/:id', { config: { kind: 'extractStatus' } }, (request) => agentStatusOf(services, request.caller, (request.params as { id: string }).id));

  app.delete('/v2/agent/:id', { config: { kind: 'extractStatus' } }, (request) => cancelJob(services, request, ['agent']));
}

/** Starts an agent run for a caller: what POST /v2/agent and the MCP tool run. */
export async function startAgentAction(services: Services, caller: Caller, body: unknown) {
  const options = parseAgentRequest(bodyObject(body));
  if (!services.llm) throw new NotConfiguredError(`The agent needs an LLM provider, and none is configured. ${providerHelp}`);
  await services.billing.requireCredits(caller.teamId, 1);
  const jobRequest: AgentJobRequest = { version: 'v2', options };
  const job = await services.jobs.startAgentJob({ kind: 'agent', teamId: caller.teamId, url: options.urls[0] ?? options.prompt, request: jobRequest });
  return { success: true as const, id: job.id };
}

/** An agent run's status for its team (another team's id: not found). */
export async function agentStatusOf(services: Services, caller: Caller, id: string) {
  const { job, state, charged } = await callerAgentJob<AgentRunState>(services, caller, id, 'agent');
  return { ...agentStatusFields(job), ...agentView(agentOptionsOf(job), state), creditsUsed: charged?.credits ?? 0 };
}

function beforeOf(request: FastifyRequest): number {
  const raw = (request.query as { before?: unknown }).before;
  if (raw === undefined || raw === '') return Number.POSITIVE_INFINITY;
  const time = typeof raw === 'string' ? (/^\d+$/.test(raw) ? Number(raw) : Date.parse(raw)) : Number.NaN;
  if (!Number.isFinite(time))
    throw new ValidationError(`\`before\` must be an ISO 8601 time or epoch milliseconds; got ${JSON.stringify(String(raw).slice(0, 100))}`, 'before');
  return time;
}

function listItem(job: JobRecord) {
  const options = agentOptionsOf(job);
  const status = job.status === 'scraping' ? 'processing' : job.status;
  return {
    id: job.id,
    createdAt: new Date(job.createdAt).toISOString(),
    targetHint: options.urls[0] ?? options.prompt.slice(0, 200),
    origin: 'api',
    settings: { hidden: false, starred: false },
    status,
    options: {
      urls: options.urls,
      prompt: options.prompt,
      ...(options.schema ? { schema: options.schema } : {}),
      model: options.model ?? 'quarry',
      effort: options.effort,
    },
  };
}

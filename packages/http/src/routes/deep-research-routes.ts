import type { FastifyInstance } from 'fastify';
import {
  deepResearchView,
  jobOfKind,
  NotConfiguredError,
  parseDeepResearchRequest,
  providerHelp,
  type DeepResearchJobRequest,
  type ResearchState,
} from '@quarry/core';
import { bodyObject } from '../server/body.js';
import type { Services } from '../server/services.js';
import { agentStatusFields, callerAgentJob } from './agent-views.js';
import type { Caller } from '../server/request-context.js';

/**
 * Deep research (v1 only): POST starts the job (`{success, id}`, never an `error` key: the v1 SDK
 * reads one as a failure), GET answers `{success, status: processing|completed|failed, data:
 * {finalAnalysis, sources, activities, json?}, currentDepth, maxDepth, totalUrls, activities,
 * sources, expiresAt, error?}` (activities and sources twice, as Firecrawl answers for old clients).
 */
export function deepResearchRoutes(app: FastifyInstance, services: Services) {
  app.post('/v1/deep-research', { config: { kind: 'crawl' } }, (request) => startDeepResearchAction(services, request.caller, request.body));
  app.get('/v1/deep-research/:id', { config: { kind: 'crawlStatus' } }, (request) =>
    deepResearchStatusOf(services, request.caller, (request.params as { id: string }).id),
  );
}

/** Starts deep research for a caller: what POST /v1/deep-research and the MCP tool run. */
export async function startDeepResearchAction(services: Services, caller: Caller, body: unknown) {
  const options = parseDeepResearchRequest(bodyObject(body));
  if (!services.llm) throw new NotConfiguredError(`Deep research needs an LLM provider, and none is configured. ${providerHelp}`);
  await services.billing.requireCredits(caller.teamId, 1);
  const jobRequest: DeepResearchJobRequest = { version: 'v1', options };
  const job = await services.jobs.startAgentJob({ kind: 'deep_research', teamId: caller.teamId, url: options.query, request: jobRequest });
  return { success: true as const, id: job.id };
}

export async function deepResearchStatusOf(services: Services, caller: Caller, id: string) {
  const { job, state } = await callerAgentJob<ResearchState>(services, caller, id, 'deep_research');
  const { options } = jobOfKind(job, 'deep_research').request;
  return { ...agentStatusFields(job), ...deepResearchView(options, state) };
}

import type { FastifyInstance } from 'fastify';
import { deepResearchView, NotConfiguredError, parseDeepResearchRequest, providerHelp, type DeepResearchJobRequest, type ResearchState } from '@quarry/core';
import { bodyObject } from '../server/body.js';
import type { Services } from '../server/services.js';
import { agentStatusFields, ownAgentJob } from './agent-views.js';
import { requireCredits } from './scrape-routes.js';

/**
 * Deep research (v1 only): POST starts the job (`{success, id}`, never an `error` key: the v1 SDK
 * reads one as a failure), GET answers `{success, status: processing|completed|failed, data:
 * {finalAnalysis, sources, activities, json?}, currentDepth, maxDepth, totalUrls, activities,
 * sources, expiresAt, error?}` (activities and sources twice, as Firecrawl answers for old clients).
 */
export function deepResearchRoutes(app: FastifyInstance, services: Services) {
  app.post('/v1/deep-research', { config: { kind: 'crawl' } }, async (request) => {
    const options = parseDeepResearchRequest(bodyObject(request.body));
    if (!services.llm) throw new NotConfiguredError(`Deep research needs an LLM provider, and none is configured. ${providerHelp}`);
    await requireCredits(services, request.caller.teamId, 1);
    const jobRequest: DeepResearchJobRequest = { version: 'v1', options };
    const job = await services.jobs.startAgentJob({ kind: 'deep_research', teamId: request.caller.teamId, url: options.query, request: jobRequest });
    return { success: true, id: job.id };
  });

  app.get('/v1/deep-research/:id', { config: { kind: 'crawlStatus' } }, async (request) => {
    const { job, state } = await ownAgentJob<ResearchState>(services, request, 'deep_research');
    const { options } = job.request as unknown as DeepResearchJobRequest;
    return { ...agentStatusFields(job), ...deepResearchView(options, state) };
  });
}

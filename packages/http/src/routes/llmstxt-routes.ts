import type { FastifyInstance } from 'fastify';
import { llmsTxtView, parseLlmsTxtRequest, type LlmsTxtJobRequest, type LlmsTxtState } from '@quarry/core';
import { bodyObject } from '../server/body.js';
import type { Services } from '../server/services.js';
import { agentStatusFields, ownAgentJob } from './agent-views.js';
import { requireCredits } from './scrape-routes.js';

/**
 * llms.txt (v1 only): POST starts the job, GET answers `{success, status, data: {llmstxt,
 * llmsfulltxt?}, expiresAt}` (`processing` while it runs, as the v1 SDK polls for).
 */
export function llmsTxtRoutes(app: FastifyInstance, services: Services) {
  app.post('/v1/llmstxt', { config: { kind: 'scrape' } }, async (request) => {
    const options = parseLlmsTxtRequest(bodyObject(request.body));
    await requireCredits(services, request.caller.teamId, 1);
    const jobRequest: LlmsTxtJobRequest = { version: 'v1', options };
    const job = await services.jobs.startAgentJob({ kind: 'llmstxt', teamId: request.caller.teamId, url: options.url, request: jobRequest });
    return { success: true, id: job.id };
  });

  app.get('/v1/llmstxt/:id', { config: { kind: 'crawlStatus' } }, async (request) => {
    const { job, state } = await ownAgentJob<LlmsTxtState>(services, request, 'llmstxt');
    return { ...agentStatusFields(job), data: llmsTxtView(state) };
  });
}

import type { FastifyInstance } from 'fastify';
import { llmsTxtView, parseLlmsTxtRequest, type LlmsTxtJobRequest, type LlmsTxtState } from '@quarry/core';
import { bodyObject } from '../server/body.js';
import type { Services } from '../server/services.js';
import { agentStatusFields, callerAgentJob } from './agent-views.js';
import type { Caller } from '../server/request-context.js';

/**
 * llms.txt (v1 only): POST starts the job, GET answers `{success, status, data: {llmstxt,
 * llmsfulltxt?}, expiresAt}` (`processing` while it runs, as the v1 SDK polls for).
 */
export function llmsTxtRoutes(app: FastifyInstance, services: Services) {
  app.post('/v1/llmstxt', { config: { kind: 'scrape' } }, (request) => startLlmsTxtAction(services, request.caller, request.body));
  app.get('/v1/llmstxt/:id', { config: { kind: 'crawlStatus' } }, (request) =>
    llmsTxtStatusOf(services, request.caller, (request.params as { id: string }).id),
  );
}

/** Starts an llms.txt job for a caller: what POST /v1/llmstxt and the MCP tool run. */
export async function startLlmsTxtAction(services: Services, caller: Caller, body: unknown) {
  const options = parseLlmsTxtRequest(bodyObject(body));
  await services.billing.requireCredits(caller.teamId, 1);
  const jobRequest: LlmsTxtJobRequest = { version: 'v1', options };
  const job = await services.jobs.startAgentJob({ kind: 'llmstxt', teamId: caller.teamId, url: options.url, request: jobRequest });
  return { success: true as const, id: job.id };
}

export async function llmsTxtStatusOf(services: Services, caller: Caller, id: string) {
  const { job, state } = await callerAgentJob<LlmsTxtState>(services, caller, id, 'llmstxt');
  return { ...agentStatusFields(job), data: llmsTxtView(state) };
}

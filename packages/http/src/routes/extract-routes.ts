import type { FastifyInstance } from 'fastify';
import { extractView, NotConfiguredError, parseExtractRequest, providerHelp, type ExtractJobRequest, type ExtractState } from '@quarry/core';
import { bodyObject } from '../server/body.js';
import type { ApiVersion, Caller } from '../server/request-context.js';
import type { Services } from '../server/services.js';
import { agentStatusFields, callerAgentJob } from './agent-views.js';
import { cancelJob } from './job-views.js';
import { checkWebhook } from './webhook-check.js';

/**
 * Extract (v1 and v2): POST starts the job (`{success, id, urlTrace: [], invalidURLs?}`), GET
 * answers `{success, status: processing|completed|failed|cancelled, data, sources?, warning?,
 * error?, expiresAt, creditsUsed, tokensUsed}`. DELETE cancels (a Quarry addition).
 */
export function extractRoutes(app: FastifyInstance, services: Services, version: ApiVersion) {
  app.post(`/${version}/extract`, { config: { kind: 'extract' } }, (request) => startExtractAction(services, request.caller, request.body, version));
  app.get(`/${version}/extract/:id`, { config: { kind: 'extractStatus' } }, (request) =>
    extractStatusOf(services, request.caller, (request.params as { id: string }).id),
  );

  app.delete(`/${version}/extract/:id`, { config: { kind: 'extractStatus' } }, (request) => cancelJob(services, request, ['extract']));
}

/** Starts an extract job for a caller: what POST /extract and the MCP tool run. */
export async function startExtractAction(services: Services, caller: Caller, body: unknown, version: ApiVersion) {
  const parsed = parseExtractRequest(version, bodyObject(body));
  if (!services.llm && !parsed.options.schema) {
    throw new NotConfiguredError(
      `Extract with only a prompt needs an LLM provider, and none is configured. ${providerHelp} Without one, give a schema: its fields are filled from each page's structured data.`,
    );
  }
  checkWebhook(services, parsed.webhook);
  await services.billing.requireCredits(caller.teamId, 1);
  const jobRequest: ExtractJobRequest = { version, options: parsed.options, ...(parsed.webhook ? { webhook: parsed.webhook } : {}) };
  const job = await services.jobs.startAgentJob({
    kind: 'extract',
    teamId: caller.teamId,
    url: parsed.options.urls[0] ?? parsed.options.prompt ?? '',
    request: jobRequest,
  });
  return { success: true as const, id: job.id, urlTrace: [], ...(parsed.invalidURLs ? { invalidURLs: parsed.invalidURLs } : {}) };
}

export async function extractStatusOf(services: Services, caller: Caller, id: string) {
  const { job, state, charged } = await callerAgentJob<ExtractState>(services, caller, id, 'extract');
  return { ...agentStatusFields(job), ...extractView(state), creditsUsed: charged?.credits ?? 0, tokensUsed: charged?.tokens ?? 0 };
}

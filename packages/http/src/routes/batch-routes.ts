import type { FastifyInstance } from 'fastify';
import { parseScrapeOptions, parseTargetUrl, ValidationError, webhookSchema, validate } from '@quarry/core';
import { checkWebhook } from './webhook-check.js';
import { Type } from '@sinclair/typebox';
import { bodyObject, take } from '../server/body.js';
import { publicOrigin, type ApiVersion, type Caller } from '../server/request-context.js';
import type { Services } from '../server/services.js';
import { cancelJob, jobErrors, jobStatus } from './job-views.js';
import { checkWatchable, watchJob } from './job-watch.js';

/** Batch scrape: start (scrape options flattened into the body), status, errors, cancel. */
const batchFields = Type.Object(
  {
    urls: Type.Array(Type.String({ maxLength: 8_192 }), { minItems: 1, maxItems: 10_000, description: 'Pages to scrape.' }),
    webhook: Type.Optional(webhookSchema),
    ignoreInvalidURLs: Type.Optional(Type.Boolean({ description: 'Skip invalid URLs (listed in invalidURLs) instead of failing. v1 default false, v2 true.' })),
    maxConcurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000, description: 'Most pages of this batch at once.' })),
    appendToId: Type.Optional(Type.String({ description: 'Not supported: answered with 400.' })),
    zeroDataRetention: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);

export function batchRoutes(app: FastifyInstance, services: Services, version: ApiVersion) {
  app.post(`/${version}/batch/scrape`, { config: { kind: 'scrape' } }, (request) =>
    startBatchAction(services, request.caller, request.body, version, publicOrigin(request)),
  );
  app.route({
    method: 'GET',
    url: `/${version}/batch/scrape/:id`,
    config: { kind: 'crawlStatus' },
    preHandler: (request) => checkWatchable(services, request, ['batch_scrape']),
    handler: (request, reply) => jobStatus(services, request, reply, version, ['batch_scrape'], 'batch/scrape'),
    wsHandler: (socket, request) => watchJob(services, socket, request, version, ['batch_scrape']),
  });
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: `/${version}/batch/scrape/:id/errors`,
      config: { kind: 'crawlStatus' },
      handler: (request) => jobErrors(services, request, ['batch_scrape']),
    });
  }
  app.delete(`/${version}/batch/scrape/:id`, { config: { kind: 'crawlStatus' } }, (request) => cancelJob(services, request, ['batch_scrape']));
}

/** Starts a batch scrape for a caller: what POST /batch/scrape and the MCP tool run. */
export async function startBatchAction(services: Services, caller: Caller, body: unknown, version: ApiVersion, origin: string) {
  const { picked, rest } = take(bodyObject(body), ['urls', 'webhook', 'ignoreInvalidURLs', 'maxConcurrency', 'appendToId', 'zeroDataRetention']);
  const fields = validate(batchFields, picked);
  if (fields.appendToId !== undefined) throw new ValidationError('`appendToId` is not supported by Quarry; start a new batch', 'appendToId');
  checkWebhook(services, fields.webhook);
  const options = parseScrapeOptions(version, rest);
  const ignoreInvalid = fields.ignoreInvalidURLs ?? version === 'v2';
  const urls: string[] = [];
  const invalidURLs: string[] = [];
  fields.urls.forEach((url, index) => {
    try {
      parseTargetUrl(url, `urls[${index}]`);
      urls.push(url);
    } catch (error) {
      if (!ignoreInvalid) throw error;
      invalidURLs.push(url);
    }
  });
  if (urls.length === 0) throw new ValidationError('`urls` holds no valid URL', 'urls');
  await services.billing.requireCredits(caller.teamId, urls.length);
  const job = await services.jobs.startBatch({
    teamId: caller.teamId,
    urls,
    options,
    version,
    ...(fields.maxConcurrency !== undefined ? { maxConcurrency: fields.maxConcurrency } : {}),
    ...(fields.webhook ? { webhook: fields.webhook } : {}),
  });
  return {
    success: true,
    id: job.id,
    url: `${origin}/${version}/batch/scrape/${job.id}`,
    ...(ignoreInvalid ? { invalidURLs } : {}),
  };
}

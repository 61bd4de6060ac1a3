import type { FastifyInstance } from 'fastify';
import type { JobKind } from '@quarry/core';
import { checkWebhook } from './webhook-check.js';
import { bodyObject } from '../server/body.js';
import { publicOrigin, type ApiVersion, type Caller } from '../server/request-context.js';
import type { Services } from '../server/services.js';
import { cancelJob, crawlOptionsView, jobErrors, jobStatus } from './job-views.js';
import { crawlParamsPreviewRoute, parsePromptedCrawl } from './crawl-prompt.js';
import { checkWatchable, watchJob } from './job-watch.js';

/**
 * Crawl: start, status (paginated), errors, cancel, active. v1's batch waiter polls
 * /v1/crawl/{id} with batch ids, so the status routes answer batch jobs too.
 */
export function crawlRoutes(app: FastifyInstance, services: Services, version: ApiVersion) {
  app.post(`/${version}/crawl`, { config: { kind: 'crawl' } }, (request) =>
    startCrawlAction(services, request.caller, request.body, version, publicOrigin(request)),
  );
  if (version === 'v2') crawlParamsPreviewRoute(app, services);

  const active = async (request: { caller: { teamId: string } }) => {
    const jobs = await services.jobStore.listActive('crawl', request.caller.teamId);
    return {
      success: true,
      crawls: jobs.map((job) => ({
        id: job.id,
        teamId: job.teamId,
        url: job.url,
        created_at: new Date(job.createdAt).toISOString(),
        options: crawlOptionsView(job),
      })),
    };
  };
  app.get(`/${version}/crawl/active`, { config: { kind: 'crawlStatus' } }, active);
  app.get(`/${version}/crawl/ongoing`, { config: { kind: 'crawlStatus' } }, active);

  // Polled for status; upgraded to a WebSocket for live watching (job-watch.ts).
  const kinds: JobKind[] = ['crawl', 'batch_scrape'];
  app.route({
    method: 'GET',
    url: `/${version}/crawl/:id`,
    config: { kind: 'crawlStatus' },
    preHandler: (request) => checkWatchable(services, request, kinds),
    handler: (request, reply) => jobStatus(services, request, reply, version, kinds, 'crawl'),
    wsHandler: (socket, request) => watchJob(services, socket, request, version, kinds),
  });
  // GET per the API; DELETE because the v1 SDK's checkCrawlErrors sends DELETE.
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: `/${version}/crawl/:id/errors`,
      config: { kind: 'crawlStatus' },
      handler: (request) => jobErrors(services, request, ['crawl', 'batch_scrape']),
    });
  }
  app.delete(`/${version}/crawl/:id`, { config: { kind: 'crawlStatus' } }, (request) => cancelJob(services, request, ['crawl', 'batch_scrape']));
}

/** Starts a crawl for a caller: what POST /crawl and the MCP tool run. */
export async function startCrawlAction(services: Services, caller: Caller, body: unknown, version: ApiVersion, origin: string) {
  const { parsed, prompt, warnings } = await parsePromptedCrawl(services, version, bodyObject(body), caller);
  checkWebhook(services, parsed.webhook);
  await services.engine.checkTarget(parsed.url);
  const options = { ...parsed.options, limit: await services.billing.capLimit(caller.teamId, parsed.options.limit) };
  const job = await services.jobs.startCrawl({
    teamId: caller.teamId,
    url: parsed.url,
    options,
    version,
    ...(parsed.webhook ? { webhook: parsed.webhook } : {}),
    ...(prompt ? { prompt } : {}),
  });
  return {
    success: true as const,
    id: job.id,
    url: `${origin}/${version}/crawl/${job.id}`,
    ...(prompt ? { promptGeneratedOptions: prompt.generated, finalCrawlerOptions: crawlOptionsView(job) } : {}),
    ...(warnings.length > 0 ? { warning: warnings.join(' ') } : {}),
  };
}

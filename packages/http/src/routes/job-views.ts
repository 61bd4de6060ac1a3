import type { FastifyRequest } from 'fastify';
import { jobOfKind, NotFoundError, type JobKind, type JobRecord } from '@quarry/core';
import { pageQuery } from '../server/body.js';
import { publicOrigin, type ApiVersion, type Caller } from '../server/request-context.js';
import type { Services } from '../server/services.js';
import { statusPage } from '../server/status-page.js';
import { presentDocument } from './present-document.js';

/** Reads shared by crawl and batch routes: a job of the caller's team, its status page, errors. */

/** The job if it exists and belongs to the caller's team; another team's job is answered exactly like an unknown id. */
export async function ownJob(services: Services, request: FastifyRequest, kinds: JobKind[]): Promise<JobRecord> {
  const { id } = request.params as { id: string };
  return callerJob(services, request.caller, id, kinds);
}

export async function callerJob(services: Services, caller: Caller, id: string, kinds: JobKind[]): Promise<JobRecord> {
  const job = await services.jobStore.getJob(id);
  const expired = job !== undefined && job.expiresAt <= services.clock.now();
  if (!job || expired || job.teamId !== caller.teamId || !kinds.includes(job.kind)) throw new NotFoundError('Job not found');
  return job;
}

export function jobStatus(services: Services, request: FastifyRequest, version: ApiVersion, kinds: JobKind[], route: string) {
  const { id } = request.params as { id: string };
  return jobStatusOf(services, request.caller, id, { version, kinds, route, origin: publicOrigin(request), query: pageQuery(request.query) });
}

/** A crawl or batch status page for the caller (routes and MCP tools). */
export async function jobStatusOf(
  services: Services,
  caller: Caller,
  id: string,
  view: { version: ApiVersion; kinds: JobKind[]; route: string; origin: string; query: { skip: number; limit: number | undefined } },
) {
  const job = await callerJob(services, caller, id, view.kinds);
  const page = await statusPage(services.jobStore, job, view.query, (skip, limit) => {
    const params = new URLSearchParams({ skip: String(skip), ...(limit !== undefined ? { limit: String(limit) } : {}) });
    return `${view.origin}/${view.version}/${view.route}/${job.id}?${params}`;
  });
  return { ...page, data: page.data.map((document) => presentDocument(document, view.version)) };
}

export async function jobErrors(services: Services, request: FastifyRequest, kinds: JobKind[]) {
  const job = await ownJob(services, request, kinds);
  const [errors, robotsBlocked] = await Promise.all([services.jobStore.listErrors(job.id), services.jobStore.listRobotsBlocked(job.id)]);
  return { errors, robotsBlocked };
}

export async function cancelJob(services: Services, request: FastifyRequest, kinds: JobKind[]) {
  const job = await ownJob(services, request, kinds);
  const result = await services.jobs.cancel(job.id);
  return { success: true, status: result.status === 'cancelled' ? 'cancelled' : result.status };
}

export function crawlOptionsView(job: JobRecord) {
  const { request } = jobOfKind(job, 'crawl');
  const options = request.options;
  return {
    includePaths: options.includePaths,
    excludePaths: options.excludePaths,
    limit: options.limit,
    crawlEntireDomain: options.crawlEntireDomain,
    allowExternalLinks: options.allowExternalLinks,
    allowSubdomains: options.allowSubdomains,
    ignoreRobotsTxt: options.ignoreRobotsTxt,
    sitemap: options.sitemap,
    deduplicateSimilarURLs: options.deduplicateSimilarURLs,
    ignoreQueryParameters: options.ignoreQueryParameters,
    regexOnFullURL: options.regexOnFullURL,
    maxDiscoveryDepth: options.maxDiscoveryDepth,
    delay: options.delaySeconds,
    scrapeOptions: options.scrapeOptions,
    ...(request.prompt ? { prompt: request.prompt.text, promptGeneratedOptions: request.prompt.generated } : {}),
  };
}

import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { jobOfKind, NotFoundError, type JobKind, type JobRecord, type ScrapeDocument } from '@quarry/core';
import { pageQuery } from '../server/body.js';
import { publicOrigin, type ApiVersion, type Caller } from '../server/request-context.js';
import type { Services } from '../server/services.js';
import { statusPage, statusPagePieces, type StatusPage } from '../server/status-page.js';
import { presentDocumentText } from './present-document.js';

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

/**
 * A crawl or batch status page as the route's JSON body: the documents' stored JSON texts are
 * written as they are (each was parsed and serialised again before, twice with the size check).
 */
export async function jobStatus(services: Services, request: FastifyRequest, reply: FastifyReply, version: ApiVersion, kinds: JobKind[], route: string) {
  const { id } = request.params as { id: string };
  const page = await statusPageTexts(services, request.caller, id, { version, kinds, route, origin: publicOrigin(request), query: pageQuery(request.query) });
  const { pieces, bytes } = statusPagePieces(page);
  reply.type('application/json; charset=utf-8');
  if (pieces.length === 1) return reply.send(pieces[0]);
  return reply.header('content-length', bytes).send(Readable.from(pieces));
}

type StatusView = { version: ApiVersion; kinds: JobKind[]; route: string; origin: string; query: { skip: number; limit: number | undefined } };

async function statusPageTexts(services: Services, caller: Caller, id: string, view: StatusView): Promise<StatusPage> {
  const job = await callerJob(services, caller, id, view.kinds);
  const page = await statusPage(services.jobStore, job, view.query, (skip, limit) => {
    const params = new URLSearchParams({ skip: String(skip), ...(limit !== undefined ? { limit: String(limit) } : {}) });
    return `${view.origin}/${view.version}/${view.route}/${job.id}?${params}`;
  });
  return { ...page, data: page.data.map((text) => presentDocumentText(text, view.version)) };
}

/** A crawl or batch status page for the caller, its documents as objects (MCP tools). */
export async function jobStatusOf(services: Services, caller: Caller, id: string, view: StatusView) {
  const page = await statusPageTexts(services, caller, id, view);
  return { ...page, data: page.data.map((text) => JSON.parse(text) as ScrapeDocument) };
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

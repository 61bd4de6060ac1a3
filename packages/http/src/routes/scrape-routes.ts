import type { FastifyInstance } from 'fastify';
import { parseScrapeOptions, tokensUsedBy, type ScrapeDocument, type Usage } from '@quarry/core';
import { bodyObject, requireString, take } from '../server/body.js';
import type { ApiVersion, Caller } from '../server/request-context.js';
import type { Services } from '../server/services.js';
import { presentDocument } from './present-document.js';

/** POST /scrape: one page, synchronously; charged after it succeeds. */
export function scrapeRoutes(app: FastifyInstance, services: Services, version: ApiVersion) {
  app.post(`/${version}/scrape`, { config: { kind: 'scrape' } }, async (request, reply) => {
    // The client went away before its answer: stop the work.
    const controller = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) controller.abort();
    });
    return scrapeAction(services, request.caller, request.body, version, controller.signal);
  });

  // An earlier scrape's document by its metadata.scrapeId (kept 24 hours; the caller's team only).
  app.get(`/${version}/scrape/:id`, { config: { kind: 'crawlStatus' } }, async (request) => {
    const { id } = request.params as { id: string };
    const document = await services.jobs.getScrape(request.caller.teamId, id);
    return { success: true, data: presentDocument(document, version) };
  });
}

/** A scrape for a caller: what POST /scrape and the MCP tool run. */
export async function scrapeAction(services: Services, caller: Caller, body: unknown, version: ApiVersion, signal?: AbortSignal) {
  const { picked, rest } = take(bodyObject(body), ['url']);
  const url = requireString(picked.url, 'url');
  const options = parseScrapeOptions(version, rest);
  const teamId = caller.teamId;
  await services.billing.requireCredits(teamId, 1);
  // A browser page stays open for the SDK's interact() on this scrapeId (zero data retention keeps nothing).
  const keepPage = !options.zeroDataRetention;
  const document = await services.billing.chargeRequest(
    caller,
    'scrape',
    () => services.engine.scrapeParsed(url, options, { ...(signal ? { signal } : {}), teamId, keepPage }),
    usageOf,
  );
  if (!options.zeroDataRetention) await services.jobs.recordScrape(teamId, document);
  return { success: true as const, data: presentDocument(document, version) };
}

/** What a scraped (or parsed) document is charged: its credits and the tokens its stages used now. */
export function usageOf(document: ScrapeDocument): Usage {
  return { credits: document.metadata.creditsUsed, tokens: tokensUsedBy(document) };
}

import type { FastifyInstance } from 'fastify';
import { parseSearchRequest, runSearch, tokensUsedBy, type SearchOutcome, type WebResult } from '@quarry/core';
import { bodyObject } from '../server/body.js';
import type { ApiVersion, Caller } from '../server/request-context.js';
import type { Services } from '../server/services.js';
import { presentDocument } from './present-document.js';

/**
 * POST /search: v1 answers `data: Document[]` (web results, scraped fields alongside), v2
 * `data: {web, images?, news?}` (the sources asked for) and `creditsUsed`. The team must be able to
 * pay for `limit` results before the search runs; it is charged for what was returned.
 */
export function searchRoutes(app: FastifyInstance, services: Services, version: ApiVersion) {
  app.post(`/${version}/search`, { config: { kind: 'search' } }, async (request, reply) => {
    // The client went away before its answer: stop the work.
    const controller = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) controller.abort();
    });
    return searchAction(services, request.caller, request.body, version, controller.signal);
  });
}

/** A search for a caller: what POST /search and the MCP tool run. */
export async function searchAction(services: Services, caller: Caller, body: unknown, version: ApiVersion, signal: AbortSignal = new AbortController().signal) {
  const search = parseSearchRequest(version, bodyObject(body));
  const teamId = caller.teamId;
  await services.billing.requireCredits(teamId, search.limit);
  const scrapeOptions = search.scrapeOptions;
  const outcome = await services.billing.chargeRequest(
    caller,
    'search',
    () =>
      runSearch(
        {
          provider: services.search,
          clock: services.clock,
          scrape: (url, context) => services.engine.scrapeParsed(url, scrapeOptions!, { signal: context.signal, teamId }),
          teamId,
        },
        search,
        signal,
      ),
    searchUsage,
  );
  if (version === 'v1') return { success: true, data: outcome.web.map((result) => webItem(result, version)) };
  return { success: true, data: dataV2(outcome, search.sources), creditsUsed: outcome.creditsUsed };
}

/** A search's credits (per result, or each scraped result's own) and the tokens its scraped results' stages used. */
function searchUsage(outcome: SearchOutcome) {
  const tokens = outcome.web.reduce((sum, result) => sum + (result.document ? tokensUsedBy(result.document) : 0), 0);
  return { credits: outcome.creditsUsed, tokens };
}

function dataV2(outcome: SearchOutcome, sources: string[]) {
  return {
    web: outcome.web.map((result) => webItem(result, 'v2')),
    ...(sources.includes('images') ? { images: outcome.images } : {}),
    ...(sources.includes('news') ? { news: outcome.news } : {}),
  };
}

/** A web result, with the scraped document's fields alongside when it was scraped. */
function webItem(result: WebResult, version: ApiVersion) {
  const { document, ...hit } = result;
  if (!document) return hit;
  return { ...presentDocument(document, version), ...hit, metadata: document.metadata };
}

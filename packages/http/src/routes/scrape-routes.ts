import type { FastifyInstance } from 'fastify';
import { parseScrapeOptions, PaymentRequiredError, tokensUsedBy } from '@quarry/core';
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
  await requireCredits(services, teamId, 1);
  // A browser page stays open for the SDK's interact() on this scrapeId (zero data retention keeps nothing).
  const keepPage = !options.zeroDataRetention;
  const document = await services.engine.scrapeParsed(url, options, { ...(signal ? { signal } : {}), teamId, keepPage });
  await services.ledger.charge(teamId, document.metadata.creditsUsed, 'scrape', chargeContext(caller.keyId));
  const tokens = tokensUsedBy(document);
  if (tokens > 0) await services.ledger.chargeTokens(teamId, tokens, 'scrape', chargeContext(caller.keyId));
  if (!options.zeroDataRetention) await services.jobs.recordScrape(teamId, document);
  return { success: true as const, data: presentDocument(document, version) };
}

export function chargeContext(apiKeyId: string | undefined) {
  return apiKeyId ? { apiKeyId } : {};
}

/** 402 when the team cannot pay for `needed` credits (unlimited teams always can). */
export async function requireCredits(services: Services, teamId: string, needed: number): Promise<number | null> {
  const remaining = await services.ledger.getCredits(teamId);
  if (remaining !== null && remaining < needed) {
    throw new PaymentRequiredError(`Insufficient credits to perform this request: ${needed} needed, ${remaining} left.`);
  }
  return remaining;
}

import type { FastifyInstance } from 'fastify';
import { creditPrices, parseMapRequest } from '@quarry/core';
import { bodyObject } from '../server/body.js';
import type { ApiVersion, Caller } from '../server/request-context.js';
import type { Services } from '../server/services.js';

/** POST /map: v1 answers `links: string[]` seeded with the input URL, v2 `links: [{url, title, description}]`. */
export function mapRoutes(app: FastifyInstance, services: Services, version: ApiVersion) {
  app.post(`/${version}/map`, { config: { kind: 'map' } }, (request) => mapAction(services, request.caller, request.body, version));
}

/** A map for a caller: what POST /map and the MCP tool run. */
export async function mapAction(services: Services, caller: Caller, body: unknown, version: ApiVersion) {
  const { url, options } = parseMapRequest(version, bodyObject(body));
  await services.billing.requireCredits(caller.teamId, creditPrices.map);
  const links = await services.billing.chargeRequest(
    caller,
    'map',
    () =>
      services.engine.map(
        url,
        {
          ...(options.search ? { search: options.search } : {}),
          sitemap: options.sitemap,
          includeSubdomains: options.includeSubdomains,
          ignoreQueryParameters: options.ignoreQueryParameters,
          limit: options.limit,
          ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
          useIndex: options.useIndex,
          filterByPath: options.filterByPath,
        },
        { teamId: caller.teamId },
      ),
    () => ({ credits: creditPrices.map, tokens: 0 }),
  );
  if (version === 'v1') return { success: true, links: links.map((link) => link.url) };
  return { success: true, links };
}

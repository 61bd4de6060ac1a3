import type { FastifyInstance } from 'fastify';
import { parseMapRequest } from '@quarry/core';
import { bodyObject } from '../server/body.js';
import type { ApiVersion } from '../server/request-context.js';
import type { Services } from '../server/services.js';
import { chargeContext, requireCredits } from './scrape-routes.js';

/** POST /map: v1 answers `links: string[]` seeded with the input URL, v2 `links: [{url, title, description}]`. */
export function mapRoutes(app: FastifyInstance, services: Services, version: ApiVersion) {
  app.post(`/${version}/map`, { config: { kind: 'map' } }, async (request) => {
    const { url, options } = parseMapRequest(version, bodyObject(request.body));
    await requireCredits(services, request.caller.teamId, 1);
    const links = await services.engine.map(url, {
      ...(options.search ? { search: options.search } : {}),
      sitemap: options.sitemap,
      includeSubdomains: options.includeSubdomains,
      ignoreQueryParameters: options.ignoreQueryParameters,
      limit: options.limit,
      ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
      useIndex: options.useIndex,
      filterByPath: options.filterByPath,
    }, { teamId: request.caller.teamId });
    await services.ledger.charge(request.caller.teamId, 1, 'map', chargeContext(request.caller.keyId));
    if (version === 'v1') return { success: true, links: links.map((link) => link.url) };
    return { success: true, links };
  });
}

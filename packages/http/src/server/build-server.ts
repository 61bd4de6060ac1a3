import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { PayloadTooLargeError, UnauthorizedError, ValidationError } from '@quarry/core';
import { logFailure, toHttpError } from '../errors/to-http.js';
import { crawlRoutes } from '../routes/crawl-routes.js';
import { dashboardRoutes } from '../dashboard/dashboard-routes.js';
import { batchRoutes } from '../routes/batch-routes.js';
import { mapRoutes } from '../routes/map-routes.js';
import { monitorRoutes } from '../routes/monitor-routes.js';
import { blobRoutes } from '../routes/blob-routes.js';
import { docsRoutes, opsRoutes } from '../routes/ops-routes.js';
import { interactRoutes } from '../routes/interact-routes.js';
import { pendingRoutes } from '../routes/pending-routes.js';
import { llmsTxtRoutes } from '../routes/llmstxt-routes.js';
import { extractRoutes } from '../routes/extract-routes.js';
import { deepResearchRoutes } from '../routes/deep-research-routes.js';
import { agentRoutes } from '../routes/agent-routes.js';
import { parseRoutes } from '../routes/parse-routes.js';
import { scrapeRoutes } from '../routes/scrape-routes.js';
import { searchRoutes } from '../routes/search-routes.js';
import { teamRoutes } from '../routes/team-routes.js';
import { mcpRoutes } from '../mcp/mcp-routes.js';
import type { EndpointKind } from './rate-limiter.js';
import { maxParamLength, paramTooLong, parseJsonBody } from './request-limits.js';
import { isUnthrottledKeyless } from './loopback.js';
import type { Services } from './services.js';
import './request-context.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Endpoint kind for rate limits; routes without one are not API routes (health, docs). */
    kind?: EndpointKind;
    /** An API route that needs a caller but counts rate limits itself (MCP: per tool call). */
    authOnly?: boolean;
  }
}

/** Largest JSON request body the API reads (file uploads to /v2/parse have their own limit). */
const requestBodyLimitBytes = 10 * 1024 * 1024;

/**
 * The Fastify app: auth and rate limits as hooks, every route under /v1 and /v2, errors mapped to
 * HTTP in one place (errors/to-http.ts).
 */
export function buildServer(services: Services, options: { logger?: boolean | object } = {}): FastifyInstance {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: requestBodyLimitBytes,
    trustProxy: false,
    routerOptions: { ignoreDuplicateSlashes: true, maxParamLength },
    // The router's own refusals (an over-long id, a malformed URL) in the API's error body.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      const http = toHttpError(
        error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? paramTooLong() : new ValidationError(`Invalid request URL: ${error.message}`, 'url'),
      );
      void reply.status(http.status).headers(http.headers).send(http.body);
    },
  });

  app.decorateRequest('caller', null as never);
  // Request/response lines only at warn: a crawl's status polling would flood the info log.
  app.addHook('onRoute', (route) => {
    if (!route.logLevel) route.logLevel = 'warn';
  });
  // Some clients (the v1 SDK's DELETE calls) send Content-Type: application/json with no body.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
    const body = typeof text === 'string' ? text : text.toString('utf8');
    if (body.trim() === '') return done(null, undefined);
    try {
      done(null, parseJsonBody(body));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    const kind = request.routeOptions.config?.kind;
    if (!kind && !request.routeOptions.config?.authOnly) return;
    request.caller = { ...(await authenticate(services, request)), ...idempotencyKeyOf(request) };
    if (!kind) return;
    if (request.caller.keyId === undefined && isUnthrottledKeyless(services.config)) return;
    const decision = await services.rateLimiter.consume(request.caller.teamId, kind);
    reply.header('x-ratelimit-limit', decision.limit);
    reply.header('x-ratelimit-remaining', decision.remaining);
    reply.header('x-ratelimit-reset', decision.resetAt);
  });

  app.addHook('onResponse', async (request, reply) => {
    // A refused WebSocket handshake (answered before the upgrade plugin saw it): nothing more will be read on that connection.
    if (isWebSocketUpgrade(request)) request.raw.socket?.destroy();
    services.metrics.requests.inc({ method: request.method, route: request.routeOptions.url ?? 'unknown', status: String(reply.statusCode) });
  });

  app.setErrorHandler((error: Error & { statusCode?: number; validation?: unknown }, request: FastifyRequest, reply: FastifyReply) => {
    // Fastify's own body parsing errors (bad JSON, wrong content type) are bad input too.
    const normalized =
      error.statusCode === 400 || error.statusCode === 415
        ? new ValidationError(`Invalid request body: ${error.message}`, 'body')
        : error.statusCode === 413
          ? new PayloadTooLargeError(`The request body is larger than the server accepts (${requestBodyLimitBytes / 1024 / 1024} MB)`)
          : error;
    const http = toHttpError(normalized);
    // Routes log at warn (status polling would flood info): the request's outcome goes to the app's log.
    logFailure(app.log.child({ reqId: request.id }), normalized, `${request.method} ${request.routeOptions.url ?? request.url}`);
    void reply.status(http.status).headers(http.headers).send(http.body);
  });

  app.setNotFoundHandler((request, reply) => {
    void reply.status(404).send({ success: false, error: `No route for ${request.method} ${request.url.split('?')[0]}`, code: 'NOT_FOUND' });
  });

  // The crawl and batch status routes also upgrade to WebSockets: declared once the plugin is loaded.
  void app.register(websocket);
  void app.register(async (scope) => {
    for (const version of ['v1', 'v2'] as const) {
      crawlRoutes(scope, services, version);
      batchRoutes(scope, services, version);
    }
  });
  for (const version of ['v1', 'v2'] as const) {
    scrapeRoutes(app, services, version);
    mapRoutes(app, services, version);
    searchRoutes(app, services, version);
    teamRoutes(app, services, version);
    extractRoutes(app, services, version);
    pendingRoutes(app, version);
  }
  llmsTxtRoutes(app, services);
  interactRoutes(app, services);
  mcpRoutes(app, services);
  parseRoutes(app, services);
  agentRoutes(app, services);
  deepResearchRoutes(app, services);
  opsRoutes(app, services);
  blobRoutes(app, services);
  monitorRoutes(app, services);
  docsRoutes(app);
  dashboardRoutes(app, services);
  return app;
}

async function authenticate(services: Services, request: FastifyRequest) {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s*(.*)$/i.exec(header);
  const key = match?.[1]?.trim() || webSocketKey(request);
  if (key) {
    const found = await services.ledger.authenticate(key);
    if (found) return { teamId: found.teamId, keyId: found.keyId };
  }
  if (await services.isKeylessAllowed()) return { teamId: 'local', keyId: undefined };
  throw new UnauthorizedError(key ? 'Unauthorized: Invalid token' : 'Unauthorized: a valid API key is required (Authorization: Bearer fc-...)');
}

/** The request's idempotency key, from `Idempotency-Key` or Firecrawl's `x-idempotency-key`. */
function idempotencyKeyOf(request: FastifyRequest): { requestId?: string } {
  const given = request.headers['idempotency-key'] ?? request.headers['x-idempotency-key'];
  const key = (Array.isArray(given) ? given[0] : given)?.trim();
  if (!key) return {};
  if (key.length > maxIdempotencyKeyLength) {
    throw new ValidationError(`Idempotency-Key: at most ${maxIdempotencyKeyLength} characters; got ${key.length}`, 'Idempotency-Key');
  }
  return { requestId: key };
}

const maxIdempotencyKeyLength = 255;

/** WebSocket clients (Firecrawl's watchers) give the API key as the sub-protocol: `new WebSocket(url, apiKey)`. */
function webSocketKey(request: FastifyRequest): string {
  if (!isWebSocketUpgrade(request)) return '';
  const offered = request.headers['sec-websocket-protocol'];
  return (Array.isArray(offered) ? offered.join(',') : (offered ?? '')).split(',')[0]?.trim() ?? '';
}

function isWebSocketUpgrade(request: FastifyRequest): boolean {
  return request.headers.upgrade?.toLowerCase() === 'websocket';
}

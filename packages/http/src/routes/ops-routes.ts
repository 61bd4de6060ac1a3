import type { FastifyInstance } from 'fastify';
import { docsPageHtml } from '../openapi/docs-page.js';
import { openApiDocument } from '../openapi/openapi-document.js';
import type { Services } from '../server/services.js';

/** Liveness, readiness. */
export function opsRoutes(app: FastifyInstance, services: Services) {
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/ready', async (_request, reply) => {
    try {
      await services.queue.depth();
      return { status: 'ready' };
    } catch (error) {
      return reply.status(503).send({ status: 'unavailable', error: (error as Error).message });
    }
  });
  app.get('/', async () => ({ name: 'quarry', docs: '/docs', health: '/health', metrics: '/metrics' }));
  app.get('/metrics', async (_request, reply) => {
    const text = await services.metrics.registry.metrics();
    return reply.type(services.metrics.registry.contentType).send(text);
  });
}

/** OpenAPI documents (JSON) and the docs page. */
export function docsRoutes(app: FastifyInstance) {
  const documents = { v1: openApiDocument('v1'), v2: openApiDocument('v2') };
  app.get('/v1/openapi.json', async () => documents.v1);
  app.get('/v2/openapi.json', async () => documents.v2);
  const page = docsPageHtml(documents);
  app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(page));
}

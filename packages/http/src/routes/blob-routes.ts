import type { FastifyInstance } from 'fastify';
import { setListeningBase } from '../compose-browser.js';
import type { Services } from '../server/services.js';

/**
 * GET /v1|v2/blobs/:id: screenshots and action PDFs stored by the browser engine, read from the
 * process's BlobStore (compose-blobs.ts: the same store every process of the deployment writes to). Ids are 32
 * random hex characters, so the URL itself is the right to read (as Firecrawl's screenshot URLs):
 * no API key is asked. Unknown and malformed ids are 404.
 */
export function blobRoutes(app: FastifyInstance, services: Services) {
  const store = services.blobs;
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (address && typeof address === 'object' && services.config.PORT === 0) {
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
      setListeningBase(services.config, `http://${host}:${address.port}`);
    }
  });
  for (const version of ['v1', 'v2'] as const) {
    app.get<{ Params: { id: string } }>(`/${version}/blobs/:id`, async (request, reply) => {
      const blob = await store.get(request.params.id);
      if (!blob) return reply.status(404).send({ success: false, error: 'Blob not found', code: 'NOT_FOUND' });
      return reply
        .type(blob.contentType)
        .header('cache-control', 'private, max-age=86400, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(Buffer.from(blob.bytes.buffer, blob.bytes.byteOffset, blob.bytes.byteLength));
    });
  }
}

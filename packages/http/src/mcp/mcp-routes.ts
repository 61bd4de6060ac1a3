import type { FastifyInstance } from 'fastify';
import { publicOrigin } from '../server/request-context.js';
import type { Services } from '../server/services.js';

/**
 * POST /mcp: the MCP server over Streamable HTTP, stateless (each request gets its own server
 * for the caller its API key names, as every other route authenticates). GET (a server-sent event
 * stream) and DELETE (ending a session) have nothing to serve without sessions: 405, as the
 * protocol allows. The MCP SDK is loaded on the first request, not at every start.
 */
export function mcpRoutes(app: FastifyInstance, services: Services) {
  let loaded: Promise<typeof import('./mcp-http.js')> | undefined;
  app.post('/mcp', { config: { authOnly: true } }, async (request, reply) => {
    loaded ??= import('./mcp-http.js');
    const { serveMcpRequest } = await loaded;
    reply.hijack();
    await serveMcpRequest(services, request.caller, publicOrigin(request), request.raw, reply.raw, request.body);
  });
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/mcp',
      config: { authOnly: true },
      handler: async (_request, reply) =>
        reply
          .status(405)
          .header('allow', 'POST')
          .send({ success: false, error: 'The MCP endpoint is stateless: send JSON-RPC requests with POST /mcp', code: 'METHOD_NOT_ALLOWED' }),
    });
  }
}

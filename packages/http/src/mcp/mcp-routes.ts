import type { FastifyInstance } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { publicOrigin } from '../server/request-context.js';
import type { Services } from '../server/services.js';
import { createMcpServer } from './mcp-server.js';

/**
 * POST /mcp: the MCP server over Streamable HTTP, stateless (each request gets its own server
 * for the caller its API key names, as every other route authenticates). GET (a server-sent event
 * stream) and DELETE (ending a session) have nothing to serve without sessions: 405, as the
 * protocol allows.
 */
export function mcpRoutes(app: FastifyInstance, services: Services) {
  app.post('/mcp', { config: { authOnly: true } }, async (request, reply) => {
    const server = createMcpServer(services, request.caller, publicOrigin(request));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.once('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/mcp',
      config: { authOnly: true },
      handler: async (_request, reply) =>
        reply.status(405).header('allow', 'POST').send({ success: false, error: 'The MCP endpoint is stateless: send JSON-RPC requests with POST /mcp', code: 'METHOD_NOT_ALLOWED' }),
    });
  }
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Caller } from '../server/request-context.js';
import type { Services } from '../server/services.js';
import { createMcpServer } from './mcp-server.js';

/** One stateless Streamable HTTP exchange: a server for the caller, answered as JSON. */
export async function serveMcpRequest(services: Services, caller: Caller, origin: string, request: IncomingMessage, response: ServerResponse, body: unknown) {
  const server = createMcpServer(services, caller, origin);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  response.once('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request, response, body);
}

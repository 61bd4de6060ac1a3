import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { asQuarryError, ValidationError } from '@quarry/core';
import { isUnthrottledKeyless } from '../server/loopback.js';
import type { Caller } from '../server/request-context.js';
import type { Services } from '../server/services.js';
import { mcpTools } from './mcp-tools.js';

/**
 * An MCP server for one caller (the key of the HTTP request, or the key `quarry mcp` was started
 * with): lists the tools and runs them as that caller, each call counted against the rate limit
 * of its endpoint kind. Bad arguments are an InvalidParams error naming the field; every other
 * failure is a tool result with isError and the message the REST API would answer. `localFiles`
 * (stdio only) lets firecrawl_parse read a `filePath` on this machine.
 */
export function createMcpServer(services: Services, caller: Caller, origin: string, options: { localFiles?: boolean } = {}): Server {
  const server = new Server({ name: 'quarry', version: '0.1.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: mcpTools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = mcpTools.find((candidate) => candidate.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const args = request.params.arguments ?? {};
    try {
      if (caller.keyId !== undefined || !isUnthrottledKeyless(services.config)) await services.rateLimiter.consume(caller.teamId, tool.kind);
      const result = await tool.run({ services, caller, origin, version: 'v2', signal: extra.signal, localFiles: options.localFiles ?? false }, { ...args });
      return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }] };
    } catch (error) {
      if (error instanceof ValidationError) {
        const fields = error.issues.map((issue) => issue.field).filter(Boolean);
        throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for ${tool.name}: ${error.message}`, { fields });
      }
      const failure = asQuarryError(error);
      return { isError: true, content: [{ type: 'text', text: failure.message }] };
    }
  });
  return server;
}

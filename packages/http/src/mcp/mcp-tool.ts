import type { ApiVersion, Caller } from '../server/request-context.js';
import type { EndpointKind } from '../server/rate-limiter.js';
import type { Services } from '../server/services.js';

/**
 * One MCP tool: the name and argument shape of the `firecrawl-mcp` package's tool, the endpoint
 * kind whose rate limit a call counts against, and what it runs (a caller action shared with the
 * REST routes, so validation, credits and charging are the same).
 */
export interface McpTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, object>; required?: string[] };
  kind: EndpointKind;
  run(context: ToolContext, args: Record<string, unknown>): Promise<unknown>;
}

export interface ToolContext {
  services: Services;
  caller: Caller;
  /** Where clients reach this server (for the status URLs handed out). */
  origin: string;
  version: ApiVersion;
  signal: AbortSignal;
  /** Whether tools may read files on this machine (`quarry mcp` over stdio: the caller's own machine). */
  localFiles: boolean;
}

/** JSON Schema helpers for the argument shapes (validation itself is the REST schemas'). */
export const str = (description?: string) => ({ type: 'string', ...(description ? { description } : {}) });
export const num = (description?: string) => ({ type: 'number', ...(description ? { description } : {}) });
export const bool = (description?: string) => ({ type: 'boolean', ...(description ? { description } : {}) });
export const strings = (description?: string) => ({ type: 'array', items: { type: 'string' }, ...(description ? { description } : {}) });
export const anyObject = (description?: string) => ({ type: 'object', additionalProperties: true, ...(description ? { description } : {}) });

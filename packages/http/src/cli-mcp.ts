import type { Command } from 'commander';
import { UnauthorizedError } from '@quarry/core';
import { privateHostsOverride } from './cli-flags.js';
import { loadConfig } from './compose.js';
import { isDistributed } from './distributed-mode.js';
import type { Caller } from './server/request-context.js';
import type { Services } from './server/services.js';

/**
 * `quarry mcp`: the MCP server on stdin/stdout, for MCP clients that start their tools as a
 * process. It runs Quarry in this process (the embedded default, or the API side of the
 * distributed mode with DATABASE_URL and REDIS_URL) as the team of the API key given with
 * --api-key or FIRECRAWL_API_KEY; without a key, only where the server would accept keyless requests.
 * stdout carries the protocol only.
 */
export function mcpCommand(program: Command) {
  program
    .command('mcp')
    .description('Run the MCP server on stdio (tools: firecrawl_scrape, firecrawl_map, firecrawl_crawl, ...).')
    .option('--api-key <key>', 'the API key whose team the tools run as (default FIRECRAWL_API_KEY)')
    .option('--allow-private-hosts [hosts]', 'allow loopback/private targets (comma-separated hosts or CIDRs; all when no value)')
    .action(async (flags: { apiKey?: string; allowPrivateHosts?: string | boolean }) => {
      const config = loadConfig({ ...process.env, ...privateHostsOverride(flags.allowPrivateHosts) });
      const parts = isDistributed(config)
        ? await (await import('./compose-distributed.js')).composeDistributed(config)
        : await (await import('./compose-server.js')).composeServer(config);
      try {
        const caller = await stdioCaller(parts.services, flags.apiKey ?? config.FIRECRAWL_API_KEY ?? '');
        parts.services.runner.start();
        // Loaded here, not at every `quarry` start.
        const [{ createMcpServer }, { StdioServerTransport }] = await Promise.all([
          import('./mcp/mcp-server.js'),
          import('@modelcontextprotocol/sdk/server/stdio.js'),
        ]);
        const server = createMcpServer(parts.services, caller, `http://${config.HOST}:${config.PORT}`, { localFiles: true });
        const closed = new Promise<void>((resolve) => {
          server.onclose = resolve;
        });
        await server.connect(new StdioServerTransport());
        process.stdin.once('end', () => void server.close());
        await closed;
      } finally {
        await parts.services.runner.stop();
        await parts.close();
      }
    });
}

async function stdioCaller(services: Services, key: string): Promise<Caller> {
  if (key) {
    const found = await services.ledger.authenticate(key);
    if (!found) throw new UnauthorizedError('Unauthorized: Invalid token (--api-key or FIRECRAWL_API_KEY)');
    return { teamId: found.teamId, keyId: found.keyId };
  }
  if (await services.isKeylessAllowed()) return { teamId: 'local', keyId: undefined };
  throw new UnauthorizedError('Unauthorized: API keys exist, so `quarry mcp` needs one (--api-key or FIRECRAWL_API_KEY)');
}

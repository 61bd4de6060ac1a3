// Give an MCP client Firecrawl's tools backed by a Quarry server: the `firecrawl-mcp` package with
// FIRECRAWL_API_URL pointing at Quarry, driven by the official MCP SDK client (start Quarry with `npm start`).
// firecrawl-mcp asks for Node 22 or later: pass its path as NODE if `node` is older.
//   NODE=/path/to/node22 npx tsx examples/use-mcp.ts http://127.0.0.1:3002 https://example.com
// (Quarry also serves the same tools itself: POST /mcp, or `npx quarry mcp` on stdio.)
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export interface McpTour {
  tools: string[];
  markdown: string;
  links: string[];
  crawl: { id: string; status: string; pages: number };
}

export async function useMcp(apiUrl: string, url: string, options: { apiKey?: string; node?: string } = {}): Promise<McpTour> {
  const firecrawlMcp = createRequire(import.meta.url).resolve('firecrawl-mcp/dist/index.js');
  const transport = new StdioClientTransport({
    command: options.node ?? process.execPath,
    args: [firecrawlMcp],
    env: { PATH: process.env.PATH ?? '', FIRECRAWL_API_URL: apiUrl, ...(options.apiKey ? { FIRECRAWL_API_KEY: options.apiKey } : {}) },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'quarry-example', version: '1.0.0' });
  await client.connect(transport);
  try {
    const text = async (name: string, args: Record<string, unknown>) => {
      const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ text?: string }> };
      const body = result.content.map((part) => part.text ?? '').join('');
      if (result.isError) throw new Error(`${name}: ${body}`);
      return JSON.parse(body) as Record<string, any>;
    };
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    const page = await text('firecrawl_scrape', { url, formats: ['markdown'], maxAge: 0 });
    const map = await text('firecrawl_map', { url });
    const crawl = await text('firecrawl_crawl', { url, limit: 5 });
    return {
      tools,
      markdown: page.markdown ?? '',
      links: (map.links ?? []).map((link: string | { url: string }) => (typeof link === 'string' ? link : link.url)),
      crawl: { id: crawl.id, status: crawl.status, pages: (crawl.data ?? []).length },
    };
  } finally {
    await client.close();
  }
}

if (process.argv[1]?.endsWith('use-mcp.ts')) {
  const tour = await useMcp(process.argv[2] ?? 'http://127.0.0.1:3002', process.argv[3] ?? 'https://example.com', {
    ...(process.env.QUARRY_API_KEY ? { apiKey: process.env.QUARRY_API_KEY } : {}),
    ...(process.env.NODE ? { node: process.env.NODE } : {}),
  });
  console.log({ ...tour, markdown: `${tour.markdown.slice(0, 200)}...` });
}

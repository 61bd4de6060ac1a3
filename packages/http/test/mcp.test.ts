import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { docsSiteRoutes, startTestServer, tokenOf, type TestServer } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';
import { awaitFreshRateWindow } from './support/rate-window.js';

/**
 * The MCP server with the official MCP SDK's client, over Streamable HTTP (POST /mcp, API-key
 * auth) and over stdio (`quarry mcp`, the built bin): firecrawl-mcp's tool names and argument
 * shapes, run as the caller's team against a local site.
 */
const bin = fileURLToPath(new URL('../bin/quarry.js', import.meta.url));
let site: TestServer;
let quarry: TestQuarry;
let key: string;
let otherKey: string;

beforeAll(async () => {
  site = await startTestServer(docsSiteRoutes());
  quarry = await startQuarry({ QUARRY_RATE_LIMITS: '' });
  await quarry.services.ledger.ensureTeam('acme', 'acme');
  await quarry.services.ledger.ensureTeam('other', 'other');
  key = (await quarry.services.ledger.createKey('acme', 'mcp')).key;
  otherKey = (await quarry.services.ledger.createKey('other', 'mcp')).key;
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await site?.close();
});

async function httpClient(apiKey: string): Promise<Client> {
  const client = new Client({ name: 'quarry-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${quarry.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }));
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; json: any; text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ type: string; text: string }> };
  const text = result.content.map((part) => part.text).join('');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { isError: result.isError === true, json, text };
}

const parsedHtml =
  '<html><head><title>Parsed page</title></head><body><h1>Quarterly</h1><p>parse-token-7731</p><a href="https://example.com/annex">annex</a></body></html>';

/** The checks every transport must pass (and, per transport, whether firecrawl_parse reads local files). */
function describeTools(label: string, connect: () => Promise<Client>, transport: 'http' | 'stdio') {
  describe(label, () => {
    let client: Client;
    beforeAll(async () => {
      client = await connect();
    }, 60_000);
    afterAll(async () => {
      await client?.close();
    });

    it("lists firecrawl-mcp's tool names", async () => {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      for (const name of [
        'firecrawl_scrape',
        'firecrawl_batch_scrape',
        'firecrawl_check_batch_status',
        'firecrawl_map',
        'firecrawl_search',
        'firecrawl_crawl',
        'firecrawl_check_crawl_status',
        'firecrawl_extract',
        'firecrawl_agent',
        'firecrawl_agent_status',
        'firecrawl_interact',
        'firecrawl_interact_stop',
        'firecrawl_parse',
        'firecrawl_deep_research',
        'firecrawl_generate_llmstxt',
        'firecrawl_monitor_create',
        'firecrawl_monitor_list',
        'firecrawl_monitor_get',
        'firecrawl_monitor_update',
        'firecrawl_monitor_delete',
        'firecrawl_monitor_run',
        'firecrawl_monitor_checks',
        'firecrawl_monitor_check',
      ]) {
        expect(names).toContain(name);
      }
    });

    it("firecrawl_scrape: the page as a document (markdown), json/screenshot options in firecrawl-mcp's shape accepted", async () => {
      const result = await call(client, 'firecrawl_scrape', { url: `${site.url}/about`, formats: ['markdown', 'links'], onlyMainContent: true, maxAge: 0 });
      expect(result.isError).toBe(false);
      expect(result.json.markdown).toContain(tokenOf('/about'));
      expect(result.json.links).toEqual(expect.arrayContaining([`${site.url}/docs/`]));
    });

    it("firecrawl_map: the site's URLs", async () => {
      const result = await call(client, 'firecrawl_map', { url: `${site.url}/`, sitemap: 'only' });
      expect(result.isError).toBe(false);
      expect(result.json.links.map((link: { url: string }) => link.url).sort()).toEqual(
        [site.url, `${site.url}/blog/first-post`, `${site.url}/docs/`, `${site.url}/sitemap-only`].sort(),
      );
    });

    it('firecrawl_crawl waits for the crawl; firecrawl_check_crawl_status reads it again', async () => {
      const crawl = await call(client, 'firecrawl_crawl', {
        url: `${site.url}/blog/`,
        limit: 5,
        includePaths: ['^/blog/'],
        scrapeOptions: { formats: ['markdown'], maxAge: 0 },
      });
      expect(crawl.isError).toBe(false);
      expect(crawl.json).toMatchObject({ id: expect.any(String), status: 'completed', completed: 3 });
      expect(crawl.json.data.map((document: { markdown: string }) => document.markdown).join('\n')).toContain(tokenOf('/blog/first-post'));
      const status = await call(client, 'firecrawl_check_crawl_status', { id: crawl.json.id });
      expect(status.json).toMatchObject({ status: 'completed', completed: 3, total: 3 });
      expect(status.json.data).toHaveLength(3);
    }, 60_000);

    it('firecrawl_agent without a model says how to configure one; firecrawl_agent_status of an unknown id is not found', async () => {
      const agent = await call(client, 'firecrawl_agent', { prompt: 'What does the site sell?', urls: [`${site.url}/about`] });
      expect(agent.isError).toBe(true);
      expect(agent.text).toMatch(/needs an LLM provider/);
      const status = await call(client, 'firecrawl_agent_status', { id: '00000000-0000-4000-8000-000000000000' });
      expect(status).toMatchObject({ isError: true });
    });

    it('firecrawl_monitor_*: create from the shorthand, read, run a check, list its checks, delete', async () => {
      const created = await call(client, 'firecrawl_monitor_create', { page: `${site.url}/about`, scheduleText: 'every 30 minutes', name: 'about page' });
      expect(created.isError).toBe(false);
      const id = created.json.data.id as string;
      expect((await call(client, 'firecrawl_monitor_get', { id })).json.data).toMatchObject({ id, name: 'about page' });
      expect((await call(client, 'firecrawl_monitor_list', {})).json.data.map((monitor: { id: string }) => monitor.id)).toContain(id);
      const run = await call(client, 'firecrawl_monitor_run', { id });
      expect(run.isError).toBe(false);
      const checkId = run.json.data.id as string;
      expect((await call(client, 'firecrawl_monitor_checks', { id })).json.data.map((check: { id: string }) => check.id)).toContain(checkId);
      expect((await call(client, 'firecrawl_monitor_check', { id, checkId })).isError).toBe(false);
      const refused = await client
        .callTool({ name: 'firecrawl_monitor_create', arguments: { queries: ['quarry'], goal: 'news' } })
        .catch((error: unknown) => error);
      expect((refused as McpError).message).toMatch(/queries/);
      expect((await call(client, 'firecrawl_monitor_delete', { id })).isError).toBe(false);
      expect((await call(client, 'firecrawl_monitor_get', { id })).isError).toBe(true);
    }, 60_000);

    it('firecrawl_parse: a file sent as base64 content, with the formats and type rules of POST /v2/parse', async () => {
      const html = await call(client, 'firecrawl_parse', {
        content: Buffer.from(parsedHtml).toString('base64'),
        filename: 'report.html',
        formats: ['markdown', 'links'],
      });
      expect(html.isError).toBe(false);
      expect(html.json.markdown).toContain('parse-token-7731');
      expect(html.json.links).toEqual(['https://example.com/annex']);
      expect(html.json.metadata.title).toBe('Parsed page');
      const csv = await call(client, 'firecrawl_parse', { content: Buffer.from('name,qty\nwidget,42\n').toString('base64'), filename: 'stock.csv', maxAge: 0 });
      expect(csv.json.markdown).toContain('| widget | 42 |');
      const unknownType = await call(client, 'firecrawl_parse', { content: Buffer.from('MZ\u0000\u0001').toString('base64'), filename: 'tool.exe' });
      expect(unknownType.isError).toBe(true);
      for (const [args, field] of [
        [{ content: Buffer.from('a,b\n').toString('base64') }, 'filename'],
        [{ content: 'not base64!', filename: 'x.csv' }, 'content'],
        [{ filename: 'x.csv' }, 'content'],
        [{ uploadRef: 'ref-1', filename: 'x.csv' }, 'uploadRef'],
      ] as const) {
        const failure = await client.callTool({ name: 'firecrawl_parse', arguments: args }).catch((error: unknown) => error);
        expect((failure as McpError).code).toBe(ErrorCode.InvalidParams);
        expect((failure as McpError).message).toContain(field);
      }
    });

    it(`firecrawl_parse: filePath ${transport === 'stdio' ? 'reads the local file' : 'is refused: the server does not read its own disk'}`, async () => {
      const dir = await mkdtemp(join(tmpdir(), 'quarry-mcp-parse-'));
      const filePath = join(dir, 'local-report.html');
      await writeFile(filePath, parsedHtml);
      try {
        if (transport === 'stdio') {
          const parsed = await call(client, 'firecrawl_parse', { filePath, formats: ['markdown'] });
          expect(parsed.isError).toBe(false);
          expect(parsed.json.markdown).toContain('parse-token-7731');
          const missing = await client
            .callTool({ name: 'firecrawl_parse', arguments: { filePath: join(dir, 'missing.pdf') } })
            .catch((error: unknown) => error);
          expect((missing as McpError).message).toMatch(/filePath/);
        } else {
          const refused = await client.callTool({ name: 'firecrawl_parse', arguments: { filePath } }).catch((error: unknown) => error);
          expect((refused as McpError).code).toBe(ErrorCode.InvalidParams);
          expect((refused as McpError).message).toMatch(/filePath.*base64 `content`/);
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('bad arguments: an InvalidParams error naming the field', async () => {
      const failure = await client.callTool({ name: 'firecrawl_scrape', arguments: { url: 'not a url' } }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(McpError);
      expect((failure as McpError).code).toBe(ErrorCode.InvalidParams);
      expect((failure as McpError).message).toMatch(/url/);
      const formats = await client.callTool({ name: 'firecrawl_map', arguments: { url: `${site.url}/`, limit: -3 } }).catch((error: unknown) => error);
      expect((formats as McpError).code).toBe(ErrorCode.InvalidParams);
      expect((formats as McpError).message).toMatch(/limit/);
    });
  });
}

describeTools('MCP over Streamable HTTP (POST /mcp)', () => httpClient(key), 'http');

describe('MCP over Streamable HTTP: auth and teams', () => {
  it('no key when keys exist: 401 (and the client cannot connect)', async () => {
    const response = await fetch(`${quarry.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    await expect(httpClient('fc-wrong')).rejects.toThrow(/Unauthorized/);
  });

  it("another team's crawl id: not found, like the REST route", async () => {
    const mine = await httpClient(key);
    const theirs = await httpClient(otherKey);
    const crawl = await call(mine, 'firecrawl_crawl', { url: `${site.url}/about`, limit: 1 });
    const peek = await call(theirs, 'firecrawl_check_crawl_status', { id: crawl.json.id });
    expect(peek).toMatchObject({ isError: true, text: 'Job not found' });
    await mine.close();
    await theirs.close();
  }, 60_000);

  it("each tool call counts against its endpoint kind's rate limit", async () => {
    const limited = await startQuarry({ QUARRY_RATE_LIMITS: 'map=1' });
    try {
      await limited.services.ledger.ensureTeam('acme', 'acme');
      const limitedKey = (await limited.services.ledger.createKey('acme', 'mcp')).key;
      await awaitFreshRateWindow();
      const client = new Client({ name: 'quarry-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${limited.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${limitedKey}` } } }),
      );
      expect((await call(client, 'firecrawl_map', { url: `${site.url}/` })).isError).toBe(false);
      const second = await call(client, 'firecrawl_map', { url: `${site.url}/` });
      expect(second).toMatchObject({ isError: true, text: expect.stringMatching(/^Rate limit exceeded/) });
      // Other kinds are counted apart.
      expect((await call(client, 'firecrawl_scrape', { url: `${site.url}/about` })).isError).toBe(false);
      await client.close();
    } finally {
      await limited.close();
    }
  }, 60_000);

  it('the OpenAPI documents list /mcp and the WebSocket watch', async () => {
    for (const version of ['v1', 'v2']) {
      const document = (await (await fetch(`${quarry.url}/${version}/openapi.json`)).json()) as { paths: Record<string, any> };
      expect(document.paths['/mcp'].post.summary).toMatch(/MCP/);
      expect(document.paths[`/${version}/crawl/{id}`].get.responses['101']).toBeDefined();
      expect(document.paths[`/${version}/batch/scrape/{id}`].get.description).toMatch(/sub-protocol/);
      expect(document.paths[`/${version}/team/credit-usage/historical`].get).toBeDefined();
    }
  });

  it("tool calls are charged to the caller's team like the REST routes", async () => {
    await quarry.services.ledger.ensureTeam('poor', 'poor');
    await quarry.services.ledger.setCredits('poor', 0);
    const poorKey = (await quarry.services.ledger.createKey('poor', 'mcp')).key;
    const client = await httpClient(poorKey);
    const refused = await call(client, 'firecrawl_scrape', { url: `${site.url}/about` });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/Insufficient credits/);
    await client.close();
  });
});

let stdioData: string;
describeTools(
  'MCP over stdio (quarry mcp)',
  async () => {
    stdioData = await mkdtemp(join(tmpdir(), 'quarry-mcp-'));
    const client = new Client({ name: 'quarry-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'mcp', '--allow-private-hosts', '127.0.0.1'],
        env: { PATH: process.env.PATH ?? '', QUARRY_DATA_DIR: stdioData, LOG_LEVEL: 'silent' },
        stderr: 'pipe',
      }),
    );
    return client;
  },
  'stdio',
);

describe('quarry mcp: the key', () => {
  it('a key the ledger does not know: exits with Unauthorized, nothing on stdout', async () => {
    const { execFile } = await import('node:child_process');
    const dataDir = await mkdtemp(join(tmpdir(), 'quarry-mcp-key-'));
    const outcome = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [bin, 'mcp', '--api-key', 'fc-not-a-key'],
        { env: { ...process.env, QUARRY_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, timeout: 60_000 },
        (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
    await rm(dataDir, { recursive: true, force: true });
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toMatch(/Unauthorized: Invalid token/);
  }, 60_000);
});

afterAll(async () => {
  if (stdioData) await rm(stdioData, { recursive: true, force: true });
});

import { ValidationError } from '@quarry/core';
import { startBatchAction } from '../routes/batch-routes.js';
import { startCrawlAction } from '../routes/crawl-routes.js';
import { deepResearchStatusOf, startDeepResearchAction } from '../routes/deep-research-routes.js';
import { extractStatusOf, startExtractAction } from '../routes/extract-routes.js';
import { jobStatusOf } from '../routes/job-views.js';
import { llmsTxtStatusOf, startLlmsTxtAction } from '../routes/llmstxt-routes.js';
import { mapAction } from '../routes/map-routes.js';
import { agentStatusOf, startAgentAction } from '../routes/agent-routes.js';
import { interactAction, interactLanguages, stopInteractAction } from '../routes/interact-routes.js';
import { scrapeAction } from '../routes/scrape-routes.js';
import { searchAction } from '../routes/search-routes.js';
import { anyObject, bool, num, str, strings, type McpTool, type ToolContext } from './mcp-tool.js';
import { monitorTools } from './monitor-tools.js';
import { parseTool } from './parse-tool.js';
import { scrapeBody, scrapeOptionProperties } from './scrape-args.js';
import { waitForJob, waitMsFrom } from './wait-for-job.js';

/**
 * The MCP tools, named and shaped as in the `firecrawl-mcp` package (its current tools, and
 * batch scrape, deep research and llms.txt from its earlier versions) for the endpoints Quarry
 * has. A new endpoint's tool is one more entry here.
 */
const firstPage = { skip: 0, limit: undefined };
const statusOf = (context: ToolContext, id: unknown, kinds: Array<'crawl' | 'batch_scrape'>, route: string) =>
  jobStatusOf(context.services, context.caller, String(id ?? ''), { version: context.version, kinds, route, origin: context.origin, query: firstPage });

export const mcpTools: McpTool[] = [
  {
    name: 'firecrawl_scrape',
    description: 'Scrape one URL and return its content: markdown by default, or html, rawHtml, links, screenshot, summary or json (with jsonOptions).',
    inputSchema: { type: 'object', properties: { url: str('The page to scrape.'), ...scrapeOptionProperties }, required: ['url'] },
    kind: 'scrape',
    run: async (context, args) => (await scrapeAction(context.services, context.caller, scrapeBody(args), 'v2', context.signal)).data,
  },
  {
    name: 'firecrawl_batch_scrape',
    description: 'Start scraping several URLs in the background; answers the batch id for firecrawl_check_batch_status.',
    inputSchema: {
      type: 'object',
      properties: { urls: strings('The pages to scrape.'), options: { type: 'object', properties: scrapeOptionProperties } },
      required: ['urls'],
    },
    kind: 'scrape',
    run: (context, args) => {
      const options = typeof args.options === 'object' && args.options !== null ? (args.options as Record<string, unknown>) : {};
      return startBatchAction(context.services, context.caller, { ...scrapeBody(options), urls: args.urls }, context.version, context.origin);
    },
  },
  {
    name: 'firecrawl_check_batch_status',
    description: 'Status and the documents so far of a batch scrape.',
    inputSchema: { type: 'object', properties: { id: str('The batch id.') }, required: ['id'] },
    kind: 'crawlStatus',
    run: (context, args) => statusOf(context, args.id, ['batch_scrape'], 'batch/scrape'),
  },
  {
    name: 'firecrawl_map',
    description: "List a website's URLs (sitemap and links) without fetching each page; `search` ranks matching URLs first.",
    inputSchema: {
      type: 'object',
      properties: {
        url: str(),
        search: str(),
        sitemap: { type: 'string', enum: ['include', 'skip', 'only'] },
        includeSubdomains: bool(),
        limit: num(),
        ignoreQueryParameters: bool(),
      },
      required: ['url'],
    },
    kind: 'map',
    run: (context, args) => mapAction(context.services, context.caller, args, 'v2'),
  },
  {
    name: 'firecrawl_search',
    description: 'Search the web (or the configured search provider) and optionally scrape the results with scrapeOptions.',
    inputSchema: {
      type: 'object',
      properties: { query: str(), limit: num(), tbs: str(), filter: str(), location: str(), sources: { type: 'array', items: {} }, scrapeOptions: anyObject() },
      required: ['query'],
    },
    kind: 'search',
    run: (context, args) => {
      const { toolDetail: _detail, domainTools: _domain, highlights: _highlights, enterprise: _enterprise, ...body } = args;
      if (body.scrapeOptions && typeof body.scrapeOptions === 'object') body.scrapeOptions = scrapeBody(body.scrapeOptions as Record<string, unknown>);
      return searchAction(context.services, context.caller, body, 'v2', context.signal);
    },
  },
  {
    name: 'firecrawl_crawl',
    description:
      'Crawl a website from a URL, wait for it (up to `timeout` seconds, 45 by default) and answer its status and pages; the id serves firecrawl_check_crawl_status.',
    inputSchema: {
      type: 'object',
      properties: {
        url: str(),
        prompt: str(),
        excludePaths: strings(),
        includePaths: strings(),
        maxDiscoveryDepth: num(),
        sitemap: { type: 'string', enum: ['skip', 'include', 'only'] },
        limit: num(),
        allowExternalLinks: bool(),
        allowSubdomains: bool(),
        crawlEntireDomain: bool(),
        delay: num(),
        maxConcurrency: num(),
        webhook: str(),
        webhookHeaders: anyObject(),
        deduplicateSimilarURLs: bool(),
        ignoreQueryParameters: bool(),
        scrapeOptions: anyObject(),
        timeout: num('Seconds to wait for the crawl before answering its status so far.'),
        pollInterval: num(),
      },
      required: ['url'],
    },
    kind: 'crawl',
    run: async (context, args) => {
      const { timeout, pollInterval: _poll, webhookHeaders, webhook, scrapeOptions, ...body } = args;
      if (typeof webhook === 'string') body.webhook = webhookHeaders ? { url: webhook, headers: webhookHeaders } : webhook;
      if (scrapeOptions && typeof scrapeOptions === 'object') body.scrapeOptions = scrapeBody(scrapeOptions as Record<string, unknown>);
      const started = await startCrawlAction(context.services, context.caller, body, context.version, context.origin);
      await waitForJob(context.services, started.id, waitMsFrom(timeout), context.signal);
      return { id: started.id, ...(await statusOf(context, started.id, ['crawl'], 'crawl')) };
    },
  },
  {
    name: 'firecrawl_check_crawl_status',
    description: 'Status, progress and the pages so far of a crawl.',
    inputSchema: { type: 'object', properties: { id: str('The crawl id.') }, required: ['id'] },
    kind: 'crawlStatus',
    run: (context, args) => statusOf(context, args.id, ['crawl'], 'crawl'),
  },
  {
    name: 'firecrawl_extract',
    description: 'Extract structured data from pages with a prompt and/or a JSON schema; waits for the result (up to 45 s).',
    inputSchema: {
      type: 'object',
      properties: { urls: strings(), prompt: str(), schema: anyObject(), allowExternalLinks: bool(), enableWebSearch: bool(), includeSubdomains: bool() },
      required: ['urls'],
    },
    kind: 'extract',
    run: async (context, args) => {
      const started = await startExtractAction(context.services, context.caller, args, context.version);
      await waitForJob(context.services, started.id, waitMsFrom(undefined), context.signal);
      return { id: started.id, ...(await extractStatusOf(context.services, context.caller, started.id)) };
    },
  },
  parseTool,
  {
    name: 'firecrawl_deep_research',
    description: 'Research a question across the web with the configured model; waits for the analysis (up to 45 s).',
    inputSchema: { type: 'object', properties: { query: str(), maxDepth: num(), timeLimit: num(), maxUrls: num() }, required: ['query'] },
    kind: 'crawl',
    run: async (context, args) => {
      const started = await startDeepResearchAction(context.services, context.caller, args);
      await waitForJob(context.services, started.id, waitMsFrom(undefined), context.signal);
      return { id: started.id, ...(await deepResearchStatusOf(context.services, context.caller, started.id)) };
    },
  },
  {
    name: 'firecrawl_generate_llmstxt',
    description: 'Generate an llms.txt (and optionally llms-full.txt) for a site; waits for it (up to 45 s).',
    inputSchema: { type: 'object', properties: { url: str(), maxUrls: num(), showFullText: bool() }, required: ['url'] },
    kind: 'scrape',
    run: async (context, args) => {
      const started = await startLlmsTxtAction(context.services, context.caller, args);
      await waitForJob(context.services, started.id, waitMsFrom(undefined), context.signal);
      return { id: started.id, ...(await llmsTxtStatusOf(context.services, context.caller, started.id)) };
    },
  },
  {
    name: 'firecrawl_agent',
    description:
      'Start a research agent: it reads the given `urls` (or searches the web for the `prompt`), browses, and answers the prompt shaped by `schema`. Answers the job id; read it with firecrawl_agent_status.',
    inputSchema: {
      type: 'object',
      properties: {
        prompt: str(),
        urls: strings(),
        schema: anyObject(),
        effort: { type: 'string', enum: ['low', 'medium', 'high'] },
        maxCredits: num('Spending limit in credits for this run.'),
        strictConstrainToURLs: bool('Only visit the given urls.'),
      },
      required: ['prompt'],
    },
    kind: 'extract',
    run: (context, args) => startAgentAction(context.services, context.caller, args),
  },
  {
    name: 'firecrawl_agent_status',
    description: 'Status, answer, sources and credits of an agent run (processing, completed, failed or cancelled).',
    inputSchema: { type: 'object', properties: { id: str('The agent job id.') }, required: ['id'] },
    kind: 'extractStatus',
    run: (context, args) => agentStatusOf(context.services, context.caller, String(args.id ?? '')),
  },
  {
    name: 'firecrawl_interact',
    description:
      'Run code or a natural-language prompt on a live browser page of a scrape: give `scrapeId` (an earlier scrape) or `url` (scraped first), and `code` (JavaScript run inside the page with language "javascript") or `prompt`.',
    inputSchema: {
      type: 'object',
      properties: {
        scrapeId: str('An earlier scrape of this team.'),
        url: str('A page to scrape first and interact with.'),
        prompt: str('What to do on the page, in words (needs a model).'),
        code: str('JavaScript to run inside the page.'),
        language: { type: 'string', enum: [...interactLanguages] },
        timeout: num('Seconds the code may run (1-300).'),
        scrapeOptions: { type: 'object', properties: scrapeOptionProperties },
      },
    },
    kind: 'scrape',
    run: async (context, args) => {
      const { scrapeId, url, scrapeOptions, ...rest } = args;
      if (Boolean(scrapeId) === Boolean(url)) throw new ValidationError("Provide either 'url' or 'scrapeId', not both", 'scrapeId');
      let id = typeof scrapeId === 'string' ? scrapeId : '';
      if (url) {
        const options = typeof scrapeOptions === 'object' && scrapeOptions !== null ? (scrapeOptions as Record<string, unknown>) : {};
        id = (await scrapeAction(context.services, context.caller, { ...scrapeBody(options), url }, 'v2', context.signal)).data.metadata.scrapeId;
      }
      return { ...(await interactAction(context.services, context.caller, id, { language: 'javascript', ...rest })), scrapeId: id };
    },
  },
  {
    name: 'firecrawl_interact_stop',
    description: 'Stop the live interact session of a `scrapeId` and release its browser page.',
    inputSchema: { type: 'object', properties: { scrapeId: str() }, required: ['scrapeId'] },
    kind: 'scrape',
    run: (context, args) => stopInteractAction(context.services, context.caller, String(args.scrapeId ?? '')),
  },
  ...monitorTools,
];

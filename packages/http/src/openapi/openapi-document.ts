import {
  crawlRequestSchemaV1,
  crawlRequestSchemaV2,
  mapRequestSchemaV1,
  mapRequestSchemaV2,
  scrapeOptionsSchemaV1,
  scrapeOptionsSchemaV2,
  scrapeRequestSchema,
  searchRequestSchemaV1,
  searchRequestSchemaV2,
} from '@quarry/core';
import type { ApiVersion } from '../server/request-context.js';
import { errorStatuses } from '../errors/to-http.js';
import { agentPaths } from './agent-paths.js';
import { monitorPaths } from './monitor-paths.js';
import { interactPaths } from './interact-paths.js';

/**
 * OpenAPI 3.1 documents for /v1 and /v2, generated from the same schema objects that validate the
 * requests (JSON Schema 2020-12 is OpenAPI 3.1's schema dialect), so docs and validation cannot
 * drift apart.
 */
const errorResponse = {
  description: 'Error',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: { success: { const: false }, error: { type: 'string' }, code: { type: 'string' }, details: {} },
        required: ['success', 'error'],
      },
    },
  },
};

// Generated from the error map (errors/to-http.ts): every status an error can answer is documented.
const errors = Object.fromEntries(
  [...errorStatuses()].map(([status, meanings]) => [
    String(status),
    { ...errorResponse, description: meanings.map((text) => text[0]!.toUpperCase() + text.slice(1)).join('; ') + '.' },
  ]),
);

const documentSchema = {
  type: 'object',
  description: 'A scraped page: only the requested formats are present.',
  properties: {
    markdown: { type: 'string' },
    html: { type: 'string' },
    rawHtml: { type: 'string' },
    links: { type: 'array', items: { type: 'string' } },
    metadata: { type: 'object', additionalProperties: true },
    warning: {
      type: 'string',
      description:
        'Set when the page was given in part or a format fell short: a page past QUARRY_MAX_PAGE_ELEMENTS, QUARRY_MAX_TABLE_CELLS or QUARRY_MAX_MARKDOWN_CHARS is cut there and its first part converted; the warning names the bound and how much was kept.',
    },
  },
};

const statusSchema = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    status: { enum: ['scraping', 'completed', 'failed', 'cancelled'] },
    completed: { type: 'integer' },
    total: { type: 'integer' },
    creditsUsed: { type: 'integer' },
    expiresAt: { type: 'string', format: 'date-time' },
    next: { type: 'string', description: 'Present only when finished documents were left out of this page.' },
    data: { type: 'array', items: documentSchema },
  },
};

const webResultSchema = {
  type: 'object',
  description: 'A web result; with scrapeOptions formats, the scraped document fields too.',
  properties: {
    url: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    position: { type: 'integer' },
    ...documentSchema.properties,
  },
};
const searchResponseV1 = { type: 'object', properties: { success: { type: 'boolean' }, data: { type: 'array', items: webResultSchema } } };
const searchResponseV2 = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    creditsUsed: { type: 'integer' },
    data: {
      type: 'object',
      properties: {
        web: { type: 'array', items: webResultSchema },
        images: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              title: { type: 'string' },
              imageUrl: { type: 'string' },
              imageWidth: { type: 'integer' },
              imageHeight: { type: 'integer' },
              url: { type: 'string' },
              position: { type: 'integer' },
            },
          },
        },
        news: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              title: { type: 'string' },
              url: { type: 'string' },
              snippet: { type: 'string' },
              date: { type: 'string' },
              imageUrl: { type: 'string' },
              position: { type: 'integer' },
            },
          },
        },
      },
    },
  },
};

/** The status routes also upgrade to a WebSocket for live watching (routes/job-watch.ts). */
const watchDescription =
  'With `Connection: Upgrade`/`Upgrade: websocket` and the API key as the WebSocket sub-protocol (`new WebSocket(url, apiKey)`), ' +
  'switches to a live watch: `{type: "catchup", data: {status, completed, total, creditsUsed, expiresAt, data: [documents so far]}}`, ' +
  '`{type: "document", data}` per finished page, then `{type: "done", data}` or `{type: "error", error}`, also sent as the close reason. ' +
  "A missing or wrong key (401) or another team's id (404) refuses the handshake.";
const switching = { '101': { description: 'Switching to the WebSocket watch (see the description).' } };

const ok = (schema: object, description = 'OK') => ({ '200': { description, content: { 'application/json': { schema } } }, ...errors });
const body = (schema: object) => ({ required: true, content: { 'application/json': { schema } } });
const idParam = [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }];
const pageParams = [
  ...idParam,
  { name: 'skip', in: 'query', schema: { type: 'integer', minimum: 0 } },
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1 } },
];

export function openApiDocument(version: ApiVersion) {
  const scrapeOptions = version === 'v1' ? scrapeOptionsSchemaV1 : scrapeOptionsSchemaV2;
  const batchBody = {
    ...scrapeOptions,
    description: 'Batch scrape: urls plus the scrape options at the top level.',
    properties: {
      urls: { type: 'array', items: { type: 'string' }, minItems: 1 },
      webhook: {},
      ignoreInvalidURLs: { type: 'boolean', default: version === 'v2' },
      maxConcurrency: { type: 'integer', minimum: 1 },
      ...scrapeOptions.properties,
    },
    required: ['urls'],
  };
  return {
    openapi: '3.1.0',
    info: {
      title: `Quarry API ${version}`,
      version: '0.1.0',
      description: 'Firecrawl-compatible API served by Quarry. Authenticate with `Authorization: Bearer fc-...` when keys exist.',
    },
    servers: [{ url: '/' }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths: {
      [`/${version}/scrape`]: {
        post: {
          summary: 'Scrape one page',
          requestBody: body(scrapeRequestSchema(version)),
          responses: ok({ type: 'object', properties: { success: { type: 'boolean' }, data: documentSchema } }),
        },
      },
      [`/${version}/scrape/{id}`]: {
        get: {
          summary: 'An earlier scrape of your team by its metadata.scrapeId (kept 24 hours)',
          parameters: idParam,
          responses: ok({ type: 'object', properties: { success: { type: 'boolean' }, data: documentSchema } }),
        },
      },
      [`/${version}/crawl`]: {
        post: {
          summary: 'Start a crawl',
          requestBody: body(version === 'v1' ? crawlRequestSchemaV1 : crawlRequestSchemaV2),
          responses: ok({ type: 'object', properties: { success: { type: 'boolean' }, id: { type: 'string' }, url: { type: 'string' } } }),
        },
      },
      [`/${version}/crawl/{id}`]: {
        get: {
          summary: 'Crawl status and documents (paginated), or a live WebSocket watch',
          description: watchDescription,
          parameters: pageParams,
          responses: { ...ok(statusSchema), ...switching },
        },
        delete: { summary: 'Cancel a crawl', parameters: idParam, responses: ok({ type: 'object', properties: { status: { const: 'cancelled' } } }) },
      },
      ...(version === 'v2'
        ? {
            '/v2/crawl/params-preview': {
              post: {
                summary: 'The crawl options a model generates from a prompt, without crawling (needs an LLM provider)',
                requestBody: body({
                  type: 'object',
                  required: ['url', 'prompt'],
                  properties: { url: { type: 'string' }, prompt: { type: 'string', maxLength: 10_000 } },
                }),
                responses: ok({ type: 'object', properties: { success: { type: 'boolean' }, data: { type: 'object' }, warning: { type: 'string' } } }),
              },
            },
          }
        : {}),
      [`/${version}/crawl/{id}/errors`]: {
        get: { summary: 'Per-page errors and robots-blocked URLs', parameters: idParam, responses: ok({ type: 'object' }) },
      },
      [`/${version}/crawl/active`]: { get: { summary: 'Crawls of your team still running', responses: ok({ type: 'object' }) } },
      [`/${version}/batch/scrape`]: { post: { summary: 'Start a batch scrape', requestBody: body(batchBody), responses: ok({ type: 'object' }) } },
      [`/${version}/batch/scrape/{id}`]: {
        get: {
          summary: 'Batch status and documents (paginated), or a live WebSocket watch',
          description: watchDescription,
          parameters: pageParams,
          responses: { ...ok(statusSchema), ...switching },
        },
        delete: { summary: 'Cancel a batch scrape', parameters: idParam, responses: ok({ type: 'object' }) },
      },
      [`/${version}/batch/scrape/{id}/errors`]: { get: { summary: 'Per-page errors of a batch', parameters: idParam, responses: ok({ type: 'object' }) } },
      [`/${version}/map`]: {
        post: {
          summary: 'Map the URLs of a site',
          requestBody: body(version === 'v1' ? mapRequestSchemaV1 : mapRequestSchemaV2),
          responses: ok({ type: 'object' }),
        },
      },
      [`/${version}/search`]: {
        post: {
          summary: 'Search the web (or, with no provider configured, the pages this instance stored)',
          requestBody: body(version === 'v1' ? searchRequestSchemaV1 : searchRequestSchemaV2),
          responses: ok(version === 'v1' ? searchResponseV1 : searchResponseV2),
        },
      },
      ...(version === 'v2'
        ? {
            '/v2/parse': {
              post: {
                summary: 'Convert an uploaded file (PDF, DOCX, XLSX, ODS, CSV, PPTX, HTML, Markdown, text) to a document',
                requestBody: {
                  required: true,
                  content: {
                    'multipart/form-data': {
                      schema: {
                        type: 'object',
                        properties: {
                          file: {
                            type: 'string',
                            format: 'binary',
                            description:
                              "The file; its name's extension tells the type (else the part's content type, else its bytes). At most QUARRY_PARSE_MAX_BYTES (413 above).",
                          },
                          options: {
                            type: 'string',
                            contentMediaType: 'application/json',
                            description: 'JSON: the scrape options that apply to a file (formats, onlyMainContent, includeTags, excludeTags, timeout...).',
                          },
                        },
                        required: ['file'],
                      },
                    },
                  },
                },
                responses: ok({ type: 'object', properties: { success: { type: 'boolean' }, data: documentSchema } }),
              },
            },
          }
        : {}),
      ...agentPaths(version, { ok, body, idParam }),
      ...(version === 'v2' ? monitorPaths({ ok, body, idParam }) : {}),
      ...(version === 'v2' ? interactPaths({ ok, body, idParam }) : {}),
      [`/${version}/team/credit-usage`]: { get: { summary: 'Credits left', responses: ok({ type: 'object' }) } },
      [`/${version}/team/token-usage`]: { get: { summary: 'Tokens left', responses: ok({ type: 'object' }) } },
      [`/${version}/concurrency-check`]: { get: { summary: 'Pages in flight and the limit', responses: ok({ type: 'object' }) } },
      [`/${version}/team/queue-status`]: { get: { summary: 'Queue depth', responses: ok({ type: 'object' }) } },
      [`/${version}/team/credit-usage/historical`]: {
        get: {
          summary: 'Credits used per calendar month (UTC)',
          parameters: [{ name: 'byApiKey', in: 'query', schema: { type: 'boolean' } }],
          responses: ok({ type: 'object' }),
        },
      },
      [`/${version}/team/token-usage/historical`]: {
        get: {
          summary: 'Tokens used per calendar month (UTC)',
          parameters: [{ name: 'byApiKey', in: 'query', schema: { type: 'boolean' } }],
          responses: ok({ type: 'object' }),
        },
      },
      '/mcp': {
        post: {
          summary: 'MCP server (Streamable HTTP, stateless): the firecrawl-mcp tools (firecrawl_scrape, firecrawl_map, firecrawl_crawl, ...)',
          description:
            'JSON-RPC 2.0 messages of the Model Context Protocol; send `Accept: application/json, text/event-stream`. Tools run as the team of the API key.',
          requestBody: body({ type: 'object', description: 'A JSON-RPC request, notification or batch.' }),
          responses: ok({ type: 'object', description: 'The JSON-RPC response.' }),
        },
      },
    },
  };
}

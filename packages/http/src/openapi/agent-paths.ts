import { agentRequestSchema, deepResearchRequestSchema, extractRequestSchema, llmsTxtRequestSchema } from '@quarry/core';
import type { ApiVersion } from '../server/request-context.js';

/**
 * OpenAPI paths of the agent jobs (extract; v2 also the agent; v1 also deep research and llms.txt), from the same
 * schema objects that validate their requests. `ok` and `body` are the document's own helpers.
 */
export interface PathHelpers {
  ok: (schema: object, description?: string) => object;
  body: (schema: object) => object;
  idParam: object[];
}

const status = (values: string[]) => ({ enum: values, description: '`processing` while the job runs.' });
const started = { type: 'object', properties: { success: { type: 'boolean' }, id: { type: 'string' } } };

const extractStatus = {
  type: 'object',
  properties: {
    success: { type: 'boolean', description: 'false only when the job failed' },
    status: status(['processing', 'completed', 'failed', 'cancelled']),
    data: { description: 'The merged data (null until the job completes).' },
    sources: {
      type: 'object',
      additionalProperties: { type: 'array', items: { type: 'string' } },
      description: 'With showSources: the pages of each field (dotted path; `field[i]` for array items).',
    },
    warning: { type: 'string' },
    error: { type: 'string' },
    expiresAt: { type: 'string', format: 'date-time' },
    creditsUsed: { type: 'integer' },
    tokensUsed: { type: 'integer' },
  },
};

const activity = {
  type: 'object',
  properties: {
    type: { enum: ['search', 'extract', 'analyze', 'reasoning', 'synthesis', 'thought'] },
    status: { enum: ['processing', 'complete', 'error'] },
    message: { type: 'string' },
    timestamp: { type: 'string', format: 'date-time' },
    depth: { type: 'integer' },
  },
};
const source = {
  type: 'object',
  properties: { url: { type: 'string' }, title: { type: 'string' }, description: { type: 'string' }, favicon: { type: 'string' } },
};

const researchStatus = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    status: status(['processing', 'completed', 'failed']),
    data: {
      type: 'object',
      properties: { finalAnalysis: { type: 'string' }, sources: { type: 'array', items: source }, activities: { type: 'array', items: activity }, json: {} },
    },
    currentDepth: { type: 'integer' },
    maxDepth: { type: 'integer' },
    totalUrls: { type: 'integer' },
    activities: { type: 'array', items: activity },
    sources: { type: 'array', items: source },
    error: { type: 'string' },
    expiresAt: { type: 'string', format: 'date-time' },
  },
};

const llmsTxtStatus = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    status: status(['processing', 'completed', 'failed']),
    data: { type: 'object', properties: { llmstxt: { type: 'string' }, llmsfulltxt: { type: 'string' } } },
    error: { type: 'string' },
    expiresAt: { type: 'string', format: 'date-time' },
  },
};

const agentStatus = {
  type: 'object',
  properties: {
    success: { type: 'boolean', description: 'false only when the job failed' },
    status: status(['processing', 'completed', 'failed', 'cancelled']),
    data: { description: 'The answer, shaped by the schema (`{answer}` in markdown without one); null until the job completes.' },
    sources: { type: 'array', items: source },
    model: { type: 'string' },
    effort: { enum: ['low', 'medium', 'high'] },
    warning: { type: 'string' },
    error: { type: 'string' },
    expiresAt: { type: 'string', format: 'date-time' },
    creditsUsed: { type: 'integer', description: 'Pages read plus model tokens, never more than maxCredits.' },
  },
};

const agentList = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    agents: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          createdAt: { type: 'string', format: 'date-time' },
          targetHint: { type: 'string' },
          status: status(['processing', 'completed', 'failed', 'cancelled']),
          options: { type: 'object' },
        },
      },
    },
    next: { type: 'string', description: 'The next page (older runs), only when there are more.' },
  },
};

export function agentPaths(version: ApiVersion, { ok, body, idParam }: PathHelpers): Record<string, object> {
  const paths: Record<string, object> = {
    [`/${version}/extract`]: {
      post: {
        summary: 'Start an extract job: structured data from pages (globs like https://site/* allowed), with a schema and/or a prompt',
        requestBody: body(extractRequestSchema),
        responses: ok({
          ...started,
          properties: { ...started.properties, urlTrace: { type: 'array' }, invalidURLs: { type: 'array', items: { type: 'string' } } },
        }),
      },
    },
    [`/${version}/extract/{id}`]: {
      get: { summary: 'Extract status and data', parameters: idParam, responses: ok(extractStatus) },
      delete: { summary: 'Cancel an extract job (a Quarry addition)', parameters: idParam, responses: ok({ type: 'object' }) },
    },
  };
  if (version === 'v2') {
    return {
      ...paths,
      '/v2/agent': {
        post: {
          summary: 'Start the agent: search, browse and extract in steps, then answer the prompt shaped by the schema (needs a model)',
          requestBody: body(agentRequestSchema),
          responses: ok(started),
        },
        get: {
          summary: "Your team's agent runs, newest first",
          parameters: [
            {
              name: 'before',
              in: 'query',
              required: false,
              schema: { type: 'string' },
              description: 'Only runs created before this ISO 8601 time (the `next` link sets it).',
            },
          ],
          responses: ok(agentList),
        },
      },
      '/v2/agent/{id}': {
        get: { summary: 'Agent status, answer, sources and credits', parameters: idParam, responses: ok(agentStatus) },
        delete: {
          summary: 'Cancel an agent run',
          parameters: idParam,
          responses: ok({ type: 'object', properties: { success: { type: 'boolean' }, status: { type: 'string' } } }),
        },
      },
    };
  }
  return {
    ...paths,
    '/v1/deep-research': {
      post: {
        summary: 'Start deep research: search, read and analyze in rounds, then a final analysis',
        requestBody: body(deepResearchRequestSchema),
        responses: ok(started),
      },
    },
    '/v1/deep-research/{id}': {
      get: { summary: 'Deep research status, activities, sources and analysis', parameters: idParam, responses: ok(researchStatus) },
    },
    '/v1/llmstxt': {
      post: { summary: 'Start writing llms.txt (and llms-full.txt) for a site', requestBody: body(llmsTxtRequestSchema), responses: ok(started) },
    },
    '/v1/llmstxt/{id}': { get: { summary: 'llms.txt status and files', parameters: idParam, responses: ok(llmsTxtStatus) } },
  };
}

import { Type, type Static } from '@sinclair/typebox';
import { ValidationError, type FieldIssue } from '../errors.js';
import { checkJsonSchema } from '../llm/json-schema-check.js';
import type { JsonSchema } from '../ports/search-provider.js';
import { sdkFields } from './scrape-options.js';
import { validate } from './validate.js';

/** POST /v2/agent: a task in words, answered from the web (or only the given URLs), shaped by a schema. */
export const agentRequestSchema = Type.Object(
  {
    prompt: Type.String({ minLength: 1, maxLength: 10_000, description: 'What to find out.' }),
    urls: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 8_192 }), { maxItems: 100, description: 'Pages to start from (http or https).' })),
    schema: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'JSON Schema of the answer (`data`); without one, `data` is `{answer}` in markdown.' }),
    ),
    maxCredits: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        description: 'Most credits the job may cost (pages read plus model tokens); it stops reading and answers within them, or fails uncharged.',
      }),
    ),
    strictConstrainToURLs: Type.Boolean({ default: false, description: 'Read only the given `urls` (no web search).' }),
    model: Type.Optional(Type.String({ maxLength: 200, description: "Firecrawl's model name; accepted and shown, the server's configured model answers." })),
    effort: Type.Optional(
      Type.Union([Type.Literal('low'), Type.Literal('medium'), Type.Literal('high')], { description: 'low reads up to 3 pages, medium 6, high 10.' }),
    ),
    ...sdkFields,
  },
  { additionalProperties: false, description: 'Agent request (v2).' },
);

export type AgentRequest = Static<typeof agentRequestSchema>;

export interface AgentOptions {
  prompt: string;
  urls: string[];
  schema: JsonSchema | undefined;
  maxCredits: number | undefined;
  strictConstrainToURLs: boolean;
  model: string | undefined;
  effort: 'low' | 'medium' | 'high';
  /** Pages read at most (from `effort`). */
  maxPages: number;
}

export const agentPagesByEffort = { low: 3, medium: 6, high: 10 } as const;

export function parseAgentRequest(body: unknown): AgentOptions {
  const raw = structuredClone(body ?? {});
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationError('The request body must be a JSON object', '');
  const request = validate(agentRequestSchema, raw);
  const issues: FieldIssue[] = [];
  if (request.prompt.trim() === '') issues.push({ field: 'prompt', message: '`prompt` must say what to find out; got only spaces' });
  const urls = request.urls ?? [];
  urls.forEach((url, index) => {
    if (!/^https?:\/\//i.test(url) || !URL.canParse(url))
      issues.push({ field: `urls[${index}]`, message: `\`urls[${index}]\` must be an http or https URL; got ${JSON.stringify(url.slice(0, 200))}` });
  });
  if (request.strictConstrainToURLs && urls.length === 0) issues.push({ field: 'urls', message: '`urls` is required when `strictConstrainToURLs` is true' });
  if (request.schema !== undefined) issues.push(...checkJsonSchema(request.schema, 'schema'));
  if (issues.length > 0) throw new ValidationError(issues);
  const effort = request.effort ?? 'medium';
  return {
    prompt: request.prompt.trim(),
    urls,
    schema: request.schema as JsonSchema | undefined,
    maxCredits: request.maxCredits,
    strictConstrainToURLs: request.strictConstrainToURLs,
    model: request.model,
    effort,
    maxPages: agentPagesByEffort[effort],
  };
}

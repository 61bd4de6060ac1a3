import { Type, type Static } from '@sinclair/typebox';
import { ValidationError, type FieldIssue } from '../errors.js';
import { checkJsonSchema } from '../llm/json-schema-check.js';
import type { JsonSchema } from '../ports/search-provider.js';
import { sdkFields } from './scrape-options.js';
import { validate } from './validate.js';

/** Deep research (v1 only): POST /v1/deep-research. */
const text = (description: string) => Type.Optional(Type.String({ maxLength: 10_000, description }));

export const deepResearchRequestSchema = Type.Object(
  {
    query: Type.Optional(Type.String({ minLength: 1, maxLength: 10_000, description: 'What to research.' })),
    topic: Type.Optional(Type.String({ minLength: 1, maxLength: 10_000, description: 'Deprecated name of `query`.' })),
    maxDepth: Type.Integer({ minimum: 1, maximum: 12, default: 7, description: 'Most rounds of search, read and analyze.' }),
    maxUrls: Type.Integer({ minimum: 1, maximum: 1_000, default: 20, description: 'Most pages read in all.' }),
    timeLimit: Type.Integer({
      minimum: 30,
      maximum: 600,
      default: 300,
      description: 'Seconds of research; then the final analysis is written from what was found.',
    }),
    analysisPrompt: text('How the final analysis should be written (its shape, focus, length).'),
    systemPrompt: text('Extra instructions for the model in every step.'),
    formats: Type.Array(Type.Union([Type.Literal('markdown'), Type.Literal('json')]), {
      default: ['markdown'],
      minItems: 1,
      maxItems: 2,
      description: 'markdown: the final analysis; json: also structured data (needs jsonOptions).',
    }),
    jsonOptions: Type.Optional(
      Type.Object(
        {
          schema: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'JSON Schema of the structured answer.' })),
          prompt: text('What the structured answer should hold.'),
          systemPrompt: text('Extra instructions for the structured answer.'),
        },
        { additionalProperties: false, description: 'Options of the json format.' },
      ),
    ),
    __experimental_streamSteps: Type.Optional(Type.Boolean({ description: 'Accepted for compatibility; ignored.' })),
    ...sdkFields,
  },
  { additionalProperties: false, description: 'Deep research request (v1).' },
);

export type DeepResearchRequest = Static<typeof deepResearchRequestSchema>;

export interface DeepResearchOptions {
  query: string;
  maxDepth: number;
  maxUrls: number;
  timeLimitMs: number;
  analysisPrompt: string | undefined;
  systemPrompt: string | undefined;
  formats: Array<'markdown' | 'json'>;
  json: { schema: JsonSchema | undefined; prompt: string | undefined; systemPrompt: string | undefined } | undefined;
}

export function parseDeepResearchRequest(body: unknown): DeepResearchOptions {
  const raw = structuredClone(body ?? {});
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationError('The request body must be a JSON object', '');
  const request = validate(deepResearchRequestSchema, raw);
  const issues: FieldIssue[] = [];
  const query = request.query ?? request.topic;
  if (query === undefined || query.trim() === '') issues.push({ field: 'query', message: '`query` is required: say what to research' });
  const wantsJson = request.formats.includes('json');
  if (wantsJson && !request.jsonOptions) issues.push({ field: 'jsonOptions', message: '`jsonOptions` is required when `formats` includes "json"' });
  if (!wantsJson && request.jsonOptions) issues.push({ field: 'jsonOptions', message: '`jsonOptions` is only allowed when `formats` includes "json"' });
  if (request.jsonOptions?.schema !== undefined) issues.push(...checkJsonSchema(request.jsonOptions.schema, 'jsonOptions.schema'));
  if (issues.length > 0) throw new ValidationError(issues);
  return {
    query: query!.trim(),
    maxDepth: request.maxDepth,
    maxUrls: request.maxUrls,
    timeLimitMs: request.timeLimit * 1000,
    analysisPrompt: request.analysisPrompt,
    systemPrompt: request.systemPrompt,
    formats: [...new Set(request.formats)],
    json: request.jsonOptions
      ? { schema: request.jsonOptions.schema, prompt: request.jsonOptions.prompt, systemPrompt: request.jsonOptions.systemPrompt }
      : undefined,
  };
}

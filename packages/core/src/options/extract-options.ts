import { Type, type Static } from '@sinclair/typebox';
import { ValidationError, type FieldIssue } from '../errors.js';
import { checkJsonSchema } from '../llm/json-schema-check.js';
import type { JsonSchema } from '../ports/search-provider.js';
import { parseTargetUrl } from '../scrape/target-url.js';
import { parseScrapeOptions } from './normalize-scrape-options.js';
import type { ApiVersion, ScrapeOptions } from './scrape-options.js';
import { sdkFields } from './scrape-options.js';
import { validate } from './validate.js';
import { webhookSchema } from './webhook-options.js';

/**
 * Extract (v1 and v2): structured data from pages, with a schema and/or a prompt. URLs may end in
 * a glob (`https://site/*`, `https://site/docs/*`) that the site's map expands. The caller's schema
 * is checked here (valid JSON Schema, within the node and depth budget), so a bad one is a 400.
 */
const promptField = (description: string) => Type.Optional(Type.String({ maxLength: 10_000, description }));
const accepted = (description = 'Accepted for compatibility; ignored.') => Type.Optional(Type.Unknown({ description }));

export const extractRequestSchema = Type.Object(
  {
    urls: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 8_192 }), {
        maxItems: 10,
        description: 'Pages to read; a URL ending in `/*` stands for the pages of the site below it (found by its map).',
      }),
    ),
    prompt: promptField('What to extract, in words (needed when there is no schema).'),
    systemPrompt: promptField('Extra instructions for the model.'),
    schema: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'JSON Schema of the object to extract.' })),
    limit: Type.Integer({ minimum: 1, maximum: 500, default: 20, description: 'Most pages read: globs and web search add pages up to it.' }),
    ignoreSitemap: Type.Boolean({ default: false, description: 'Expand globs from links only, without the sitemap.' }),
    includeSubdomains: Type.Boolean({ default: true, description: 'Globs also take pages on subdomains of the site.' }),
    allowExternalLinks: Type.Boolean({
      default: false,
      description: 'Accepted for compatibility: Quarry reads the given pages, what their globs expand to and what web search adds.',
    }),
    enableWebSearch: Type.Boolean({ default: false, description: 'Also read pages found by searching the web for the prompt (needs a search provider).' }),
    showSources: Type.Boolean({ default: false, description: 'Answer, per field, the pages its value came from.' }),
    ignoreInvalidURLs: Type.Optional(Type.Boolean({ description: 'Skip invalid URLs (listed in invalidURLs) instead of failing. v1 default false, v2 true.' })),
    scrapeOptions: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Scrape options for every page (see scrape).' })),
    urlTrace: Type.Boolean({ default: false, description: 'Accepted for compatibility; `urlTrace` is answered empty.' }),
    timeout: Type.Optional(
      Type.Integer({ minimum: 1_000, maximum: 3_600_000, description: 'Milliseconds the job may run; past it, the pages read so far are used.' }),
    ),
    webhook: Type.Optional(webhookSchema),
    agent: accepted('FIRE-1 agent options: accepted; Quarry has no browsing agent and reads pages as they load.'),
    ...sdkFields,
    threatProtection: accepted(),
    __experimental_streamSteps: accepted(),
    __experimental_llmUsage: accepted(),
    __experimental_showSources: accepted('Old name of showSources.'),
    __experimental_cacheMode: accepted(),
    __experimental_cacheKey: accepted(),
  },
  { additionalProperties: false, description: 'Extract request.' },
);

export type ExtractRequest = Static<typeof extractRequestSchema>;

/** The one internal extract options type. */
export interface ExtractOptions {
  /** Valid URLs as given (globs kept). */
  urls: string[];
  prompt: string | undefined;
  systemPrompt: string | undefined;
  schema: JsonSchema | undefined;
  limit: number;
  ignoreSitemap: boolean;
  includeSubdomains: boolean;
  enableWebSearch: boolean;
  showSources: boolean;
  timeoutMs: number | undefined;
  scrapeOptions: ScrapeOptions;
}

export interface ParsedExtractRequest {
  options: ExtractOptions;
  invalidURLs: string[] | undefined;
  webhook: Static<typeof webhookSchema> | undefined;
}

export function parseExtractRequest(version: ApiVersion, body: unknown): ParsedExtractRequest {
  const raw = structuredClone(body ?? {});
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationError('The request body must be a JSON object', '');
  const request = validate(extractRequestSchema, raw);
  const issues: FieldIssue[] = [];
  if (request.schema !== undefined) issues.push(...checkJsonSchema(request.schema, 'schema'));
  if (!request.prompt && request.schema === undefined) issues.push({ field: 'prompt', message: '`prompt` or `schema` is required: say what to extract' });
  if ((request.urls ?? []).length === 0 && !request.prompt)
    issues.push({ field: 'urls', message: '`urls` is required unless a `prompt` is given (the pages are then found by web search)' });
  if (issues.length > 0) throw new ValidationError(issues);
  const ignoreInvalid = request.ignoreInvalidURLs ?? version === 'v2';
  const urls: string[] = [];
  const invalid: string[] = [];
  (request.urls ?? []).forEach((url, index) => {
    try {
      parseTargetUrl(url.replace(/\/\*$/, '/'), `urls[${index}]`);
      urls.push(url);
    } catch (error) {
      if (!ignoreInvalid) throw error;
      invalid.push(url);
    }
  });
  if (urls.length === 0 && (request.urls ?? []).length > 0 && !request.prompt) throw new ValidationError('`urls` holds no valid URL', 'urls');
  return {
    options: {
      urls,
      prompt: request.prompt,
      systemPrompt: request.systemPrompt,
      schema: request.schema,
      limit: request.limit,
      ignoreSitemap: request.ignoreSitemap,
      includeSubdomains: request.includeSubdomains,
      enableWebSearch: request.enableWebSearch,
      showSources: request.showSources || request.__experimental_showSources === true,
      timeoutMs: request.timeout,
      scrapeOptions: parseScrapeOptions(version, request.scrapeOptions, 'scrapeOptions'),
    },
    invalidURLs: ignoreInvalid ? invalid : undefined,
    webhook: request.webhook,
  };
}

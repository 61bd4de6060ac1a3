import { Type, type Static } from '@sinclair/typebox';
import { ValidationError } from '../errors.js';
import { parseTargetUrl } from '../scrape/target-url.js';
import { sdkFields, urlField } from './scrape-options.js';
import { validate } from './validate.js';

/** llms.txt generation (v1 only): POST /v1/llmstxt. */
export const llmsTxtRequestSchema = Type.Object(
  {
    url: urlField('The site to describe (http or https); its map decides which pages are read.'),
    maxUrls: Type.Integer({ minimum: 1, maximum: 5_000, default: 2, description: 'Most pages read and listed.' }),
    showFullText: Type.Boolean({ default: false, description: 'Also write llms-full.txt (`llmsfulltxt`): every page in full, as markdown.' }),
    cache: Type.Boolean({ default: true, description: 'Accepted for compatibility; Quarry writes the file anew for every request.' }),
    __experimental_stream: Type.Optional(Type.Boolean({ description: 'Accepted for compatibility; ignored.' })),
    ...sdkFields,
  },
  { additionalProperties: false, description: 'llms.txt request (v1).' },
);

export type LlmsTxtRequest = Static<typeof llmsTxtRequestSchema>;

export interface LlmsTxtOptions {
  url: string;
  maxUrls: number;
  showFullText: boolean;
}

export function parseLlmsTxtRequest(body: unknown): LlmsTxtOptions {
  const raw = structuredClone(body ?? {});
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationError('The request body must be a JSON object', '');
  const request = validate(llmsTxtRequestSchema, raw);
  return { url: parseTargetUrl(request.url).href, maxUrls: request.maxUrls, showFullText: request.showFullText };
}

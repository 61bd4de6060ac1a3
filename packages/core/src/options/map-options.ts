import { Type, type Static } from '@sinclair/typebox';
import { ValidationError } from '../errors.js';
import type { ApiVersion } from './scrape-options.js';
import { locationSchema, sdkFields, urlField } from './scrape-options.js';
import { validate } from './validate.js';

/** Map options (v1 and v2) onto one internal `MapOptions`. */
const strict = { additionalProperties: false } as const;

function commonMapFields() {
  return {
    url: urlField('The site to map (http or https).'),
    search: Type.Optional(Type.String({ maxLength: 1_000, description: 'Rank links by relevance to this query (path words, title, description).' })),
    includeSubdomains: Type.Boolean({ default: true, description: 'Include links on subdomains of the site.' }),
    ignoreQueryParameters: Type.Boolean({ default: true, description: 'Treat URLs that differ only in their query as one.' }),
    limit: Type.Integer({ minimum: 1, maximum: 30_000, default: 5_000, description: 'Most links to return.' }),
    timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: 300_000, description: 'Milliseconds allowed; on expiry the answer is 408 "Map timed out".' })),
    location: Type.Optional(locationSchema),
    useIndex: Type.Boolean({ default: true, description: 'Also use pages this instance has stored.' }),
    filterByPath: Type.Boolean({ default: true, description: 'Keep only links below the given URL path (when it has one).' }),
    ...sdkFields,
  };
}

export const mapRequestSchemaV2 = Type.Object(
  {
    ...commonMapFields(),
    sitemap: Type.Union([Type.Literal('include'), Type.Literal('skip'), Type.Literal('only')], {
      default: 'include',
      description: 'include: sitemap and crawled links; only: sitemap links only; skip: crawled links only.',
    }),
  },
  { ...strict, description: 'Map request (v2).' },
);

export const mapRequestSchemaV1 = Type.Object(
  {
    ...commonMapFields(),
    ignoreSitemap: Type.Boolean({ default: false, description: 'Do not read sitemaps.' }),
    sitemapOnly: Type.Boolean({ default: false, description: 'Return sitemap links only.' }),
  },
  { ...strict, description: 'Map request (v1).' },
);

export interface MapOptions {
  search: string | undefined;
  sitemap: 'include' | 'skip' | 'only';
  includeSubdomains: boolean;
  ignoreQueryParameters: boolean;
  limit: number;
  timeoutMs: number | undefined;
  useIndex: boolean;
  filterByPath: boolean;
}

export type MapOptionsInput = Partial<Omit<Static<typeof mapRequestSchemaV2>, 'url' | 'origin' | 'integration' | 'location'>>;

export function parseMapRequest(version: ApiVersion, body: unknown): { url: string; options: MapOptions } {
  const raw = structuredClone(body ?? {});
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationError('The request body must be a JSON object', '');
  if (version === 'v1') {
    const request = validate(mapRequestSchemaV1, raw);
    return { url: request.url, options: { ...common(request), sitemap: request.sitemapOnly ? 'only' : request.ignoreSitemap ? 'skip' : 'include' } };
  }
  const request = validate(mapRequestSchemaV2, raw);
  return { url: request.url, options: { ...common(request), sitemap: request.sitemap } };
}

export function parseMapOptions(url: string, input: MapOptionsInput = {}): MapOptions {
  return parseMapRequest('v2', { ...input, url }).options;
}

function common(request: Static<typeof mapRequestSchemaV2> | Static<typeof mapRequestSchemaV1>) {
  return {
    search: request.search,
    includeSubdomains: request.includeSubdomains,
    ignoreQueryParameters: request.ignoreQueryParameters,
    limit: request.limit,
    timeoutMs: request.timeout,
    useIndex: request.useIndex,
    filterByPath: request.filterByPath,
  };
}

import { Type, type Static } from '@sinclair/typebox';
import { ValidationError } from '../errors.js';
import type { SearchSource } from '../ports/search-provider.js';
import { parseScrapeOptions } from './normalize-scrape-options.js';
import type { ApiVersion, ScrapeOptions } from './scrape-options.js';
import { sdkFields } from './scrape-options.js';
import { validate } from './validate.js';

/**
 * The search request (v1 and v2) onto one internal `SearchRequest`. v1 answers `data: Document[]`,
 * v2 `data: {web, images, news}`; scrapeOptions default to no formats, i.e. no scraping.
 */
const strict = { additionalProperties: false } as const;
const sourceNames = ['web', 'images', 'news'] as const;

function commonSearchFields() {
  return {
    query: Type.String({ minLength: 1, maxLength: 2_000, description: 'What to search for.' }),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 5, description: 'Most results per source.' }),
    tbs: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'Time filter: qdr:h|d|w|m|y (past hour ... year, optionally with a count, e.g. qdr:d3) or cdr:1,cd_min:M/D/YYYY,cd_max:M/D/YYYY.',
      }),
    ),
    filter: Type.Optional(Type.String({ maxLength: 500, description: 'Provider-specific filter (passed on where supported).' })),
    lang: Type.String({ default: 'en', maxLength: 35, description: 'Language of the results (ISO 639-1).' }),
    country: Type.String({ default: 'us', maxLength: 10, description: 'Country of the results (ISO 3166-1 alpha-2).' }),
    location: Type.Optional(Type.String({ maxLength: 200, description: 'Location the search is made from, e.g. "Germany" (web-search providers).' })),
    timeout: Type.Integer({
      minimum: 1,
      maximum: 300_000,
      default: 60_000,
      description: 'Milliseconds allowed; on expiry the answer is 408 "Request timed out".',
    }),
    ignoreInvalidURLs: Type.Boolean({ default: false, description: 'Drop results whose URL could not be scraped (not http or https).' }),
    scrapeOptions: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: 'Scrape every result with these options (see scrape); formats default to [] (no scraping).' }),
    ),
    ...sdkFields,
  };
}

const sourceSchema = Type.Union([
  ...sourceNames.map((name) => Type.Literal(name)),
  Type.Object({ type: Type.Union(sourceNames.map((name) => Type.Literal(name))) }, { additionalProperties: true }),
]);

export const searchRequestSchemaV2 = Type.Object(
  {
    ...commonSearchFields(),
    sources: Type.Array(sourceSchema, { default: ['web'], maxItems: 3, description: 'Where to search: web, images, news.' }),
    categories: Type.Optional(
      Type.Array(Type.Union([Type.String({ maxLength: 50 }), Type.Object({ type: Type.String({ maxLength: 50 }) }, { additionalProperties: true })]), {
        maxItems: 10,
        description: 'Result categories (e.g. github, research); passed to providers that have them.',
      }),
    ),
    includeDomains: Type.Optional(Type.Array(Type.String({ maxLength: 253 }), { maxItems: 100, description: 'Only results on these domains.' })),
    excludeDomains: Type.Optional(Type.Array(Type.String({ maxLength: 253 }), { maxItems: 100, description: 'No results on these domains.' })),
  },
  { ...strict, description: 'Search request (v2).' },
);

export const searchRequestSchemaV1 = Type.Object(commonSearchFields(), { ...strict, description: 'Search request (v1).' });

/** The one internal search request. */
export interface SearchRequest {
  query: string;
  limit: number;
  sources: SearchSource[];
  categories: string[];
  tbs: string | undefined;
  filter: string | undefined;
  lang: string;
  country: string;
  location: string | undefined;
  timeoutMs: number;
  ignoreInvalidURLs: boolean;
  includeDomains: string[];
  excludeDomains: string[];
  /** Scrape options for each result, or undefined when no format was asked (no scraping). */
  scrapeOptions: ScrapeOptions | undefined;
}

export type SearchRequestInputV2 = Static<typeof searchRequestSchemaV2>;

export function parseSearchRequest(version: ApiVersion, body: unknown): SearchRequest {
  const raw = structuredClone(body ?? {});
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationError('The request body must be a JSON object', '');
  const rawScrape = (raw as Record<string, unknown>).scrapeOptions;
  const request = version === 'v1' ? validate(searchRequestSchemaV1, raw) : validate(searchRequestSchemaV2, raw);
  const v2 = version === 'v2' ? (request as Static<typeof searchRequestSchemaV2>) : undefined;
  if (v2?.includeDomains?.length && v2.excludeDomains?.length) {
    throw new ValidationError('`includeDomains` and `excludeDomains` cannot be used together', 'includeDomains');
  }
  return {
    query: request.query,
    limit: request.limit,
    sources: v2 ? [...new Set(v2.sources.map((source) => (typeof source === 'string' ? source : source.type)))] : ['web'],
    categories: v2?.categories?.map((category) => (typeof category === 'string' ? category : category.type)) ?? [],
    tbs: request.tbs,
    filter: request.filter,
    lang: request.lang,
    country: request.country,
    location: request.location,
    timeoutMs: request.timeout,
    ignoreInvalidURLs: request.ignoreInvalidURLs,
    includeDomains: v2?.includeDomains ?? [],
    excludeDomains: v2?.excludeDomains ?? [],
    scrapeOptions: scrapeOptionsOf(version, rawScrape),
  };
}

function scrapeOptionsOf(version: ApiVersion, raw: unknown): ScrapeOptions | undefined {
  if (raw === undefined || raw === null) return undefined;
  const withFormats = typeof raw === 'object' && !Array.isArray(raw) && !('formats' in raw) ? { ...raw, formats: [] } : raw;
  const options = parseScrapeOptions(version, withFormats, 'scrapeOptions');
  return options.formats.length === 0 ? undefined : options;
}

import { Type, type Static } from '@sinclair/typebox';
import { ValidationError } from '../errors.js';
import { parseScrapeOptions } from './normalize-scrape-options.js';
import type { ApiVersion, ScrapeOptions } from './scrape-options.js';
import { sdkFields, urlField } from './scrape-options.js';
import { validate } from './validate.js';
import { webhookSchema } from './webhook-options.js';

/**
 * Crawl options (v1 and v2), declared once with defaults and descriptions, mapped onto the one
 * internal `CrawlOptions`. Pattern limits and regex validity are checked when the rules compile
 * (crawl/path-patterns.ts), so their errors also name the pattern.
 */
const strict = { additionalProperties: false } as const;
const patternList = (description: string) => Type.Array(Type.String({ maxLength: 2_000 }), { default: [], maxItems: 1_000, description });

function commonCrawlFields() {
  return {
    url: urlField('Where the crawl starts (http or https).'),
    includePaths: patternList('Regexes; only URLs whose path (or full URL with regexOnFullURL) matches one are crawled. Unanchored: use ^ and $.'),
    excludePaths: patternList('Regexes; URLs whose path (or full URL with regexOnFullURL) matches one are skipped. Unanchored: use ^ and $.'),
    maxDiscoveryDepth: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 10_000, description: 'Link hops from the start page; the start page and sitemap URLs are 0.' }),
    ),
    ignoreQueryParameters: Type.Boolean({ default: false, description: 'Treat URLs that differ only in their query string as one page.' }),
    deduplicateSimilarURLs: Type.Boolean({ default: true, description: 'Treat www/no-www, http/https, trailing slash and index.html variants as one page.' }),
    limit: Type.Integer({ minimum: 1, maximum: 100_000, default: 10_000, description: 'Most pages to crawl (capped by the credits left).' }),
    crawlEntireDomain: Type.Optional(Type.Boolean({ description: 'Follow links outside the start path (sideways and up), not only below it. Default false.' })),
    allowExternalLinks: Type.Boolean({ default: false, description: 'Follow links to other sites.' }),
    allowSubdomains: Type.Boolean({ default: false, description: 'Follow links to subdomains of the same registrable domain.' }),
    delay: Type.Optional(Type.Number({ minimum: 0, maximum: 3_600, description: 'Seconds to wait between requests (makes the crawl sequential).' })),
    maxConcurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000, description: 'Most pages of this crawl fetched at once.' })),
    regexOnFullURL: Type.Boolean({ default: false, description: 'Match includePaths/excludePaths against the full URL instead of the path.' }),
    ignoreRobotsTxt: Type.Boolean({ default: false, description: 'Do not read or honour robots.txt.' }),
    robotsUserAgent: Type.Optional(Type.String({ maxLength: 200, description: 'User-agent token matched against robots.txt groups.' })),
    webhook: Type.Optional(webhookSchema),
    zeroDataRetention: Type.Optional(Type.Boolean({ description: 'Keep nothing after the job expires.' })),
    ...sdkFields,
  };
}

export const crawlRequestSchemaV2 = Type.Object(
  {
    ...commonCrawlFields(),
    sitemap: Type.Union([Type.Literal('include'), Type.Literal('skip'), Type.Literal('only')], {
      default: 'include',
      description: 'include: sitemap URLs and links; skip: links only; only: sitemap URLs only.',
    }),
    prompt: Type.Optional(Type.String({ maxLength: 10_000, description: 'Describe the crawl in words (needs an LLM provider).' })),
    scrapeOptions: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Scrape options for every page (see scrape).' })),
  },
  { ...strict, description: 'Crawl request (v2).' },
);

export const crawlRequestSchemaV1 = Type.Object(
  {
    ...commonCrawlFields(),
    maxDepth: Type.Integer({ minimum: 0, maximum: 10_000, default: 10, description: 'Most path segments below the start URL.' }),
    allowBackwardLinks: Type.Optional(Type.Boolean({ description: 'Deprecated name of crawlEntireDomain.' })),
    ignoreSitemap: Type.Boolean({ default: false, description: 'Do not read sitemaps.' }),
    scrapeOptions: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Scrape options for every page (see scrape).' })),
  },
  { ...strict, description: 'Crawl request (v1).' },
);

export type CrawlRequestV2 = Static<typeof crawlRequestSchemaV2>;
export type CrawlRequestV1 = Static<typeof crawlRequestSchemaV1>;

/** The one internal crawl options type. */
export interface CrawlOptions {
  includePaths: string[];
  excludePaths: string[];
  /** v1 only: path depth below the start URL. */
  maxDepth: number | undefined;
  maxDiscoveryDepth: number | undefined;
  sitemap: 'include' | 'skip' | 'only';
  ignoreQueryParameters: boolean;
  deduplicateSimilarURLs: boolean;
  limit: number;
  crawlEntireDomain: boolean;
  allowExternalLinks: boolean;
  allowSubdomains: boolean;
  delaySeconds: number;
  maxConcurrency: number | undefined;
  regexOnFullURL: boolean;
  ignoreRobotsTxt: boolean;
  robotsUserAgent: string | undefined;
  scrapeOptions: ScrapeOptions;
}

export interface ParsedCrawlRequest {
  url: string;
  options: CrawlOptions;
  webhook: Static<typeof webhookSchema> | undefined;
  zeroDataRetention: boolean;
  /** v2: the crawl described in words; a server with a model turns it into options (llm/crawl-prompt.ts). */
  prompt?: string;
}

/** Crawl options a library user may pass to `engine.crawl` (the v2 spelling, all optional). */
export type CrawlOptionsInput = Partial<Omit<CrawlRequestV2, 'url' | 'webhook' | 'origin' | 'integration'>>;

export function parseCrawlRequest(version: ApiVersion, body: unknown): ParsedCrawlRequest {
  const raw = structuredClone(body ?? {});
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationError('The request body must be a JSON object', '');
  if (version === 'v1') {
    const request = validate(crawlRequestSchemaV1, raw);
    return {
      url: request.url,
      webhook: request.webhook,
      zeroDataRetention: request.zeroDataRetention ?? false,
      options: {
        ...common(request),
        maxDepth: request.maxDepth,
        sitemap: request.ignoreSitemap ? 'skip' : 'include',
        crawlEntireDomain: request.crawlEntireDomain ?? request.allowBackwardLinks ?? false,
        scrapeOptions: parseScrapeOptions('v1', request.scrapeOptions, 'scrapeOptions'),
      },
    };
  }
  const request = validate(crawlRequestSchemaV2, raw);
  return {
    ...(request.prompt !== undefined ? { prompt: request.prompt } : {}),
    url: request.url,
    webhook: request.webhook,
    zeroDataRetention: request.zeroDataRetention ?? false,
    options: {
      ...common(request),
      maxDepth: undefined,
      sitemap: request.sitemap,
      crawlEntireDomain: request.crawlEntireDomain ?? false,
      scrapeOptions: parseScrapeOptions('v2', request.scrapeOptions, 'scrapeOptions'),
    },
  };
}

/** Library path: v2 spelling without url/webhook. */
export function parseCrawlOptions(url: string, input: CrawlOptionsInput = {}): CrawlOptions {
  const parsed = parseCrawlRequest('v2', { ...input, url });
  if (parsed.prompt !== undefined) {
    throw new ValidationError(
      '`prompt` is turned into crawl options by the server (POST /v2/crawl with a model configured) or by generateCrawlOptions; engine.crawl takes the options themselves',
      'prompt',
    );
  }
  return parsed.options;
}

function common(request: CrawlRequestV1 | CrawlRequestV2) {
  return {
    includePaths: request.includePaths,
    excludePaths: request.excludePaths,
    maxDiscoveryDepth: request.maxDiscoveryDepth,
    ignoreQueryParameters: request.ignoreQueryParameters,
    deduplicateSimilarURLs: request.deduplicateSimilarURLs,
    limit: request.limit,
    allowExternalLinks: request.allowExternalLinks,
    allowSubdomains: request.allowSubdomains,
    delaySeconds: request.delay ?? 0,
    maxConcurrency: request.maxConcurrency,
    regexOnFullURL: request.regexOnFullURL,
    ignoreRobotsTxt: request.ignoreRobotsTxt,
    robotsUserAgent: request.robotsUserAgent,
  };
}

import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { actionSchema, type Action } from './actions.js';
import { formatSchemaV1, formatSchemaV2, type FormatSpec } from './formats.js';

/**
 * Every scrape option of the API, declared once with its default and description. From these
 * schemas come validation (ajv, see validate.ts), the TypeScript types and the OpenAPI documents.
 * v1 and v2 differ in a few defaults and spellings; both map onto `ScrapeOptions` (normalize-scrape-options.ts).
 */
export type ApiVersion = 'v1' | 'v2';

const strict = { additionalProperties: false } as const;

export const locationSchema = Type.Object(
  {
    country: Type.String({
      pattern: '^([A-Za-z]{2}|US-generic)$',
      default: 'US',
      description: 'ISO 3166-1 alpha-2 country code; sets Accept-Language, locale and timezone in the browser.',
    }),
    languages: Type.Optional(
      Type.Array(Type.String({ minLength: 2, maxLength: 35 }), {
        maxItems: 20,
        description: 'Preferred languages in order, e.g. ["de-DE", "en"].',
      }),
    ),
  },
  { ...strict, description: 'Location emulation (browser engine).' },
);

const jsonOptionsV1 = Type.Object(
  {
    schema: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'JSON Schema of the object to extract.' })),
    prompt: Type.Optional(Type.String({ maxLength: 10_000, description: 'What to extract, in words.' })),
    systemPrompt: Type.Optional(Type.String({ maxLength: 10_000, description: 'System prompt for the model.' })),
  },
  { ...strict, description: 'Options of the json (and extract) format.' },
);

const changeTrackingOptionsV1 = Type.Object(
  {
    modes: Type.Optional(Type.Array(Type.Union([Type.Literal('git-diff'), Type.Literal('json')]))),
    schema: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    prompt: Type.Optional(Type.String({ maxLength: 10_000 })),
    tag: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  },
  { ...strict, description: 'Options of the changeTracking format.' },
);

const proxyKinds = ['basic', 'enhanced', 'stealth', 'auto'] as const;

/** Fields shared by v1 and v2, with the defaults that differ passed in. */
function commonFields(defaults: { skipTlsVerification: boolean; proxy: (typeof proxyKinds)[number]; maxAge: number }) {
  return {
    onlyMainContent: Type.Boolean({
      default: true,
      description: 'Return only the main content of the page, without navigation, headers, footers and sidebars.',
    }),
    includeTags: Type.Array(Type.String({ minLength: 1, maxLength: 500 }), {
      default: [],
      maxItems: 100,
      description: 'CSS selectors of the only elements to keep.',
    }),
    excludeTags: Type.Array(Type.String({ minLength: 1, maxLength: 500 }), {
      default: [],
      maxItems: 100,
      description: 'CSS selectors of elements to remove.',
    }),
    maxAge: Type.Integer({
      minimum: 0,
      default: defaults.maxAge,
      description: 'Return a cached copy younger than this many milliseconds, if one exists.',
    }),
    headers: Type.Record(Type.String({ maxLength: 256 }), Type.String({ maxLength: 16_384 }), {
      default: {},
      maxProperties: 100,
      description: 'Extra request headers (cookies go in a Cookie header); at most 100.',
    }),
    waitFor: Type.Integer({
      minimum: 0,
      maximum: 60_000,
      default: 0,
      description: 'Milliseconds to wait after load before reading the page (browser engine); at most half of timeout.',
    }),
    mobile: Type.Boolean({ default: false, description: 'Emulate a phone (browser engine).' }),
    skipTlsVerification: Type.Boolean({
      default: defaults.skipTlsVerification,
      description: 'Accept invalid TLS certificates.',
    }),
    timeout: Type.Integer({
      minimum: 1_000,
      maximum: 600_000,
      default: 30_000,
      description: 'Milliseconds allowed for the whole scrape (long PDFs may need minutes; at most ten).',
    }),
    actions: Type.Array(actionSchema, { default: [], description: 'Browser actions run before the page is read.' }),
    location: Type.Optional(locationSchema),
    removeBase64Images: Type.Boolean({
      default: true,
      description: 'Replace inline base64 images in markdown with a placeholder.',
    }),
    blockAds: Type.Boolean({ default: true, description: 'Block ads and hide cookie banners (browser engine).' }),
    proxy: Type.Union(
      proxyKinds.map((kind) => Type.Literal(kind)),
      {
        default: defaults.proxy,
        description: 'Proxy pool: basic, enhanced (stealth is its old name), or auto (basic, then enhanced when blocked).',
      },
    ),
    storeInCache: Type.Boolean({ default: true, description: 'Keep the result in the index for maxAge and search.' }),
    fastMode: Type.Optional(Type.Boolean({ description: 'Accepted for compatibility; Quarry is always fast.' })),
    zeroDataRetention: Type.Optional(Type.Boolean({ description: 'Keep nothing after the response.' })),
  };
}

export const scrapeOptionsV2Fields = {
  formats: Type.Array(formatSchemaV2, {
    default: [{ type: 'markdown' }],
    maxItems: 20,
    description: 'Output formats (objects, or plain format names).',
  }),
  ...commonFields({ skipTlsVerification: true, proxy: 'auto', maxAge: 172_800_000 }),
  parsers: Type.Array(
    Type.Union([
      Type.Literal('pdf'),
      Type.Object(
        {
          type: Type.Literal('pdf'),
          maxPages: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, description: 'Parse at most this many pages.' })),
        },
        strict,
      ),
    ]),
    { default: ['pdf'], description: 'Parsers for files: ["pdf"] parses PDFs to markdown; [] returns them as base64.' },
  ),
};

export const scrapeOptionsV1Fields = {
  formats: Type.Array(formatSchemaV1, {
    default: ['markdown'],
    maxItems: 20,
    description: 'Output formats.',
  }),
  ...commonFields({ skipTlsVerification: false, proxy: 'basic', maxAge: 0 }),
  parsePDF: Type.Boolean({ default: true, description: 'Parse PDFs to markdown; false returns them as base64.' }),
  jsonOptions: Type.Optional(jsonOptionsV1),
  extract: Type.Optional(jsonOptionsV1),
  changeTrackingOptions: Type.Optional(changeTrackingOptionsV1),
};

export const scrapeOptionsSchemaV2 = Type.Object(scrapeOptionsV2Fields, { ...strict, description: 'Scrape options (v2).' });
export const scrapeOptionsSchemaV1 = Type.Object(scrapeOptionsV1Fields, { ...strict, description: 'Scrape options (v1).' });

export type ScrapeOptionsV2 = Static<typeof scrapeOptionsSchemaV2>;
export type ScrapeOptionsV1 = Static<typeof scrapeOptionsSchemaV1>;

/** What a library user may pass to `engine.scrape`: any subset of the v2 options. */
export type ScrapeOptionsInput = Partial<Omit<ScrapeOptionsV2, 'formats'>> & {
  formats?: Array<FormatSpec['type'] | FormatSpec>;
};

export type ProxyKind = (typeof proxyKinds)[number];

/** The one internal options type every scrape runs on. */
export interface ScrapeOptions {
  formats: FormatSpec[];
  onlyMainContent: boolean;
  includeTags: string[];
  excludeTags: string[];
  maxAge: number;
  headers: Record<string, string>;
  waitFor: number;
  mobile: boolean;
  skipTlsVerification: boolean;
  timeout: number;
  actions: Action[];
  location: Static<typeof locationSchema> | undefined;
  removeBase64Images: boolean;
  blockAds: boolean;
  proxy: ProxyKind;
  storeInCache: boolean;
  /** Parse PDFs to markdown (v2 parsers ["pdf"], v1 parsePDF). */
  parsePdf: boolean;
  pdfMaxPages: number | undefined;
  zeroDataRetention: boolean;
}

/** The request body of POST /scrape: url plus the options, plus what SDKs add. */
export function scrapeRequestSchema(version: ApiVersion) {
  const fields = version === 'v1' ? scrapeOptionsV1Fields : scrapeOptionsV2Fields;
  return Type.Object({ url: urlField(), ...fields, ...sdkFields }, { ...strict, description: `Scrape request (${version}).` });
}

export function urlField(description = 'The page to scrape (http or https).') {
  return Type.String({ minLength: 1, maxLength: 8_192, description });
}

/** Keys the official SDKs add to every body; accepted and ignored. */
export const sdkFields = {
  origin: Type.Optional(Type.String({ description: 'Client identifier sent by the SDKs.' })),
  integration: Type.Optional(Type.String({ description: 'Integration name sent by some SDKs.' })),
} satisfies Record<string, TSchema>;

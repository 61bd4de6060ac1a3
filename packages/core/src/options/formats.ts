import { Type, type Static } from '@sinclair/typebox';
import { viewportSchema } from './actions.js';
import { taggedUnion } from './tagged-union.js';

/**
 * Output formats. v2 takes objects `{type, ...}` (plain strings are accepted and turned into
 * `{type}` before validation); v1 takes strings and keeps the options of json and changeTracking
 * in sibling fields. Both end as `FormatSpec[]`, the one internal shape.
 */
const strict = { additionalProperties: false } as const;

const jsonSchemaValue = Type.Record(Type.String(), Type.Unknown(), {
  description: 'A JSON Schema for the object to extract.',
});

export const formatSchemas = {
  markdown: Type.Object({ type: Type.Literal('markdown') }, { ...strict, description: 'Markdown of the page.' }),
  html: Type.Object({ type: Type.Literal('html') }, { ...strict, description: 'Cleaned HTML (same cleaning as markdown).' }),
  rawHtml: Type.Object({ type: Type.Literal('rawHtml') }, { ...strict, description: 'The HTML as received.' }),
  links: Type.Object({ type: Type.Literal('links') }, { ...strict, description: 'Absolute, deduplicated links of the page.' }),
  images: Type.Object({ type: Type.Literal('images') }, { ...strict, description: 'Absolute image URLs of the page.' }),
  summary: Type.Object({ type: Type.Literal('summary') }, { ...strict, description: 'A short LLM-written summary.' }),
  screenshot: Type.Object(
    {
      type: Type.Literal('screenshot'),
      fullPage: Type.Boolean({ default: false, description: 'Capture the whole page, not only the viewport.' }),
      quality: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'JPEG quality 1-100.' })),
      viewport: Type.Optional(viewportSchema),
    },
    { ...strict, description: 'A screenshot of the rendered page (browser engine).' },
  ),
  json: Type.Object(
    {
      type: Type.Literal('json'),
      schema: Type.Optional(jsonSchemaValue),
      prompt: Type.Optional(Type.String({ maxLength: 10_000, description: 'What to extract, in words.' })),
    },
    { ...strict, description: 'Structured data extracted by an LLM (schema and/or prompt).' },
  ),
  changeTracking: Type.Object(
    {
      type: Type.Literal('changeTracking'),
      modes: Type.Array(Type.Union([Type.Literal('git-diff'), Type.Literal('json')]), {
        default: [],
        description: 'Extra comparisons: a git-style diff and/or a JSON field comparison.',
      }),
      schema: Type.Optional(jsonSchemaValue),
      prompt: Type.Optional(Type.String({ maxLength: 10_000 })),
      tag: Type.Union([Type.String({ maxLength: 200 }), Type.Null()], {
        default: null,
        description: 'Separate histories per tag.',
      }),
    },
    { ...strict, description: 'Compare with the previous scrape of the same URL.' },
  ),
  branding: Type.Object({ type: Type.Literal('branding') }, { ...strict, description: 'Colors, fonts and logo of the site (browser engine).' }),
};

export type FormatType = keyof typeof formatSchemas;
export const formatTypes = Object.keys(formatSchemas) as FormatType[];

export const formatSchemaV2 = taggedUnion(Object.values(formatSchemas), { description: 'An output format.' });

/** v1 spells formats as strings; `screenshot@fullPage` and `extract` exist only there. */
export const formatNamesV1 = [
  'markdown',
  'html',
  'rawHtml',
  'links',
  'screenshot',
  'screenshot@fullPage',
  'json',
  'extract',
  'changeTracking',
  'branding',
] as const;

export const formatSchemaV1 = Type.Union(
  formatNamesV1.map((name) => Type.Literal(name)),
  { description: 'An output format.' },
);

/** The one internal shape of a format. `resultKey` lets v1 `extract` land under `extract`. */
export type FormatSpec = Static<typeof formatSchemaV2> & { resultKey?: string; systemPrompt?: string };
export type FormatOf<T extends FormatType> = Extract<FormatSpec, { type: T }>;

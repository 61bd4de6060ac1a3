import { Type, type Static } from '@sinclair/typebox';
import { taggedUnion } from './tagged-union.js';

/**
 * Browser actions (Firecrawl §5). Declared once here: validation, types and the OpenAPI documents
 * all come from these schemas. Actions run in the browser engine.
 */
const strict = { additionalProperties: false } as const;

export const viewportSchema = Type.Object(
  {
    width: Type.Integer({ minimum: 1, maximum: 7680, description: 'Viewport width in CSS pixels.' }),
    height: Type.Integer({ minimum: 1, maximum: 4320, description: 'Viewport height in CSS pixels.' }),
  },
  { ...strict, description: 'Viewport used for the screenshot.' },
);

export const actionSchemas = {
  wait: Type.Object(
    {
      type: Type.Literal('wait'),
      milliseconds: Type.Optional(Type.Integer({ minimum: 1, description: 'Milliseconds to wait.' })),
      selector: Type.Optional(Type.String({ minLength: 1, description: 'Wait until this CSS selector is visible.' })),
    },
    { ...strict, description: 'Wait for a duration or for an element (exactly one of milliseconds, selector).' },
  ),
  click: Type.Object(
    {
      type: Type.Literal('click'),
      selector: Type.String({ minLength: 1, description: 'CSS selector of the element to click.' }),
      all: Type.Boolean({ default: false, description: 'Click every matching element, not only the first.' }),
    },
    { ...strict, description: 'Click an element.' },
  ),
  screenshot: Type.Object(
    {
      type: Type.Literal('screenshot'),
      fullPage: Type.Boolean({ default: false, description: 'Capture the whole page, not only the viewport.' }),
      quality: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'JPEG quality 1-100.' })),
      viewport: Type.Optional(viewportSchema),
    },
    { ...strict, description: 'Take a screenshot.' },
  ),
  write: Type.Object(
    { type: Type.Literal('write'), text: Type.String({ description: 'Text to type into the focused element.' }) },
    { ...strict, description: 'Type text.' },
  ),
  press: Type.Object(
    { type: Type.Literal('press'), key: Type.String({ minLength: 1, description: 'Key to press, e.g. Enter.' }) },
    { ...strict, description: 'Press a key.' },
  ),
  scroll: Type.Object(
    {
      type: Type.Literal('scroll'),
      direction: Type.Union([Type.Literal('up'), Type.Literal('down')], { default: 'down', description: 'Scroll direction.' }),
      selector: Type.Optional(Type.String({ minLength: 1, description: 'Scroll this element instead of the page.' })),
    },
    { ...strict, description: 'Scroll the page or an element.' },
  ),
  scrape: Type.Object({ type: Type.Literal('scrape') }, { ...strict, description: 'Capture the current page HTML.' }),
  executeJavascript: Type.Object(
    { type: Type.Literal('executeJavascript'), script: Type.String({ minLength: 1, description: 'JavaScript to run in the page.' }) },
    { ...strict, description: 'Run JavaScript in the page; its return value is reported.' },
  ),
  pdf: Type.Object(
    {
      type: Type.Literal('pdf'),
      format: Type.Union(
        ['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'Letter', 'Legal', 'Tabloid', 'Ledger'].map((value) => Type.Literal(value)),
        { default: 'Letter', description: 'Paper format.' },
      ),
      landscape: Type.Boolean({ default: false, description: 'Landscape orientation.' }),
      scale: Type.Number({ exclusiveMinimum: 0, maximum: 2, default: 1, description: 'Scale of the rendering.' }),
    },
    { ...strict, description: 'Print the page to PDF.' },
  ),
};

export type ActionType = keyof typeof actionSchemas;
export const actionTypes = Object.keys(actionSchemas) as ActionType[];

export const actionSchema = taggedUnion(Object.values(actionSchemas), { description: 'One browser action.' });

export type Action = Static<typeof actionSchema>;

/** Limits from the API reference. */
export const actionLimits = { maxActions: 50, maxTotalWaitMs: 60_000, selectorWaitCountsMs: 1_000 } as const;

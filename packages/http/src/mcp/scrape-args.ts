import { anyObject, bool, num, str, strings } from './mcp-tool.js';

/**
 * firecrawl-mcp's scrape arguments: the v2 scrape options, with `json` and `screenshot` asked for
 * as plain format names and their settings in `jsonOptions` / `screenshotOptions`.
 */
export const scrapeOptionProperties = {
  formats: {
    type: 'array',
    items: { anyOf: [{ type: 'string' }, { type: 'object' }] },
    description: 'markdown (default), html, rawHtml, links, screenshot, summary, json, changeTracking, branding',
  },
  jsonOptions: { type: 'object', properties: { prompt: str(), schema: anyObject() }, description: 'For the json format: a prompt and/or a JSON schema.' },
  screenshotOptions: { type: 'object', properties: { fullPage: bool(), quality: num(), viewport: anyObject() } },
  onlyMainContent: bool(),
  includeTags: strings(),
  excludeTags: strings(),
  waitFor: num('Milliseconds to wait after the page loads.'),
  timeout: num('Milliseconds allowed for the scrape.'),
  mobile: bool(),
  skipTlsVerification: bool(),
  removeBase64Images: bool(),
  actions: { type: 'array', items: anyObject() },
  location: anyObject(),
  maxAge: num('Accept a cached copy at most this many milliseconds old (0: always fetch).'),
  storeInCache: bool(),
  proxy: str(),
  headers: anyObject(),
  parsers: { type: 'array', items: {} },
} as const;

/** Only firecrawl-mcp's own bookkeeping, never sent to Firecrawl's API either. */
const mcpOnly = ['requestId', 'origin', 'alexandria', 'lockdown'];

/** firecrawl-mcp's scrape arguments as a v2 scrape body. */
export function scrapeBody(args: Record<string, unknown>): Record<string, unknown> {
  const { jsonOptions, screenshotOptions, queryOptions: _query, ...rest } = args;
  for (const key of mcpOnly) delete rest[key];
  if (Array.isArray(rest.formats)) {
    rest.formats = rest.formats.map((format) => {
      if (format === 'json' && isObject(jsonOptions)) return { type: 'json', ...jsonOptions };
      if (format === 'screenshot' && isObject(screenshotOptions)) return { type: 'screenshot', ...screenshotOptions };
      return format;
    });
  }
  return rest;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

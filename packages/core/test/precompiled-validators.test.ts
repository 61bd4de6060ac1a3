import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parseCrawlOptions, parseCrawlRequest, parseScrapeOptions, parseServerConfig, ValidationError } from '../src/index.js';
import { crawlRequestV1, crawlRequestV2, scrapeOptionsV1, scrapeOptionsV2, storedCrawlRequest } from '../src/options/precompiled-validators.generated.js';
import { serverConfig } from '../src/options/server-config-validator.generated.js';
import { serverConfigSchema } from '../src/options/server-config.js';
import { ajvOptions, serverConfigOptions } from '../src/options/validators.js';
import { precompiledSchemas, serverConfigValidatorCode, validatorCode } from '../scripts/validator-code.js';

/**
 * The crawl's option validators are ajv standalone code generated at build time
 * (the root scripts/write-core-validators.ts). They must be the code of the current schemas and behave as
 * the schemas compiled at run time: same verdict, same defaults written, same errors.
 */
const runtime = new Ajv(ajvOptions);
const generated = { crawlRequestV2, scrapeOptionsV2, storedCrawlRequest, crawlRequestV1, scrapeOptionsV1 };
const cases: Record<keyof typeof precompiledSchemas, unknown[]> = {
  crawlRequestV2: [
    { url: 'https://a.test/' },
    { url: 'https://a.test/', limit: 5, includePaths: ['^/docs/'], sitemap: 'skip', scrapeOptions: { formats: ['markdown'] } },
    { url: '' },
    {},
    { url: 'https://a.test/', limit: -1, sitemap: 'sometimes', unknownKey: true },
    { url: 'https://a.test/', includePaths: 'docs', maxConcurrency: 'many', delay: -3 },
    { url: 'https://a.test/', prompt: 'x'.repeat(10_001) },
    { url: 'https://a.test/', webhook: { url: 'https://hook.test/', events: ['page', 'nope'] } },
  ],
  storedCrawlRequest: [
    { version: 'v2', options: { limit: 10, includePaths: [], excludePaths: [] } },
    { version: 'v2', options: { limit: 10 }, prompt: { text: 'docs', generated: {} }, extra: 1 },
    { version: 'v3', options: { limit: 0, includePaths: 'a' } },
    { options: {} },
    { version: 'v1', options: { limit: 1 }, prompt: { text: 3 } },
  ],
  scrapeOptionsV2: [
    {},
    { formats: ['markdown', 'links'] },
    {
      formats: [
        { type: 'json', prompt: 'the title' },
        { type: 'screenshot', fullPage: true },
      ],
    },
    { formats: [{ type: 'nope' }] },
    { formats: ['markdown'], onlyMainContent: 'yes', timeout: 0, waitFor: -5 },
    { actions: [{ type: 'wait', milliseconds: 10 }, { type: 'click', selector: '#a' }, { type: 'fly' }] },
    { headers: { 'x-a': 'b' }, location: { country: 'DE', languages: ['de'] }, proxy: 'stealth', maxAge: 0 },
    { includeTags: 'p', excludeTags: [1], mobile: 1, parsers: ['pdf'], unknown: 1 },
    { formats: [{ type: 'changeTracking', modes: ['git-diff'] }] },
  ],
  crawlRequestV1: [
    { url: 'https://a.test/' },
    { url: 'https://a.test/', limit: 5, maxDepth: 3, allowBackwardLinks: true, ignoreSitemap: true, scrapeOptions: { formats: ['markdown'] } },
    { url: '' },
    {},
    { url: 'https://a.test/', limit: -1, maxDepth: 'deep', sitemap: 'skip' },
    { url: 'https://a.test/', excludePaths: 'docs', ignoreSitemap: 'yes', delay: -3 },
    { url: 'https://a.test/', webhook: { url: 'https://hook.test/', events: ['page', 'nope'] } },
  ],
  scrapeOptionsV1: [
    {},
    { formats: ['markdown', 'links', 'rawHtml'] },
    { formats: ['extract'], extract: { prompt: 'the title' }, parsePDF: false },
    { formats: ['json'], jsonOptions: { schema: { type: 'object' } } },
    { formats: ['nope'] },
    { formats: ['markdown'], onlyMainContent: 'yes', timeout: 0, waitFor: -5 },
    { actions: [{ type: 'wait', milliseconds: 10 }, { type: 'fly' }], proxy: 'stealth' },
    { formats: ['changeTracking'], changeTrackingOptions: { modes: ['git-diff'] }, unknown: 1 },
  ],
};

function run(check: ValidateFunction, input: unknown) {
  const value = structuredClone(input);
  const valid = check(value);
  const errors = (check.errors ?? []).map(({ instancePath, keyword, params, message, data }) => ({ instancePath, keyword, params, message, data }));
  return { valid, value, errors };
}

describe('precompiled option validators', () => {
  it('are the code of the current schemas (run `npm run build -w @quarry/core` after changing one)', () => {
    const read = (name: string) => readFileSync(new URL(`../src/options/${name}`, import.meta.url), 'utf8');
    expect(read('precompiled-validators.generated.js') === validatorCode()).toBe(true);
    expect(read('server-config-validator.generated.js') === serverConfigValidatorCode()).toBe(true);
  });

  it('the server configuration one agrees with the whole schema compiled at run time, coercing', () => {
    const compiled = new Ajv(serverConfigOptions).compile(serverConfigSchema);
    const envs = [
      {},
      { QUARRY_TRANSFORM_HEAP_MB: '256', QUARRY_AUTH: 'off', QUARRY_MAX_BODY_BYTES: '2048', QUARRY_ROLE: 'api' },
      { QUARRY_ALLOW_PRIVATE_HOSTS: '127.0.0.1', PORT: '4000' },
      { PORT: 'eighty', QUARRY_AUTH: 'sometimes', QUARRY_TRANSFORM_HEAP_MB: 'lots' },
    ];
    for (const env of envs) expect(run(serverConfig, env)).toEqual(run(compiled, env));
    expect(parseServerConfig({ PORT: '4000' })).toEqual(run(compiled, { PORT: '4000' }).value);
    expect(() => parseServerConfig({ PORT: 'eighty', QUARRY_AUTH: 'sometimes' })).toThrow(/environment variable PORT must be an integer/);
  });

  for (const [name, schema] of Object.entries(precompiledSchemas) as Array<[keyof typeof precompiledSchemas, object]>) {
    it(`${name} agrees with its schema compiled at run time`, () => {
      const compiled = runtime.compile(schema);
      let invalid = 0;
      for (const input of cases[name]) {
        const expected = run(compiled, input);
        if (!expected.valid) invalid++;
        expect(run(generated[name], input)).toEqual(expected);
      }
      expect(invalid).toBeGreaterThan(2);
    });
  }

  it('are the ones a crawl uses: defaults applied, errors named by field', () => {
    expect(parseCrawlOptions('https://a.test/', { limit: 3 })).toMatchObject({ limit: 3, includePaths: [], sitemap: 'include' });
    expect(() => parseCrawlOptions('https://a.test/', { limit: -1, scrapeOptions: { formats: ['nope' as never] } })).toThrow(ValidationError);
    // The v1 API's request and scrape options (a Firecrawl v1 SDK's crawl).
    expect(parseCrawlRequest('v1', { url: 'https://a.test/', ignoreSitemap: true }).options).toMatchObject({ sitemap: 'skip', maxDepth: 10, limit: 10_000 });
    expect(parseScrapeOptions('v1', { formats: ['html'] }).formats).toHaveLength(1);
    expect(() => parseCrawlRequest('v1', { url: 'https://a.test/', maxDepth: -1 })).toThrow(/maxDepth/);
    expect(() => parseScrapeOptions('v1', { formats: ['nope'] }, 'scrapeOptions')).toThrow(/scrapeOptions\.formats/);
  });
});

import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { parseScrapeOptions } from './normalize-scrape-options.js';

function issuesOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues.map((issue) => `${issue.field}: ${issue.message}`);
  }
  throw new Error('expected a ValidationError');
}

describe('parseScrapeOptions', () => {
  it('fills every default of v2 from the schema', () => {
    const options = parseScrapeOptions('v2', {});
    expect(options).toMatchObject({
      formats: [{ type: 'markdown' }],
      onlyMainContent: true,
      includeTags: [],
      excludeTags: [],
      maxAge: 172_800_000,
      skipTlsVerification: true,
      proxy: 'auto',
      timeout: 30_000,
      waitFor: 0,
      parsePdf: true,
      removeBase64Images: true,
      blockAds: true,
      storeInCache: true,
    });
  });

  it('uses the v1 defaults where they differ', () => {
    const options = parseScrapeOptions('v1', {});
    expect(options).toMatchObject({ maxAge: 0, skipTlsVerification: false, proxy: 'basic', parsePdf: true });
  });

  it('maps v1 and v2 spellings onto one shape', () => {
    const v1 = parseScrapeOptions('v1', {
      formats: ['markdown', 'screenshot@fullPage', 'extract'],
      extract: { prompt: 'the price' },
      parsePDF: false,
    });
    const v2 = parseScrapeOptions('v2', {
      formats: ['markdown', { type: 'screenshot', fullPage: true }, { type: 'json', prompt: 'the price' }],
      parsers: [],
    });
    expect(v1.formats).toEqual([{ type: 'markdown' }, { type: 'screenshot', fullPage: true }, { type: 'json', prompt: 'the price', resultKey: 'extract' }]);
    expect(v2.formats).toEqual([{ type: 'markdown' }, { type: 'screenshot', fullPage: true }, { type: 'json', prompt: 'the price' }]);
    expect(v1.parsePdf).toBe(false);
    expect(v2.parsePdf).toBe(false);
  });

  it('treats string and object formats alike in v2', () => {
    expect(parseScrapeOptions('v2', { formats: ['html', 'links'] }).formats).toEqual(
      parseScrapeOptions('v2', { formats: [{ type: 'html' }, { type: 'links' }] }).formats,
    );
  });

  it('names the field, the expectation and what arrived', () => {
    expect(issuesOf(() => parseScrapeOptions('v2', { timeout: 'soon' }))).toEqual(['timeout: `timeout` must be an integer; got "soon"']);
    expect(issuesOf(() => parseScrapeOptions('v2', { timeout: 5 }))).toEqual(['timeout: `timeout` must be >= 1000; got number 5']);
    expect(issuesOf(() => parseScrapeOptions('v2', { formats: ['markdown', 'pdfs'] }))).toEqual([
      expect.stringMatching(/^formats\[1\]\.type: `formats\[1\]\.type` must be one of "markdown", "html".*; got "pdfs"$/),
    ]);
    expect(issuesOf(() => parseScrapeOptions('v1', { formats: ['markdown', 'pdfs'] }))).toEqual([
      expect.stringMatching(/^formats\[1\]: `formats\[1\]` must be one of "markdown", .*"branding"; got "pdfs"$/),
    ]);
    expect(issuesOf(() => parseScrapeOptions('v2', { colour: 'red' }))).toEqual(['colour: Unrecognized key in body: `colour` is not a known option']);
  });

  it('prefixes fields with where the options sit', () => {
    expect(issuesOf(() => parseScrapeOptions('v2', { waitFor: -1 }, 'scrapeOptions'))).toEqual([
      'scrapeOptions.waitFor: `scrapeOptions.waitFor` must be >= 0; got number -1',
    ]);
  });

  it('rejects waitFor above half of timeout', () => {
    expect(issuesOf(() => parseScrapeOptions('v2', { waitFor: 20_000, timeout: 30_000 }))).toEqual([
      'waitFor: `waitFor` must not exceed half of timeout (15000 ms); got 20000',
    ]);
    expect(parseScrapeOptions('v2', { waitFor: 15_000, timeout: 30_000 }).waitFor).toBe(15_000);
  });

  it('validates actions by their type', () => {
    expect(issuesOf(() => parseScrapeOptions('v2', { actions: [{ type: 'click' }] }))).toEqual(['actions[0].selector: `actions[0].selector` is required']);
    expect(issuesOf(() => parseScrapeOptions('v2', { actions: [{ type: 'wait' }] }))).toEqual([
      'actions[0]: `actions[0]` (wait) needs exactly one of milliseconds or selector',
    ]);
    expect(parseScrapeOptions('v2', { actions: [{ type: 'scroll' }] }).actions).toEqual([{ type: 'scroll', direction: 'down' }]);
  });

  it('validates screenshot viewports', () => {
    expect(issuesOf(() => parseScrapeOptions('v2', { formats: [{ type: 'screenshot', viewport: { width: 0, height: 10 } }] }))).toEqual([
      'formats[0].viewport.width: `formats[0].viewport.width` must be >= 1; got number 0',
    ]);
  });

  it('does not mutate the input', () => {
    const input = { formats: ['markdown'] };
    parseScrapeOptions('v2', input);
    expect(input).toEqual({ formats: ['markdown'] });
  });
});

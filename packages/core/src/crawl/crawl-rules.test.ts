import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { compileCrawlRules, registrableDomain, type CrawlRulesInput } from './crawl-rules.js';

const input: CrawlRulesInput = {
  startUrl: 'https://www.example.com/docs/api',
  includePaths: [],
  excludePaths: [],
  crawlEntireDomain: false,
  allowExternalLinks: false,
  allowSubdomains: false,
  ignoreQueryParameters: false,
  deduplicateSimilarURLs: true,
  regexOnFullURL: false,
};

function thrown(run: () => unknown): ValidationError {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('compileCrawlRules', () => {
  it('derives the start site, domain, path and depth limit', () => {
    const rules = compileCrawlRules({ ...input, maxDepth: 2, maxDiscoveryDepth: 3 });
    expect(rules.startUrl.href).toBe('https://www.example.com/docs/api');
    expect(rules.startSite).toBe('example.com');
    expect(rules.startDomain).toBe('example.com');
    expect(rules.startPath).toBe('/docs/api');
    expect(rules.maxPathDepth).toBe(4);
    expect(rules.maxDiscoveryDepth).toBe(3);
    expect(rules.keyOptions).toEqual({ ignoreQueryParameters: false, deduplicateSimilarURLs: true });
    expect(Object.isFrozen(rules)).toBe(true);
  });

  it('has no path depth limit without maxDepth (v2)', () => {
    expect(compileCrawlRules(input).maxPathDepth).toBe(Number.POSITIVE_INFINITY);
  });

  it('accepts a bare host and drops a section fragment from the start URL', () => {
    const rules = compileCrawlRules({ ...input, startUrl: 'example.com/blog#top' });
    expect(rules.startUrl.href).toBe('http://example.com/blog');
    expect(rules.startPath).toBe('/blog');
  });

  it.each(['ftp://example.com/', 'mailto:a@example.com', 'https://exa mple.com', ''])('refuses start URL %j on field url', (startUrl) => {
    const error = thrown(() => compileCrawlRules({ ...input, startUrl }));
    expect(error.issues).toEqual([{ field: 'url', message: `\`url\` must be an http or https URL; got ${JSON.stringify(startUrl)}` }]);
  });

  it('refuses a start URL deeper than v1 maxDepth', () => {
    const error = thrown(() => compileCrawlRules({ ...input, maxDepth: 1 }));
    expect(error.issues).toEqual([{ field: 'url', message: 'URL depth exceeds the specified maxDepth' }]);
    expect(() => compileCrawlRules({ ...input, maxDepth: 2 })).not.toThrow();
  });

  it('reports invalid patterns of both fields', () => {
    expect(thrown(() => compileCrawlRules({ ...input, includePaths: ['('] })).issues[0]!.field).toBe('includePaths[0]');
    expect(thrown(() => compileCrawlRules({ ...input, excludePaths: ['^/ok', '(?!x)'] })).issues[0]!.field).toBe('excludePaths[1]');
  });

  it('limits both fields together to 1000 patterns and 100 000 characters', () => {
    const many = Array.from({ length: 600 }, (_, i) => `^/p${i}`);
    expect(thrown(() => compileCrawlRules({ ...input, includePaths: many, excludePaths: many })).issues).toEqual([
      { field: 'includePaths', message: '`includePaths` and `excludePaths` may hold at most 1000 patterns together; got 1200' },
    ]);
    const big = Array.from({ length: 26 }, () => 'x'.repeat(2000));
    expect(thrown(() => compileCrawlRules({ ...input, includePaths: big, excludePaths: big })).issues).toEqual([
      { field: 'includePaths', message: '`includePaths` and `excludePaths` may total at most 100000 characters together; got 104000' },
    ]);
  });

  it('reads exclude entries as domain patterns where they parse as hosts, skipping the rest one by one', () => {
    const rules = compileCrawlRules({
      ...input,
      excludePaths: ['^/blog', 'ads.example.org', 'https://other.com/private', '', 'Tracker.NET/'],
    });
    expect(rules.excludedDomains).toEqual([
      { hostname: 'ads.example.org', pathPrefix: '/' },
      { hostname: 'other.com', pathPrefix: '/private' },
      { hostname: 'tracker.net', pathPrefix: '/' },
    ]);
  });
});

describe('registrableDomain (Public Suffix List)', () => {
  it.each([
    ['a.example.co.uk', 'example.co.uk'],
    ['b.example.co.uk', 'example.co.uk'],
    ['www.example.com', 'example.com'],
    ['deep.sub.example.com', 'example.com'],
    ['example.github.io', 'example.github.io'],
    ['other.github.io', 'other.github.io'],
    ['docs.example.github.io', 'example.github.io'],
    ['co.uk', null],
    ['127.0.0.1', null],
    ['[::1]', null],
    ['localhost', null],
  ])('%s -> %s', (hostname, expected) => {
    expect(registrableDomain(hostname)).toBe(expected);
  });
});

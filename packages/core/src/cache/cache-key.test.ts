import { describe, expect, it } from 'vitest';
import { parseScrapeOptions } from '../options/normalize-scrape-options.js';
import { cacheKeyOf, cacheUrlKey, siteOf } from './cache-key.js';

describe('cacheUrlKey', () => {
  it('makes spellings of one page one key', () => {
    const key = 'https://example.com/docs';
    for (const spelling of [
      'http://example.com/docs',
      'https://www.example.com/docs/',
      'https://EXAMPLE.com:443/docs#top',
      'http://example.com:80/docs/index.html',
      'https://example.com/docs/index.php',
    ]) {
      expect(cacheUrlKey(spelling), spelling).toBe(key);
    }
    expect(cacheUrlKey('https://example.com/docs?b=2&a=1')).toBe('https://example.com/docs?b=2&a=1');
    expect(cacheUrlKey('http://127.0.0.1:8080/')).toBe('https://127.0.0.1:8080');
    expect(siteOf('https://www.Example.com/x')).toBe('example.com');
  });
});

describe('cacheKeyOf', () => {
  const v2 = (options: Record<string, unknown> = {}) => parseScrapeOptions('v2', options);
  const url = 'https://example.com/a';

  it('is the same for options that do not change the page', () => {
    expect(cacheKeyOf(url, v2())).toBe(cacheKeyOf('http://www.example.com/a/', v2({ timeout: 60_000, maxAge: 5, storeInCache: false })));
    expect(cacheKeyOf(url, v2())).toBe(cacheKeyOf(url, parseScrapeOptions('v1', {})));
    expect(cacheKeyOf(url, v2({ formats: ['markdown', 'html'] }))).toBe(cacheKeyOf(url, v2({ formats: ['html', 'markdown'] })));
    expect(cacheKeyOf(url, v2({ formats: ['markdown'] }))).toBe(cacheKeyOf(url, v2({ formats: ['markdown', { type: 'changeTracking' }] })));
    // The page is the same through any proxy pool: a stealth scrape stores what basic ones may read.
    expect(cacheKeyOf(url, v2())).toBe(cacheKeyOf(url, v2({ proxy: 'enhanced' })));
  });

  it('differs for every option that changes the page', () => {
    const variants = [
      v2(),
      v2({ formats: ['html'] }),
      v2({ formats: [{ type: 'screenshot' }] }),
      v2({ formats: [{ type: 'screenshot', fullPage: true }] }),
      v2({ formats: [{ type: 'json', prompt: 'a' }] }),
      v2({ formats: [{ type: 'json', prompt: 'b' }] }),
      v2({ onlyMainContent: false }),
      v2({ includeTags: ['main'] }),
      v2({ excludeTags: ['nav'] }),
      v2({ mobile: true }),
      v2({ location: { country: 'DE' } }),
      v2({ blockAds: false }),
      v2({ waitFor: 1_000 }),
      v2({ parsers: [] }),
    ];
    expect(new Set(variants.map((options) => cacheKeyOf(url, options))).size).toBe(variants.length);
    expect(cacheKeyOf(url, v2())).not.toBe(cacheKeyOf('https://example.com/b', v2()));
  });
});

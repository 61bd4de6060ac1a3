import { describe, expect, it } from 'vitest';
import { createUrlResolver, markdownDestination, parseBaseUrl } from './url-resolver.js';

describe('createUrlResolver', () => {
  const resolve = createUrlResolver(new URL('https://site.example/docs/page.html?x=1'));

  it.each([
    ['https://other.example/a', 'https://other.example/a'],
    ['guide', 'https://site.example/docs/guide'],
    ['../up', 'https://site.example/up'],
    ['/root', 'https://site.example/root'],
    ['//cdn.example/x.js', 'https://cdn.example/x.js'],
    ['?page=2', 'https://site.example/docs/page.html?page=2'],
    ['#part', 'https://site.example/docs/page.html?x=1#part'],
    ['  spaced.html  ', 'https://site.example/docs/spaced.html'],
    ['mailto:a@b.example', 'mailto:a@b.example'],
  ])('%j -> %j', (reference, expected) => {
    expect(resolve(reference)).toBe(expected);
  });

  it('gives undefined for script links and bare hashes', () => {
    expect(resolve('javascript:void(0)')).toBeUndefined();
    expect(resolve('JavaScript:alert(1)')).toBeUndefined();
    expect(resolve('#')).toBeUndefined();
    expect(resolve('   ')).toBeUndefined();
  });

  it('keeps relative references as written without a base', () => {
    expect(createUrlResolver(undefined)('docs/a')).toBe('docs/a');
    expect(createUrlResolver(undefined)('https://a.example/x')).toBe('https://a.example/x');
  });
});

describe('parseBaseUrl', () => {
  it('resolves <base href> against the page URL', () => {
    expect(parseBaseUrl('https://a.example/x/y', '/v2/')?.href).toBe('https://a.example/v2/');
    expect(parseBaseUrl('https://a.example/x/y', undefined)?.href).toBe('https://a.example/x/y');
    expect(parseBaseUrl(undefined, 'https://b.example/')?.href).toBe('https://b.example/');
    expect(parseBaseUrl('not a url', 'relative/')).toBeUndefined();
  });
});

describe('markdownDestination', () => {
  it('leaves ordinary URLs alone and makes odd ones safe', () => {
    expect(markdownDestination('https://a.example/x')).toBe('https://a.example/x');
    expect(markdownDestination('https://en.wikipedia.org/wiki/Rust_(language)')).toBe('https://en.wikipedia.org/wiki/Rust_(language)');
    expect(markdownDestination('https://a.example/odd)path')).toBe('https://a.example/odd\\)path');
    expect(markdownDestination('docs/a b')).toBe('docs/a%20b');
    expect(markdownDestination('a<b>')).toBe('a%3Cb%3E');
  });
});

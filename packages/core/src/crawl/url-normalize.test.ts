import { describe, expect, it } from 'vitest';
import { dedupKey, hostWithoutWww, isSpaRoute, mapKey, normalizeMapUrl, normalizeUrl } from './url-normalize.js';

const similar = { ignoreQueryParameters: false, deduplicateSimilarURLs: true };
const exact = { ignoreQueryParameters: false, deduplicateSimilarURLs: false };
const key = (input: string, options = similar): string => dedupKey(normalizeUrl(input)!, options);

describe('normalizeUrl', () => {
  it.each([
    ['example.com/x', 'http://example.com/x'],
    ['  https://example.com/a  ', 'https://example.com/a'],
    ['HTTPS://EXAMPLE.com/Path', 'https://example.com/Path'],
    ['https://example.com:443/a', 'https://example.com/a'],
    ['http://example.com:80/a', 'http://example.com/a'],
    ['http://example.com:8080/a', 'http://example.com:8080/a'],
    ['https://example.com', 'https://example.com/'],
    ['https://example.com/a?b=2&a=1', 'https://example.com/a?b=2&a=1'],
    ['https://example.com/a#section', 'https://example.com/a'],
    ['https://example.com/a#', 'https://example.com/a'],
    ['https://example.com/a#/', 'https://example.com/a'],
    ['https://example.com/#/docs', 'https://example.com/#/docs'],
    ['https://example.com/#!/docs/intro', 'https://example.com/#!/docs/intro'],
    ['https://bücher.example/a', 'https://xn--bcher-kva.example/a'],
    ['localhost:3000/x', 'http://localhost:3000/x'],
    ['//example.com/x', 'http://example.com/x'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeUrl(input)?.href).toBe(expected);
  });

  it.each(['ftp://example.com/x', 'mailto:me@example.com', 'javascript:alert(1)', 'http://', 'https://exa mple.com/', ''])('refuses %j', (input) => {
    expect(normalizeUrl(input)).toBeNull();
  });

  it('resolves against a base and then applies the same rules', () => {
    const base = 'https://example.com/docs/intro';
    expect(normalizeUrl('guide', base)?.href).toBe('https://example.com/docs/guide');
    expect(normalizeUrl('../blog/', base)?.href).toBe('https://example.com/blog/');
    expect(normalizeUrl('//cdn.example.com/a', base)?.href).toBe('https://cdn.example.com/a');
    expect(normalizeUrl('example.com/x', base)?.href).toBe('https://example.com/docs/example.com/x');
    expect(normalizeUrl('#top', base)?.href).toBe('https://example.com/docs/intro');
    expect(normalizeUrl('mailto:a@b.c', base)).toBeNull();
  });
});

describe('isSpaRoute', () => {
  it.each([
    ['#/docs', true],
    ['/docs', true],
    ['#!/a', true],
    ['#/', false],
    ['#', false],
    ['', false],
    ['#section', false],
    ['#a/b', true],
  ])('%j -> %s', (fragment, expected) => {
    expect(isSpaRoute(fragment)).toBe(expected);
  });
});

describe('dedupKey with deduplicateSimilarURLs', () => {
  it.each([
    [['https://example.com/path', 'http://example.com/path', 'https://www.example.com/path', 'http://www.example.com/path/']],
    [['https://example.com/path', 'https://example.com/path/', 'https://example.com/path/index.html', 'https://example.com/path/index.php']],
    [['https://example.com', 'https://example.com/', 'https://www.example.com/index.html', 'http://example.com/index.php']],
    [['https://example.com/a#section', 'https://example.com/a']],
    [['https://example.com:8443/a', 'http://www.example.com:8443/a/']],
  ])('treats %j as one page', (urls) => {
    const keys = new Set(urls.map((url) => key(url)));
    expect(keys.size).toBe(1);
  });

  it.each([
    ['https://example.com/Path', 'https://example.com/path'],
    ['https://example.com/p?a=1&b=2', 'https://example.com/p?b=2&a=1'],
    ['https://example.com/p?a=1', 'https://example.com/p'],
    ['https://example.com/p//', 'https://example.com/p/'],
    ['https://blog.example.com/p', 'https://example.com/p'],
    ['https://example.com:8080/p', 'https://example.com/p'],
    ['https://example.com/#/a', 'https://example.com/#/b'],
    ['https://example.com/#/a', 'https://example.com/'],
    ['https://example.com/p/INDEX.HTML', 'https://example.com/p'],
    ['https://example.com/p/index.htm', 'https://example.com/p'],
  ])('keeps %s and %s apart', (a, b) => {
    expect(key(a)).not.toBe(key(b));
  });

  it('has a readable shape', () => {
    expect(key('https://www.example.com/docs/index.html?x=1')).toBe('example.com/docs?x=1');
    expect(key('http://example.com/')).toBe('example.com/');
    expect(key('https://example.com/#/route')).toBe('example.com/#/route');
  });

  it('drops the query with ignoreQueryParameters', () => {
    const options = { ignoreQueryParameters: true, deduplicateSimilarURLs: true };
    expect(key('https://example.com/p?a=1', options)).toBe(key('https://www.example.com/p/?b=2', options));
  });
});

describe('dedupKey without deduplicateSimilarURLs', () => {
  it.each([
    ['https://example.com/path', 'https://example.com/path/'],
    ['https://example.com/path', 'http://example.com/path'],
    ['https://example.com/path', 'https://www.example.com/path'],
    ['https://example.com/path', 'https://example.com/path/index.html'],
  ])('keeps %s and %s apart', (a, b) => {
    expect(key(a, exact)).not.toBe(key(b, exact));
  });

  it('is the normalized href, minus the query when ignored', () => {
    expect(key('https://Example.com:443/a?q=1#x', exact)).toBe('https://example.com/a?q=1');
    expect(key('https://example.com/a?q=1', { ignoreQueryParameters: true, deduplicateSimilarURLs: false })).toBe('https://example.com/a');
  });
});

describe('hostWithoutWww', () => {
  it('strips exactly one leading www.', () => {
    expect(hostWithoutWww('www.example.com')).toBe('example.com');
    expect(hostWithoutWww('www.www.example.com')).toBe('www.example.com');
    expect(hostWithoutWww('wwwexample.com')).toBe('wwwexample.com');
    expect(hostWithoutWww('blog.www.example.com')).toBe('blog.www.example.com');
  });
});

describe('map normalization', () => {
  const keepQuery = { ignoreQueryParameters: false };
  const dropQuery = { ignoreQueryParameters: true };

  it.each([
    ['example.com', keepQuery, 'http://example.com'],
    ['https://example.com/', keepQuery, 'https://example.com'],
    ['https://example.com/docs/', keepQuery, 'https://example.com/docs/'],
    ['https://example.com/docs', keepQuery, 'https://example.com/docs'],
    ['https://example.com/a?x=1', keepQuery, 'https://example.com/a?x=1'],
    ['https://example.com/a?x=1', dropQuery, 'https://example.com/a'],
    ['https://example.com/?x=1', dropQuery, 'https://example.com'],
    ['https://example.com/#/r', keepQuery, 'https://example.com/#/r'],
    ['https://EXAMPLE.com:443/A', keepQuery, 'https://example.com/A'],
  ])('%s %j -> %s', (input, options, expected) => {
    expect(normalizeMapUrl(input, options)).toBe(expected);
  });

  it('refuses non-web URLs', () => {
    expect(normalizeMapUrl('ftp://example.com/a', keepQuery)).toBeNull();
    expect(normalizeMapUrl('https://', keepQuery)).toBeNull();
  });

  it('mapKey ignores scheme and www but keeps path, query and fragment', () => {
    const mk = (input: string) => mapKey(new URL(input));
    expect(mk('http://www.example.com/a?x=1#f')).toBe('example.com/a?x=1#f');
    expect(mk('https://example.com/a?x=1#f')).toBe(mk('http://www.example.com/a?x=1#f'));
    expect(mk('https://example.com/a/')).not.toBe(mk('https://example.com/a'));
  });
});

import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { canEnqueueFrom, checkStartDepth, effectiveMaxDepth, linkDiscoveryDepth, pathDepth } from './url-depth.js';

const depth = (url: string) => pathDepth(new URL(url));

describe('pathDepth', () => {
  it.each([
    ['https://example.com', 0],
    ['https://example.com/', 0],
    ['https://example.com/index.html', 0],
    ['https://example.com/index.php', 0],
    ['https://example.com/a', 1],
    ['https://example.com/a/', 1],
    ['https://example.com/a/index.html', 1],
    ['https://example.com/a/b/c', 3],
    ['https://example.com/a//b', 2],
    ['https://example.com/a/b?x=/y/z#/r/s', 2],
    ['https://example.com/a%2Fb', 1],
    ['https://example.com/a/INDEX.HTML', 2],
    ['https://example.com/index.html/a', 1],
  ])('%s -> %i', (url, expected) => {
    expect(depth(url)).toBe(expected);
  });
});

describe('v1 maxDepth', () => {
  it('is relative to the start URL', () => {
    expect(effectiveMaxDepth(new URL('https://example.com/'), 2)).toBe(2);
    expect(effectiveMaxDepth(new URL('https://example.com/docs/api'), 1)).toBe(3);
    expect(effectiveMaxDepth(new URL('https://example.com/docs/index.html'), 0)).toBe(1);
  });

  it('is unlimited without maxDepth (v2)', () => {
    expect(effectiveMaxDepth(new URL('https://example.com/a/b'), undefined)).toBe(Number.POSITIVE_INFINITY);
  });

  it('refuses a start URL deeper than maxDepth with the 400 message on field maxDepth', () => {
    let caught: unknown;
    try {
      checkStartDepth(new URL('https://example.com/a/b/c'), 2);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    const error = caught as ValidationError;
    expect(error.code).toBe('invalid_request');
    expect(error.message).toBe('URL depth exceeds the specified maxDepth');
    expect(error.issues).toEqual([{ field: 'url', message: 'URL depth exceeds the specified maxDepth' }]);
  });

  it('accepts a start URL as deep as or shallower than maxDepth', () => {
    expect(() => checkStartDepth(new URL('https://example.com/a/b'), 2)).not.toThrow();
    expect(() => checkStartDepth(new URL('https://example.com/a'), 2)).not.toThrow();
    expect(() => checkStartDepth(new URL('https://example.com/a/b/index.html'), 2)).not.toThrow();
    expect(() => checkStartDepth(new URL('https://example.com/a/b/c'), undefined)).not.toThrow();
    expect(() => checkStartDepth(new URL('https://example.com/a'), 0)).toThrow(ValidationError);
  });
});

describe('discovery depth', () => {
  it('counts hops: seeds (-1) sit at 0, their links at 1', () => {
    expect(linkDiscoveryDepth(-1)).toBe(0);
    expect(linkDiscoveryDepth(0)).toBe(1);
  });

  it('stops a page at depth == maxDiscoveryDepth from enqueuing', () => {
    expect(canEnqueueFrom(-1, 0)).toBe(true);
    expect(canEnqueueFrom(0, 0)).toBe(false);
    expect(canEnqueueFrom(0, 1)).toBe(true);
    expect(canEnqueueFrom(1, 1)).toBe(false);
    expect(canEnqueueFrom(5, 1)).toBe(false);
    expect(canEnqueueFrom(1000, undefined)).toBe(true);
  });
});

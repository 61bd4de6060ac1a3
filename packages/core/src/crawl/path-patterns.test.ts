import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { compilePathPatterns, pathPatternLimits, type PathPatternField } from './path-patterns.js';

function compileError(field: PathPatternField, patterns: string[]): ValidationError {
  try {
    compilePathPatterns(field, patterns);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('compilePathPatterns matching', () => {
  it('searches unanchored, like Rust is_match: `blog` matches inside a segment', () => {
    const matcher = compilePathPatterns('includePaths', ['blog']);
    expect(matcher.matchesAny('/blog/post')).toBe(true);
    expect(matcher.matchesAny('/xblog/1')).toBe(true);
    expect(matcher.matchesAny('/archive/blogs')).toBe(true);
    expect(matcher.matchesAny('/news')).toBe(false);
  });

  it('anchors only when the user anchors', () => {
    const exactly = compilePathPatterns('includePaths', ['^/blog$']);
    expect(exactly.matchesAny('/blog')).toBe(true);
    expect(exactly.matchesAny('/blog/')).toBe(false);
    expect(exactly.matchesAny('/blog/post')).toBe(false);
    expect(exactly.matchesAny('/x/blog')).toBe(false);

    const prefix = compilePathPatterns('includePaths', ['^/blog/']);
    expect(prefix.matchesAny('/blog/post')).toBe(true);
    expect(prefix.matchesAny('/blog')).toBe(false);
  });

  it('does not match a path-anchored pattern against a full URL (what regexOnFullURL changes)', () => {
    const matcher = compilePathPatterns('includePaths', ['^/pricing$']);
    expect(matcher.matchesAny('/pricing')).toBe(true);
    expect(matcher.matchesAny('https://firecrawl.dev/pricing')).toBe(false);
    const full = compilePathPatterns('includePaths', ['^https://firecrawl\\.dev/pricing$']);
    expect(full.matchesAny('https://firecrawl.dev/pricing')).toBe(true);
  });

  it('supports RE2 features users write: classes, alternation, (?i), escaped slashes, named groups', () => {
    const matcher = compilePathPatterns('excludePaths', ['^/(docs|api)/v[0-9]+/', '(?i)\\.PDF$', '\\/private\\/', '(?P<year>\\d{4})/']);
    expect(matcher.matchesAny('/docs/v2/intro')).toBe(true);
    expect(matcher.matchesAny('/files/report.pdf')).toBe(true);
    expect(matcher.matchesAny('/a/private/b')).toBe(true);
    expect(matcher.matchesAny('/2024/')).toBe(true);
    expect(matcher.matchesAny('/docs/latest/intro')).toBe(false);
  });

  it('reports the first matching pattern in request order', () => {
    const matcher = compilePathPatterns('excludePaths', ['^/a', 'b', '^/a/b']);
    expect(matcher.firstMatch('/a/b')).toBe('^/a');
    expect(matcher.firstMatch('/x/b')).toBe('b');
    expect(matcher.firstMatch('/x')).toBeUndefined();
  });

  it('drops blank patterns, as Firecrawl does, instead of matching everything', () => {
    const matcher = compilePathPatterns('includePaths', ['', '   ']);
    expect(matcher.isEmpty).toBe(true);
    expect(matcher.patterns).toEqual([]);
    expect(matcher.matchesAny('/anything')).toBe(false);
    expect(compilePathPatterns('includePaths', ['', '^/a']).patterns).toEqual(['^/a']);
  });

  it('matches literal patterns (tested as substrings) exactly as RE2 does', () => {
    const literals = ['/_sources/', 'blog', '/a b/', 'x-y_z~1', 'A', "q=1&r='2'", '/@me:8080/', '#top', '%20', '<>;!,`"'];
    const texts = [
      '/_sources/a.txt',
      '/_SOURCES/a',
      '/x/blog',
      '/Blog',
      '/a b/',
      '/a  b/',
      'x-y_z~1',
      'a',
      "/p?q=1&r='2'",
      '/@me:8080/x',
      '/p#top',
      '/a%20b',
      '<>;!,`"',
      '',
      'é/blog',
    ];
    for (const pattern of literals) {
      const matcher = compilePathPatterns('excludePaths', [pattern]);
      const regex = RE2JS.compile(pattern);
      for (const text of texts) expect(matcher.matchesAny(text), `${pattern} on ${text}`).toBe(regex.test(text));
    }
    // Metacharacters keep their regex meaning: not substring tests.
    expect(compilePathPatterns('excludePaths', ['a.c']).matchesAny('/abc')).toBe(true);
    expect(compilePathPatterns('excludePaths', ['/a$']).matchesAny('/a$')).toBe(false);
    expect(compilePathPatterns('excludePaths', ['a]']).matchesAny('a]')).toBe(true);
  });

  it('matches a pathological pattern in linear time (no catastrophic backtracking)', () => {
    const matcher = compilePathPatterns('excludePaths', ['^(a+)+$']);
    expect(matcher.matchesAny(`${'a'.repeat(5000)}!`)).toBe(false);
  });
});

describe('compilePathPatterns errors', () => {
  it('names the field, index, pattern and the parser reason for invalid syntax', () => {
    const error = compileError('includePaths', ['^/ok', '[unclosed', '(?=x)']);
    expect(error.code).toBe('invalid_request');
    expect(error.issues).toEqual([
      {
        field: 'includePaths[1]',
        message: '`includePaths[1]` is not a valid regular expression: missing closing ]: `[unclosed`; got "[unclosed"',
      },
      {
        field: 'includePaths[2]',
        message:
          '`includePaths[2]` is not a valid regular expression: look-around ((?=, (?!, (?<=, (?<!) is not supported (patterns use RE2 syntax, matched in linear time); got "(?=x)"',
      },
    ]);
  });

  it.each([
    ['(?!admin)', 'look-around'],
    ['(?<=/)blog', 'look-around'],
    ['(?<!x)y', 'look-around'],
    ['(a)\\1', 'backreferences'],
    ['(?<n>a)\\k<n>', 'backreferences'],
    ['*', 'missing argument to repetition operator'],
    ['a{1001}', 'invalid repeat count'],
    ['(', 'missing closing )'],
  ])('refuses %j (%s)', (pattern, reason) => {
    const error = compileError('excludePaths', [pattern]);
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]!.field).toBe('excludePaths[0]');
    expect(error.issues[0]!.message).toContain(reason);
    expect(error.issues[0]!.message).toContain(JSON.stringify(pattern));
  });

  it('refuses more than 1000 patterns', () => {
    const error = compileError(
      'excludePaths',
      Array.from({ length: pathPatternLimits.maxPatterns + 1 }, (_, i) => `^/p${i}`),
    );
    expect(error.issues).toEqual([{ field: 'excludePaths', message: '`excludePaths` may hold at most 1000 patterns; got 1001' }]);
    expect(() =>
      compilePathPatterns(
        'excludePaths',
        Array.from({ length: 1000 }, (_, i) => `^/p${i}`),
      ),
    ).not.toThrow();
  });

  it('refuses a pattern over 2000 characters, naming it (shortened)', () => {
    const long = `^/${'a'.repeat(2000)}`;
    const error = compileError('includePaths', ['^/ok', long]);
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]!.field).toBe('includePaths[1]');
    expect(error.issues[0]!.message).toBe(`\`includePaths[1]\` may be at most 2000 characters; got 2002 (${JSON.stringify(`^/${'a'.repeat(78)}…`)})`);
    expect(() => compilePathPatterns('includePaths', ['a'.repeat(2000)])).not.toThrow();
  });

  it('refuses patterns totalling more than 100 000 characters', () => {
    const patterns = Array.from({ length: 51 }, () => 'b'.repeat(1999));
    const error = compileError('includePaths', patterns);
    expect(error.issues).toEqual([{ field: 'includePaths', message: '`includePaths` patterns may total at most 100000 characters; got 101949' }]);
  });
});

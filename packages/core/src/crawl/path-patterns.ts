import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';
import { ValidationError, type FieldIssue } from '../errors.js';

/**
 * re2js (a 330 KB module) loads at the first pattern that is not a plain literal, not with the
 * engine: every `quarry` command imports the engine, most crawls give no pattern, and the usual
 * ones (`/_sources/`, `blog`) are literals, which match by substring without RE2 (issue 14).
 */
let re2js: typeof import('re2js') | undefined;
function loadRe2js(): typeof import('re2js') {
  re2js ??= createRequire(import.meta.url)('re2js') as typeof import('re2js');
  return re2js;
}

/** The two crawl request fields that hold path regexes. */
export type PathPatternField = 'includePaths' | 'excludePaths';

/** Size limits on user patterns (Firecrawl's, firecrawl#4533/#4611). */
export const pathPatternLimits = {
  /** Patterns per field. */
  maxPatterns: 1000,
  /** Characters per pattern. */
  maxPatternLength: 2000,
  /** Characters of all patterns together (per field here; `compileCrawlRules` also checks both fields together). */
  maxTotalLength: 100_000,
} as const;

/**
 * A compiled include/exclude list. Matching is an unanchored search, like Rust's `Regex::is_match`
 * that Firecrawl uses: `blog` matches `/xblog/1`; anchor with `^` and `$` (`^/blog$`). Patterns use
 * RE2 syntax (no look-around, no backreferences) and match in time linear in the input, so a user
 * pattern cannot stall a worker.
 */
export interface PathMatcher {
  readonly field: PathPatternField;
  /** The patterns kept, as the user wrote them (blank ones are dropped). */
  readonly patterns: readonly string[];
  /** True when no pattern was given: for includePaths that means "everything is included". */
  readonly isEmpty: boolean;
  /** True when any pattern matches somewhere in `text`. */
  matchesAny(text: string): boolean;
  /** The first pattern (in request order) that matches `text`, for error messages. */
  firstMatch(text: string): string | undefined;
}

/** Explanations for syntax RE2 refuses on purpose, shown instead of the parser's terse error. */
const unsupportedSyntax: ReadonlyArray<{ test: RegExp; reason: string }> = [
  { test: /\(\?<?[=!]/, reason: 'look-around ((?=, (?!, (?<=, (?<!) is not supported' },
  { test: /\\[1-9]|\\k</, reason: 'backreferences (\\1, \\k<name>) are not supported' },
];

/**
 * Compiles a request's `includePaths` or `excludePaths` with re2js.
 *
 * Blank patterns are dropped (Firecrawl trims them away). Throws one `ValidationError` listing every
 * problem, each with field `includePaths[i]` / `excludePaths[i]` and a message naming the pattern
 * and why: invalid syntax, RE2-unsupported syntax, or a size limit from {@link pathPatternLimits}.
 * Pure; the result is immutable and safe to share between crawls.
 */
export function compilePathPatterns(field: PathPatternField, patterns: readonly string[]): PathMatcher {
  const issues: FieldIssue[] = [];
  if (patterns.length > pathPatternLimits.maxPatterns) {
    issues.push({
      field,
      message: `\`${field}\` may hold at most ${pathPatternLimits.maxPatterns} patterns; got ${patterns.length}`,
    });
  }
  const totalLength = patterns.reduce((sum, pattern) => sum + pattern.length, 0);
  if (totalLength > pathPatternLimits.maxTotalLength) {
    issues.push({
      field,
      message: `\`${field}\` patterns may total at most ${pathPatternLimits.maxTotalLength} characters; got ${totalLength}`,
    });
  }
  if (issues.length > 0) throw new ValidationError(issues);

  const kept: string[] = [];
  const compiled: Array<RE2JS | undefined> = [];
  patterns.forEach((pattern, index) => {
    if (pattern.trim() === '') return;
    const result = compileOne(`${field}[${index}]`, pattern);
    if ('issue' in result) issues.push(result.issue);
    else {
      kept.push(pattern);
      compiled.push(result.regex);
    }
  });
  if (issues.length > 0) throw new ValidationError(issues);
  return makeMatcher(field, kept, compiled);
}

/** A literal needs no RE2 (`regex` undefined): it is valid RE2 syntax and matches as a substring. */
function compileOne(path: string, pattern: string): { regex: RE2JS | undefined } | { issue: FieldIssue } {
  const shown = JSON.stringify(pattern.length > 80 ? `${pattern.slice(0, 80)}…` : pattern);
  if (pattern.length > pathPatternLimits.maxPatternLength) {
    return {
      issue: {
        field: path,
        message: `\`${path}\` may be at most ${pathPatternLimits.maxPatternLength} characters; got ${pattern.length} (${shown})`,
      },
    };
  }
  if (literalPattern.test(pattern)) return { regex: undefined };
  try {
    return { regex: loadRe2js().RE2JS.compile(pattern) };
  } catch (error) {
    const unsupported = unsupportedSyntax.find((entry) => entry.test.test(pattern));
    const why = unsupported ? `${unsupported.reason} (patterns use RE2 syntax, matched in linear time)` : describeSyntaxError(error);
    return { issue: { field: path, message: `\`${path}\` is not a valid regular expression: ${why}; got ${shown}` } };
  }
}

function describeSyntaxError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^error parsing regexp: /, '');
}

/**
 * Printable ASCII without RE2's metacharacters: such a pattern matches exactly where it occurs as a
 * substring (unanchored, case-sensitive), e.g. `/_sources/` or `blog`.
 */
const literalPattern = /^[ !"#%&',\-/0-9:;<=>@A-Z_`a-z~]*$/;

/** A test per pattern: `includes` for a literal one, RE2 otherwise (a crawl tests every link against every pattern). */
function testerOf(pattern: string, regex: RE2JS | undefined): (text: string) => boolean {
  return regex === undefined ? (text) => text.includes(pattern) : (text) => regex.test(text);
}

function makeMatcher(field: PathPatternField, patterns: string[], compiled: Array<RE2JS | undefined>): PathMatcher {
  const count = compiled.length;
  const tests = compiled.map((regex, index) => testerOf(patterns[index]!, regex));
  return Object.freeze({
    field,
    patterns: Object.freeze(patterns),
    isEmpty: count === 0,
    matchesAny(text: string): boolean {
      for (let index = 0; index < count; index++) if (tests[index]!(text)) return true;
      return false;
    },
    firstMatch(text: string): string | undefined {
      for (let index = 0; index < count; index++) if (tests[index]!(text)) return patterns[index];
      return undefined;
    },
  });
}

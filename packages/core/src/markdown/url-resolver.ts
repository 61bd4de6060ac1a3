/** Turns `href`/`src` values into absolute URLs written as markdown link destinations. */

const ABSOLUTE_HTTP = /^https?:\/\/[^\s()<>\\]*$/i;
const SCHEME = /^[a-z][a-z\d+.-]*:/i;
const NEEDS_ESCAPE = /[\s()<>]/;

/** Resolves a reference to an absolute URL; `undefined` when it should not become a link. */
export type UrlResolver = (reference: string) => string | undefined;

/**
 * A resolver against `base` (the document's `<base href>` or page URL). `javascript:` URLs and a
 * bare `#` (script hooks, not destinations) give `undefined`. Without a base, relative references
 * are kept as written. Absolute http(s) URLs are returned as written, without a URL parse.
 */
export function createUrlResolver(base: URL | undefined): UrlResolver {
  return (reference) => {
    const trimmed = reference.trim();
    if (trimmed === '' || trimmed === '#') return undefined;
    if (ABSOLUTE_HTTP.test(trimmed)) return trimmed;
    if (SCHEME.test(trimmed) && /^javascript:/i.test(trimmed)) return undefined;
    if (base === undefined && !SCHEME.test(trimmed)) return trimmed;
    try {
      return new URL(trimmed, base).href;
    } catch {
      return trimmed;
    }
  };
}

/** Parses a base URL, resolving `href` (from `<base>`) against `pageUrl`; `undefined` if neither parses. */
export function parseBaseUrl(pageUrl: string | undefined, href: string | undefined): URL | undefined {
  let base: URL | undefined;
  if (pageUrl !== undefined) {
    try {
      base = new URL(pageUrl);
    } catch {
      base = undefined;
    }
  }
  if (href === undefined || href.trim() === '') return base;
  try {
    return new URL(href.trim(), base);
  } catch {
    return base;
  }
}

/**
 * Writes a URL as a link destination: spaces are percent-encoded, angle brackets too, and
 * parentheses are escaped unless balanced (so Wikipedia's `Foo_(bar)` stays readable).
 */
export function markdownDestination(url: string): string {
  if (!NEEDS_ESCAPE.test(url)) return url;
  let destination = url.replace(/\s/g, (space) => (space === ' ' ? '%20' : encodeURIComponent(space)));
  destination = destination.replace(/</g, '%3C').replace(/>/g, '%3E');
  return hasBalancedParentheses(destination) ? destination : destination.replace(/[()]/g, '\\$&');
}

function hasBalancedParentheses(text: string): boolean {
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x28) depth++;
    else if (code === 0x29 && --depth < 0) return false;
  }
  return depth === 0;
}

import { ValidationError } from '../errors.js';

/** Longest URL accepted (browsers and CDNs refuse far shorter ones in practice). */
export const maxUrlLength = 8_192;

/**
 * Reads the URL a user asked for. A bare host gets `http://` (as Firecrawl does); only http and
 * https are accepted; the host must be a domain with a dot, `localhost`, or an IP literal.
 * Whether the address may be fetched is the fetcher's SSRF guard's decision, not this one's.
 */
export function parseTargetUrl(input: unknown, field = 'url'): URL {
  if (typeof input !== 'string' || input.trim() === '') {
    throw new ValidationError(`\`${field}\` must be a non-empty URL string; got ${input === undefined ? 'nothing' : JSON.stringify(input)}`, field);
  }
  const text = input.trim();
  if (text.length > maxUrlLength) {
    throw new ValidationError(`\`${field}\` must be at most ${maxUrlLength} characters; got ${text.length}`, field);
  }
  const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) && !/^[^/:]+:\d+(\/|$)/.test(text);
  let url: URL;
  try {
    url = new URL(hasScheme ? text : `http://${text}`);
  } catch {
    throw new ValidationError(`\`${field}\` must be a valid URL; got ${JSON.stringify(shorten(text))}`, field);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ValidationError(`\`${field}\` must use http or https; got ${JSON.stringify(url.protocol.replace(/:$/, ''))}`, field);
  }
  const host = url.hostname;
  const isIp = /^\d+(\.\d+){3}$/.test(host) || host.startsWith('[');
  if (!isIp && host !== 'localhost' && !/\.[a-z0-9-]{2,}\.?$/i.test(host)) {
    throw new ValidationError(`\`${field}\` must have a top-level domain; got ${JSON.stringify(shorten(text))}`, field);
  }
  if (!isIp && !isDnsLength(host)) {
    throw new ValidationError(
      `\`${field}\` must have a host name of at most ${maxHostLength} characters in labels of at most ${maxLabelLength}; got ${JSON.stringify(shorten(text))}`,
      field,
    );
  }
  return url;
}

/** DNS limits (RFC 1035) on the ASCII (punycode) host: no resolver answers for a longer name. */
const maxHostLength = 253;
const maxLabelLength = 63;

/**
 * True when the host fits DNS. A longer one can never resolve, and it did not fail fast: 3,000
 * `ü` (a 6,000-character punycode host) held a scrape through every fetch engine for 20 s.
 */
function isDnsLength(host: string): boolean {
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (name.length > maxHostLength) return false;
  for (const label of name.split('.')) if (label.length > maxLabelLength) return false;
  return true;
}

function shorten(text: string): string {
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

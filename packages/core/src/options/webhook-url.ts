import { ValidationError } from '../errors.js';

/** Longest part of a rejected URL quoted back in an error message. */
const quotedLength = 200;

const quote = (value: string) => JSON.stringify(value.length > quotedLength ? `${value.slice(0, quotedLength)}…` : value);

/**
 * Parses the URL a webhook is sent to. It must be an absolute `https:` URL, or `http:` when the
 * operator set `allowHttp` (QUARRY_WEBHOOK_ALLOW_HTTP=true). Throws a ValidationError naming
 * `field` (`webhook` for the string form, `webhook.url` for the object form) otherwise.
 * Whether the host may be reached (the SSRF guard) is decided when the webhook is delivered.
 */
export function checkWebhookUrl(url: string, options: { allowHttp: boolean; field?: 'webhook' | 'webhook.url' }): URL {
  const field = options.field ?? 'webhook.url';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ValidationError(`\`${field}\` must be an absolute http(s) URL; got ${quote(url)}`, field);
  }
  if (parsed.protocol === 'https:' || (parsed.protocol === 'http:' && options.allowHttp)) return parsed;
  if (parsed.protocol === 'http:') {
    throw new ValidationError(`\`${field}\`: webhook URLs must use https; allow http with QUARRY_WEBHOOK_ALLOW_HTTP=true; got ${quote(url)}`, field);
  }
  const expected = options.allowHttp ? 'an http: or https: URL' : 'an https: URL';
  throw new ValidationError(`\`${field}\` must be ${expected}; got ${parsed.protocol} in ${quote(url)}`, field);
}

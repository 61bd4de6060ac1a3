import { asQuarryError, type ErrorCode, type FieldIssue, type QuarryError } from '@quarry/core';

/**
 * The one place where errors become HTTP: a status per error code (a new code without a status
 * does not compile) and the API's error body `{success: false, error, code?, details?}`.
 */
export const statusOf: Record<ErrorCode, number> = {
  invalid_request: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  timeout: 408,
  rate_limited: 429,
  too_large: 413,
  // 500, not 502: the official SDK retries every 502 three times, which only delays a page that failed.
  target_failed: 500,
  not_configured: 501,
  not_available: 501,
  unavailable: 503,
  internal: 500,
};

/**
 * How a failure is logged. Only an internal error is the server's own fault: error level, with its
 * stack. A failing or slow target, a feature with no provider, a backing-service outage are the
 * outcome of the request: one line at info or warn. Bad input, auth and limits are not logged.
 */
export type LogLevel = 'error' | 'warn' | 'info' | 'none';
export const logLevelOf: Record<ErrorCode, LogLevel> = {
  invalid_request: 'none',
  unauthorized: 'none',
  payment_required: 'none',
  forbidden: 'none',
  not_found: 'none',
  too_large: 'none',
  timeout: 'info',
  rate_limited: 'none',
  target_failed: 'info',
  not_configured: 'warn',
  not_available: 'warn',
  unavailable: 'warn',
  internal: 'error',
};

/** Logs a request's failure at its level (see logLevelOf): a stack for internal errors only. */
export function logFailure(
  log: { error(object: object, message: string): void; warn(message: string): void; info(message: string): void },
  error: unknown,
  what: string,
): void {
  const quarryError = asQuarryError(error);
  const level = logLevelOf[quarryError.code];
  if (level === 'error') log.error({ err: error }, `${what} failed`);
  else if (level !== 'none') log[level](`${what}: ${quarryError.code}: ${quarryError.message.split('\n')[0]}`);
}

/** Failures whose kind (in `details.kind`) answers another status than their code's. */
export const statusOfKind: Readonly<Record<string, number>> = {
  ssrf: 403,
  'unsupported-type': 415,
  // The URL names a host that does not exist or a port nobody listens on: the caller's to fix, and
  // not a 5xx the SDKs retry.
  dns: 422,
  'connection-refused': 422,
  // The target reset the connection mid-answer, or its TLS certificate or handshake failed: the
  // target's own failure (Firecrawl answers SCRAPE_SSL_ERROR for TLS), not a 5xx the SDKs retry.
  'connection-reset': 422,
  tls: 422,
  // Redirects without end (or past the hop limit): the target's to fix.
  redirect: 422,
  // Over a per-page limit (bytes, elements, table cells, markdown, conversion time or heap): the page's own failure.
  'too-large': 422,
  // An interact session whose browser page was held by a process that is gone (Firecrawl answers 410).
  'session-expired': 410,
};

/** What each status this map can answer means, for the OpenAPI documents. */
const meaningOf: Record<ErrorCode, string> = {
  invalid_request: 'invalid request: the message names the field, the expectation and what arrived',
  unauthorized: 'missing or invalid API key',
  payment_required: 'not enough credits',
  forbidden: 'not allowed for this key or team',
  not_found: 'unknown job (or another team’s)',
  timeout: 'timed out',
  rate_limited: 'rate limit exceeded; see Retry-After and X-RateLimit-* headers',
  too_large: 'the request body or the uploaded file is larger than the server accepts',
  target_failed: 'the target failed',
  not_configured: 'the feature needs a provider this server has not configured',
  not_available: 'not available on this server',
  unavailable: 'a backing service is unavailable; retry later',
  internal: 'an internal error occurred',
};
const meaningOfKind: Record<keyof typeof statusOfKind, string> = {
  ssrf: 'the target is a private or loopback address the operator did not allow',
  'unsupported-type': 'the target answered a content type Quarry cannot convert',
  dns: 'the host name of the target does not resolve',
  'connection-refused': 'the target refused the connection (nothing listens on its port)',
  'connection-reset': 'the target reset or closed the connection before its answer was complete',
  tls: 'the target’s TLS certificate is not trusted or its TLS handshake failed (skipTlsVerification accepts an untrusted certificate)',
  redirect: 'the target redirects too many times',
  'too-large': 'the page is over a per-page limit (bytes, elements, table cells, markdown length, conversion time or heap)',
  'session-expired': 'the interact session expired: the process holding its browser page stopped',
};

/**
 * Every status `toHttpError` can answer, each with what it means (several codes may share one),
 * generated from the two tables above so the OpenAPI documents cannot omit one.
 */
export function errorStatuses(): Map<number, string[]> {
  const statuses = new Map<number, string[]>();
  const add = (status: number, meaning: string) => statuses.set(status, [...(statuses.get(status) ?? []), meaning]);
  for (const [code, status] of Object.entries(statusOf) as [ErrorCode, number][]) add(status, `${meaningOf[code]} (${code})`);
  for (const [kind, status] of Object.entries(statusOfKind)) add(status, meaningOfKind[kind] ?? kind);
  return new Map([...statuses].sort(([a], [b]) => a - b));
}

/** Codes shown to clients in `code`, in the spelling Firecrawl clients know where one exists. */
const publicCode: Partial<Record<ErrorCode, string>> = {
  timeout: 'SCRAPE_TIMEOUT',
  target_failed: 'SCRAPE_FAILED',
  not_available: 'NOT_AVAILABLE',
  not_configured: 'NOT_CONFIGURED',
  too_large: 'PAYLOAD_TOO_LARGE',
};

/** Codes of failure kinds, in Firecrawl's spelling, where they are more precise than their code's. */
const publicCodeOfKind: Readonly<Record<string, string>> = {
  dns: 'SCRAPE_DNS_RESOLUTION_ERROR',
  'connection-refused': 'SCRAPE_SITE_ERROR',
  'connection-reset': 'SCRAPE_SITE_ERROR',
  tls: 'SCRAPE_SSL_ERROR',
  'too-large': 'CONTENT_TOO_LARGE',
};

export interface HttpError {
  status: number;
  headers: Record<string, string>;
  body: { success: false; error: string; code?: string; details?: unknown };
}

/** A field path as Firecrawl's clients read it: `scrapeOptions.formats[0].type` -> ['scrapeOptions', 'formats', 0, 'type']. */
export function pathOf(field: string): Array<string | number> {
  if (field === '') return [];
  return field
    .split(/\.|(?=\[)/)
    .filter((part) => part !== '')
    .map((part) => (/^\[\d+\]$/.test(part) ? Number(part.slice(1, -1)) : part.replace(/^\[|\]$/g, '')));
}

/**
 * Details shown to clients. Validation issues take Firecrawl's shape, a list of `{code, message,
 * path}` (the SDKs hand `details` to the caller); everything else as the error carries it.
 */
function detailsOf(error: QuarryError): unknown {
  const issues = error.details?.issues as FieldIssue[] | undefined;
  if (error.code !== 'invalid_request' || !Array.isArray(issues)) return error.details;
  return issues.map((issue) => ({ code: issue.code ?? 'custom', message: issue.message, path: pathOf(issue.field) }));
}

export function toHttpError(error: unknown): HttpError {
  const quarryError: QuarryError = asQuarryError(error);
  const kind = quarryError.details?.kind;
  const knownKind = typeof kind === 'string' && Object.hasOwn(statusOfKind, kind) ? kind : undefined;
  const status = (knownKind ? statusOfKind[knownKind] : undefined) ?? statusOf[quarryError.code];
  const headers: Record<string, string> = {};
  const retryAfter = quarryError.details?.retryAfterSeconds;
  if (typeof retryAfter === 'number') headers['retry-after'] = String(Math.ceil(retryAfter));
  const { limit, remaining, resetAt } = quarryError.details ?? {};
  if (typeof limit === 'number' && typeof resetAt === 'number') {
    headers['x-ratelimit-limit'] = String(limit);
    headers['x-ratelimit-remaining'] = String(remaining ?? 0);
    headers['x-ratelimit-reset'] = String(resetAt);
  }
  const message = status === 500 && quarryError.code === 'internal' ? `An unexpected error occurred: ${quarryError.message}` : quarryError.message;
  return {
    status,
    headers,
    body: {
      success: false,
      error: message,
      code: (knownKind ? publicCodeOfKind[knownKind] : undefined) ?? publicCode[quarryError.code] ?? quarryError.code.toUpperCase(),
      ...(quarryError.details && status !== 500 && quarryError.code !== 'rate_limited' ? { details: detailsOf(quarryError) } : {}),
    },
  };
}

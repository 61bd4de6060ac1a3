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
  // 500, not 502: the official SDK retries every 502 three times, which only delays a page that failed.
  target_failed: 500,
  not_configured: 501,
  not_available: 501,
  unavailable: 503,
  internal: 500,
};

/** Codes shown to clients in `code`, in the spelling Firecrawl clients know where one exists. */
const publicCode: Partial<Record<ErrorCode, string>> = {
  timeout: 'SCRAPE_TIMEOUT',
  target_failed: 'SCRAPE_FAILED',
  not_available: 'NOT_AVAILABLE',
  not_configured: 'NOT_CONFIGURED',
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
  const status = kind === 'ssrf' ? 403 : kind === 'unsupported-type' ? 415 : statusOf[quarryError.code];
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
      code: publicCode[quarryError.code] ?? quarryError.code.toUpperCase(),
      ...(quarryError.details && status !== 500 && quarryError.code !== 'rate_limited' ? { details: detailsOf(quarryError) } : {}),
    },
  };
}

/**
 * Typed errors of the engine. Every failure that leaves core is a QuarryError with a code from
 * the closed union below; the http package maps codes to statuses in one place
 * (packages/http/src/errors/to-http.ts).
 */
export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'payment_required'
  | 'forbidden'
  | 'not_found'
  | 'timeout'
  | 'rate_limited'
  | 'too_large'
  | 'target_failed'
  | 'not_configured'
  | 'not_available'
  | 'unavailable'
  | 'internal';

export interface ErrorJson {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
  retryable?: boolean;
}

export class QuarryError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly retryable: boolean;

  constructor(code: ErrorCode, message: string, options: { details?: Record<string, unknown>; cause?: unknown; retryable?: boolean } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details;
    this.retryable = options.retryable ?? false;
  }

  toJSON(): ErrorJson {
    return {
      code: this.code,
      message: this.message,
      ...(this.details ? { details: this.details } : {}),
      ...(this.retryable ? { retryable: true } : {}),
    };
  }
}

export interface FieldIssue {
  /** JSON path of the field, e.g. `formats[2]` or `scrapeOptions.timeout`. */
  field: string;
  /** What was expected and what arrived, in words. */
  message: string;
  /**
   * The kind of problem in the words Firecrawl's clients know (zod's issue codes): `invalid_type`,
   * `too_small`, `too_big`, `unrecognized_keys`, `invalid_enum_value`, `invalid_string`; `custom`
   * when absent.
   */
  code?: string;
}

/** Bad input. The message names the field, the expectation and what arrived. */
export class ValidationError extends QuarryError {
  readonly issues: FieldIssue[];
  constructor(issues: FieldIssue[] | string, field?: string) {
    const list = typeof issues === 'string' ? [{ field: field ?? '', message: issues }] : issues;
    super('invalid_request', list.map((issue) => issue.message).join('; '), {
      details: { issues: list },
    });
    this.issues = list;
  }
}

export class UnauthorizedError extends QuarryError {
  constructor(message = 'Unauthorized: a valid API key is required') {
    super('unauthorized', message);
  }
}

export class ForbiddenError extends QuarryError {
  constructor(message: string) {
    super('forbidden', message);
  }
}

export class NotFoundError extends QuarryError {
  constructor(message = 'Job not found') {
    super('not_found', message);
  }
}

export class PaymentRequiredError extends QuarryError {
  constructor(message = 'Insufficient credits to perform this request.') {
    super('payment_required', message);
  }
}

/** An upload (a file to parse) larger than the server accepts, or one that expands past the limit. */
export class PayloadTooLargeError extends QuarryError {
  constructor(message: string) {
    super('too_large', message);
  }
}

export class RateLimitedError extends QuarryError {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number, details: Record<string, unknown> = {}) {
    super('rate_limited', message, { details: { ...details, retryAfterSeconds }, retryable: true });
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export class TimeoutError extends QuarryError {
  constructor(message = 'Request timed out', options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
    super('timeout', message, { ...options, retryable: true });
  }
}

/** Why a target page could not be turned into a document. */
export type TargetErrorKind =
  | 'dns'
  | 'connection-refused'
  /** The target reset or closed the connection before its answer was complete (not through a proxy). */
  | 'connection-reset'
  | 'connection'
  | 'tls'
  | 'http-status'
  | 'blocked'
  | 'robots'
  | 'too-large'
  | 'unsupported-type'
  | 'ssrf'
  | 'redirect'
  | 'parse';

export class TargetError extends QuarryError {
  readonly kind: TargetErrorKind;
  constructor(kind: TargetErrorKind, message: string, options: { cause?: unknown; details?: Record<string, unknown>; retryable?: boolean } = {}) {
    super('target_failed', message, { ...options, details: { kind, ...options.details } });
    this.kind = kind;
  }
}

/** A feature needs a provider or engine the operator has not configured. */
export class NotConfiguredError extends QuarryError {
  constructor(message: string) {
    super('not_configured', message);
  }
}

/** A valid option whose engine does not exist in this build yet. */
export class NotAvailableError extends QuarryError {
  constructor(message: string) {
    super('not_available', message);
  }
}

/** Rebuilds an error that crossed a queue or a process boundary as `{code, message, details}`. */
export function errorFromJson(json: ErrorJson): QuarryError {
  return new QuarryError(json.code, json.message, {
    ...(json.details ? { details: json.details } : {}),
    ...(json.retryable ? { retryable: true } : {}),
  });
}

/** Any thrown value as a QuarryError; unknown errors become `internal`. */
export function asQuarryError(error: unknown): QuarryError {
  if (error instanceof QuarryError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new QuarryError('internal', message, { cause: error });
}

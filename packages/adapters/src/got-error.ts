/**
 * Translates what got, got-scraping, http2-wrapper and node's sockets throw into core errors, so
 * nothing library-shaped leaves the adapter. The original error travels as `cause`.
 */
import { QuarryError, TargetError, TimeoutError, ValidationError, type TargetErrorKind } from '@quarry/core';

export interface FailureContext {
  /** `host[:port]` of the hop that failed. */
  host: string;
  /** The exchange's hard limit, for timeout messages. */
  timeoutMs: number;
  /** Set when the request went through a proxy (its address is never shown: it may hold credentials). */
  isProxied: boolean;
}

type Outcome = { kind: TargetErrorKind; words: string; isRetryable: boolean } | { kind: 'timeout' } | { kind: 'invalid-header' };

/** Error codes by what they mean. Codes not listed are matched by `codePatterns`, then 'connection'. */
const outcomeByCode: Record<string, Outcome> = {
  ENOTFOUND: { kind: 'dns', words: 'the host name does not resolve', isRetryable: false },
  EAI_NONAME: { kind: 'dns', words: 'the host name does not resolve', isRetryable: false },
  EAI_NODATA: { kind: 'dns', words: 'the host name has no address', isRetryable: false },
  EAI_AGAIN: { kind: 'dns', words: 'DNS lookup failed temporarily', isRetryable: true },
  EAI_FAIL: { kind: 'dns', words: 'DNS lookup failed', isRetryable: true },
  ECONNREFUSED: { kind: 'connection-refused', words: 'connection refused', isRetryable: false },
  ECONNRESET: { kind: 'connection-reset', words: 'connection reset by the server', isRetryable: true },
  ECONNABORTED: { kind: 'connection-reset', words: 'connection aborted', isRetryable: true },
  EPIPE: { kind: 'connection-reset', words: 'connection closed while sending', isRetryable: true },
  EHOSTUNREACH: { kind: 'connection', words: 'host unreachable', isRetryable: true },
  ENETUNREACH: { kind: 'connection', words: 'network unreachable', isRetryable: true },
  EADDRNOTAVAIL: { kind: 'connection', words: 'address not available', isRetryable: true },
  EPROTO: { kind: 'tls', words: 'TLS protocol error', isRetryable: false },
  ETIMEDOUT: { kind: 'timeout' },
  ESOCKETTIMEDOUT: { kind: 'timeout' },
  ERR_TLS_HANDSHAKE_TIMEOUT: { kind: 'timeout' },
  ERR_INVALID_CHAR: { kind: 'invalid-header' },
  ERR_INVALID_HTTP_TOKEN: { kind: 'invalid-header' },
  ERR_HTTP_INVALID_HEADER_VALUE: { kind: 'invalid-header' },
};

const codePatterns: readonly [RegExp, Outcome][] = [
  [/CERT|^ERR_TLS_|^ERR_SSL_|_SIGNATURE$|^SSL_/, { kind: 'tls', words: 'the TLS handshake failed', isRetryable: false }],
  [/^HPE_/, { kind: 'connection', words: 'the server sent an invalid HTTP response', isRetryable: true }],
  [/^ERR_HTTP2_/, { kind: 'connection', words: 'the HTTP/2 session failed', isRetryable: true }],
];

const fallback: Outcome = { kind: 'connection', words: 'the request failed', isRetryable: true };

/** Walks `cause` links: the first QuarryError (our guard's refusals travel inside got errors). */
function findQuarryError(error: unknown): QuarryError | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 8; current = current.cause, depth++) {
    if (current instanceof QuarryError) return current;
  }
  return undefined;
}

/** The innermost error code along `cause` links (got copies it outward, but not every wrapper does). */
function findCode(error: unknown): string | undefined {
  let code: string | undefined;
  for (let current = error, depth = 0; current instanceof Error && depth < 8; current = current.cause, depth++) {
    const candidate = (current as NodeJS.ErrnoException).code;
    if (typeof candidate === 'string' && candidate !== 'ERR_GOT_REQUEST_ERROR') code = candidate;
  }
  return code;
}

function outcomeOf(error: unknown, code: string | undefined): Outcome {
  if (error instanceof Error && error.name === 'TimeoutError') return { kind: 'timeout' };
  if (code === undefined) return fallback;
  return outcomeByCode[code] ?? codePatterns.find(([pattern]) => pattern.test(code))?.[1] ?? fallback;
}

/** Any failure of an HTTP exchange as a core error with the original as `cause`. */
export function toCoreError(error: unknown, context: FailureContext): QuarryError {
  const known = findQuarryError(error);
  if (known) return known;
  const code = findCode(error);
  const outcome = outcomeOf(error, code);
  const via = context.isProxied ? ' through the proxy' : '';
  // Library messages may quote a URL; never show its credentials (a proxy's, typically).
  const detail = (error instanceof Error ? error.message : String(error)).replace(/\/\/[^/@\s]*@/g, '//***@');
  if (outcome.kind === 'timeout') {
    return new TimeoutError(`Timed out after ${context.timeoutMs} ms fetching from ${context.host}${via}`, {
      cause: error,
      details: { host: context.host, timeoutMs: context.timeoutMs },
    });
  }
  if (outcome.kind === 'invalid-header') {
    return new ValidationError(`headers must be valid HTTP header names and values; ${detail}`, 'headers');
  }
  // Through a proxy, a reset may be the proxy's own doing: only a direct connection's is the target's.
  const kind = outcome.kind === 'connection-reset' && context.isProxied ? 'connection' : outcome.kind;
  const hint = outcome.kind === 'tls' ? '; set skipTlsVerification to accept an untrusted certificate' : '';
  return new TargetError(kind, `Fetching from ${context.host}${via} failed: ${outcome.words} (${code ?? detail})${hint}`, {
    cause: error,
    details: { host: context.host, ...(code ? { code } : {}) },
    retryable: outcome.isRetryable,
  });
}

/**
 * Playwright and Chromium failures -> core errors. Chromium's net error names (`net::ERR_...`)
 * say what happened on the wire; Playwright's own timeout is a TimeoutError; a closed or crashed
 * browser is `unavailable` (retryable: the pool replaces the browser).
 */
import { QuarryError, TargetError, TimeoutError, type TargetErrorKind } from '@quarry/core';

const netErrorKinds: Array<[RegExp, TargetErrorKind, string]> = [
  [/ERR_NAME_NOT_RESOLVED|ERR_NAME_RESOLUTION_FAILED/, 'dns', 'does not resolve'],
  [/ERR_CERT_|ERR_SSL_|ERR_BAD_SSL/, 'tls', 'has a TLS certificate the browser refused (use skipTlsVerification to accept it)'],
  [/ERR_CONNECTION_REFUSED/, 'connection-refused', 'refused the connection'],
  [
    /ERR_CONNECTION_RESET|ERR_CONNECTION_CLOSED|ERR_CONNECTION_ABORTED|ERR_EMPTY_RESPONSE|ERR_CONTENT_LENGTH_MISMATCH|ERR_INCOMPLETE_CHUNKED_ENCODING/,
    'connection-reset',
    'reset or closed the connection before its answer was complete',
  ],
  [/ERR_TOO_MANY_REDIRECTS/, 'redirect', 'redirects too many times'],
  [
    /ERR_CONNECTION_|ERR_EMPTY_RESPONSE|ERR_ADDRESS_UNREACHABLE|ERR_TUNNEL_CONNECTION_FAILED|ERR_PROXY_CONNECTION_FAILED|ERR_INTERNET_DISCONNECTED|ERR_TIMED_OUT|ERR_INVALID_RESPONSE|ERR_HTTP2_/,
    'connection',
    'could not be reached',
  ],
];

export function toCoreError(error: unknown, context: { host: string; timeoutMs: number }): QuarryError {
  if (error instanceof QuarryError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof Error && error.name === 'TimeoutError') {
    return new TimeoutError(`The browser did not finish ${context.host} within ${context.timeoutMs} ms`, {
      cause: error,
      details: { host: context.host, timeoutMs: context.timeoutMs },
    });
  }
  const net = /net::(ERR_[A-Z0-9_]+)/.exec(message)?.[1];
  if (net) {
    const row = netErrorKinds.find(([pattern]) => pattern.test(net));
    if (row) return new TargetError(row[1], `${context.host} ${row[2]} (${net})`, { cause: error, details: { host: context.host, netError: net } });
    if (net === 'ERR_ABORTED' && /download/i.test(message)) {
      return new TargetError('unsupported-type', `${context.host} answered with a file download, not a page`, {
        cause: error,
        details: { host: context.host },
      });
    }
    return new TargetError('connection', `The browser failed to load ${context.host} (${net})`, {
      cause: error,
      details: { host: context.host, netError: net },
    });
  }
  if (/Download is starting/i.test(message)) {
    return new TargetError('unsupported-type', `${context.host} answered with a file download, not a page`, { cause: error, details: { host: context.host } });
  }
  if (/Target (page, context or browser )?(has been )?closed|Browser has been closed|crash/i.test(message)) {
    return new QuarryError('unavailable', `The browser closed while loading ${context.host}; try again`, { cause: error, retryable: true });
  }
  return new QuarryError('internal', `The browser failed on ${context.host}: ${message.split('\n')[0]}`, { cause: error });
}

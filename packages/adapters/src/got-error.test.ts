import { describe, expect, it } from 'vitest';
import { TargetError } from '@quarry/core';
import { toCoreError } from './got-error.js';

const context = { host: 'example.test:8443', timeoutMs: 5000, isProxied: false };
const withCode = (code: string, message = code) => Object.assign(new Error(message), { code });
/** got wraps socket errors in a RequestError with the original as cause and the code copied. */
const wrapped = (inner: Error & { code?: string }) =>
  Object.assign(new Error(`got: ${inner.message}`, { cause: inner }), { code: inner.code ?? 'ERR_GOT_REQUEST_ERROR' });

describe('toCoreError', () => {
  it.each([
    ['ENOTFOUND', 'dns'],
    ['EAI_AGAIN', 'dns'],
    ['ECONNREFUSED', 'connection-refused'],
    ['ECONNRESET', 'connection-reset'],
    ['EPIPE', 'connection-reset'],
    ['EHOSTUNREACH', 'connection'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'tls'],
    ['CERT_HAS_EXPIRED', 'tls'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'tls'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'tls'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'tls'],
    ['HPE_INVALID_CONSTANT', 'connection'],
    ['ERR_HTTP2_STREAM_ERROR', 'connection'],
    ['SOMETHING_NEW', 'connection'],
  ])('%s -> TargetError(%s) with the original as cause', (code, kind) => {
    const original = wrapped(withCode(code));
    const error = toCoreError(original, context);
    expect(error).toBeInstanceOf(TargetError);
    expect(error).toMatchObject({ kind, cause: original, details: { host: 'example.test:8443', code } });
    expect(error.message).toContain('example.test:8443');
  });

  it('a reset through a proxy stays a connection failure (it may be the proxy’s), not the target’s reset', () => {
    expect(toCoreError(wrapped(withCode('ECONNRESET')), { ...context, isProxied: true })).toMatchObject({ kind: 'connection' });
  });

  it('maps timeouts (got TimeoutError, ETIMEDOUT, an aborted deadline) to TimeoutError', () => {
    const gotTimeout = Object.assign(new Error('Timeout awaiting request'), { name: 'TimeoutError', code: 'ETIMEDOUT' });
    for (const failure of [gotTimeout, withCode('ETIMEDOUT'), new DOMException('deadline', 'TimeoutError')]) {
      const error = toCoreError(failure, context);
      expect(error).toMatchObject({ name: 'TimeoutError', code: 'timeout', retryable: true });
      expect(error.message).toBe('Timed out after 5000 ms fetching from example.test:8443');
    }
  });

  it('returns a core error found along the cause chain (the guard refusing inside a socket)', () => {
    const refusal = new TargetError('ssrf', 'Refused to connect to localhost: ...');
    expect(toCoreError(wrapped(Object.assign(refusal, {})), context)).toBe(refusal);
  });

  it('maps invalid header characters to a ValidationError on headers', () => {
    expect(toCoreError(withCode('ERR_INVALID_CHAR', 'Invalid character in header content ["x"]'), context)).toMatchObject({
      name: 'ValidationError',
      code: 'invalid_request',
    });
  });

  it('hides credentials that a library message quotes', () => {
    const error = toCoreError(new Error('Expected `proxyUrl` to be a URL, got `http://user:secret@proxy.test:8080`'), { ...context, isProxied: true });
    expect(error.message).not.toContain('secret');
    expect(error.message).toContain('http://***@proxy.test:8080');
  });

  it('says when a proxy was used without showing its address', () => {
    const error = toCoreError(withCode('ECONNREFUSED'), { ...context, isProxied: true });
    expect(error.message).toBe('Fetching from example.test:8443 through the proxy failed: connection refused (ECONNREFUSED)');
  });
});

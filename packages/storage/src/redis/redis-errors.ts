import { QuarryError } from '@quarry/core';

/**
 * Redis failures at the storage boundary: a Redis that cannot be reached (refused, closed, timed
 * out) becomes an `unavailable` QuarryError (503, retryable); anything else passes through.
 */
const unreachable = [
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EHOSTUNREACH/,
  /Command timed out/i,
  /Connection is closed/i,
  /MaxRetriesPerRequest/i,
  /LOADING/,
];

export function isRedisConnectionError(error: unknown): boolean {
  return error instanceof Error && unreachable.some((pattern) => pattern.test(`${(error as { code?: string }).code ?? ''} ${error.message}`));
}

export function translateRedisError(error: unknown): unknown {
  if (error instanceof QuarryError || !isRedisConnectionError(error)) return error;
  return new QuarryError('unavailable', `The work queue (Redis) is unavailable (${(error as Error).message}); retry in a few seconds`, {
    cause: error,
    retryable: true,
  });
}

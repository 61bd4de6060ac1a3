import { NotFoundError, QuarryError } from '@quarry/core';

/**
 * Translates node-postgres failures at the storage boundary. A database that cannot be reached
 * (refused, reset, shutting down, out of connections) becomes an `unavailable` QuarryError, which
 * the server answers with 503 and which callers may retry; `P0002` raised by Quarry's own SQL
 * functions is a NotFoundError. Anything else (a bug, a constraint) passes through unchanged.
 */
const connectionCodes: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up or shutting down)
  '53300', // too_many_connections
]);

const connectionMessages = [/Connection terminated/i, /connection timeout/i, /Client has encountered a connection error/i, /not queryable/i];

/** Whether the error means the database could not be reached (as opposed to refusing a statement). */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (connectionCodes.has(code) || code.startsWith('08'))) return true;
  if (error instanceof AggregateError) return error.errors.some(isConnectionError);
  return connectionMessages.some((pattern) => pattern.test(error.message));
}

export function translatePostgresError(error: unknown): unknown {
  if (error instanceof QuarryError) return error;
  if (isConnectionError(error)) {
    const reason = error instanceof Error && error.message ? error.message : String(error);
    return new QuarryError('unavailable', `The database is unavailable (${reason}); retry in a few seconds`, { cause: error, retryable: true });
  }
  if ((error as { code?: unknown }).code === 'P0002') return new NotFoundError((error as Error).message);
  return error;
}

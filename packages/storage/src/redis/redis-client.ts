import { Redis } from 'ioredis';

export interface RedisClientOptions {
  /** Name shown by CLIENT LIST. */
  name: string;
  /**
   * How long a command may wait for its answer, queued while the connection is down included (ms);
   * undefined waits until Redis is back. An API process sets it, so a request fails with 503
   * instead of hanging through an outage; a worker leaves it unset and waits the outage out.
   */
  commandTimeoutMs?: number;
}

/**
 * A Redis connection for Quarry from a `redis://` or `rediss://` URL. It reconnects every 0.1 to
 * 2 s while Redis is down; commands sent meanwhile are queued and sent once it is back (within
 * `commandTimeoutMs`, when set), which is what BullMQ requires. The caller owns it and calls
 * `quit()` (or `disconnect()`).
 */
export function createRedis(url: string, options: RedisClientOptions = { name: 'quarry' }): Redis {
  const redis = new Redis(url, {
    connectionName: options.name,
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(100 * times, 2_000),
    ...(options.commandTimeoutMs !== undefined ? { commandTimeout: options.commandTimeoutMs } : {}),
  });
  // Connection errors are retried by the strategy above; they must not crash the process.
  redis.on('error', () => undefined);
  return redis;
}

import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/**
 * Redis for tests: QUARRY_TEST_REDIS_URL (default: the local server). Each test uses its own key
 * prefix (`quarry-test-<random>`), deleted at the end, so parallel runs never collide. Without a
 * reachable server the tests are skipped with a loud message, except under CI=true, where that is
 * an error.
 */
export const testRedisUrl = process.env.QUARRY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export async function isRedisAvailable(): Promise<boolean> {
  const redis = new Redis(testRedisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2_000 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return true;
  } catch (error) {
    const why = `Redis at ${testRedisUrl} is unreachable (${(error as Error).message})`;
    if (process.env.CI === 'true') throw new Error(`${why}; CI=true requires it (start it: see DEVELOPERS.md)`);
    console.warn(`\n!!! SKIPPING Redis tests: ${why}. Set QUARRY_TEST_REDIS_URL or start Redis to run them.\n`);
    return false;
  } finally {
    redis.disconnect();
  }
}

export function uniquePrefix(): string {
  return `quarry-test-${randomBytes(6).toString('hex')}`;
}

/** Deletes every key under a prefix. */
export async function deletePrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
}

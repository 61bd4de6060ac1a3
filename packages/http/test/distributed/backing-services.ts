import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';

/**
 * PostgreSQL and Redis for the distributed-mode tests: QUARRY_TEST_DATABASE_URL and
 * QUARRY_TEST_REDIS_URL (default: the local servers). Every test server gets its own schema and key
 * prefix, dropped when it closes, so parallel runs never collide. Without the services the tests
 * skip with a loud message, except under CI=true, where that is an error.
 */
export const testDatabaseUrl = process.env.QUARRY_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const testRedisUrl = process.env.QUARRY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export async function areBackingServicesAvailable(): Promise<boolean> {
  const problems: string[] = [];
  const client = new pg.Client({ connectionString: testDatabaseUrl, connectionTimeoutMillis: 2_000 });
  await client
    .connect()
    .then(() => client.query('SELECT 1'))
    .catch((error: Error) => problems.push(`PostgreSQL at ${testDatabaseUrl}: ${error.message}`))
    .finally(() => client.end().catch(() => undefined));
  const redis = new Redis(testRedisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2_000 });
  redis.on('error', () => undefined);
  await redis
    .connect()
    .then(() => redis.ping())
    .catch((error: Error) => problems.push(`Redis at ${testRedisUrl}: ${error.message}`))
    .finally(() => redis.disconnect());
  if (problems.length === 0) return true;
  const why = `unreachable: ${problems.join('; ')}`;
  if (process.env.CI === 'true') throw new Error(`Distributed-mode tests need PostgreSQL and Redis, ${why} (CI=true requires them; see DEVELOPERS.md)`);
  console.warn(`\n!!! SKIPPING distributed-mode tests: ${why}. Start them or set QUARRY_TEST_DATABASE_URL / QUARRY_TEST_REDIS_URL.\n`);
  return false;
}

/** A schema and key prefix of their own, and the environment that points Quarry at them. */
export function isolatedEnv(databaseUrl = testDatabaseUrl, redisUrl = testRedisUrl) {
  const id = randomBytes(6).toString('hex');
  return {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    QUARRY_PG_SCHEMA: `quarry_test_${id}`,
    QUARRY_REDIS_PREFIX: `quarry-test-${id}`,
    QUARRY_PG_POOL_SIZE: '4',
  };
}

/** Drops the schema and deletes the keys of an isolated environment. */
export async function dropIsolated(env: ReturnType<typeof isolatedEnv>): Promise<void> {
  const client = new pg.Client({ connectionString: env.DATABASE_URL, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${env.QUARRY_PG_SCHEMA} CASCADE`);
  } finally {
    await client.end();
  }
  const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${env.QUARRY_REDIS_PREFIX}:*`, 'COUNT', 1_000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

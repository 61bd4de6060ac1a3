import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { localTeamId } from '@quarry/core';
import { openPostgres, postgresSeed, type PostgresDatabase } from '../src/distributed.js';

/**
 * PostgreSQL for tests: QUARRY_TEST_DATABASE_URL (default: the local `test` database). Each test
 * file works in its own schema (`quarry_test_<random>`), dropped at the end, so parallel runs and
 * other users of the database never collide. Without a reachable server the tests are skipped
 * with a loud message, except under CI=true, where that is an error.
 */
export const testDatabaseUrl = process.env.QUARRY_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function isPostgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: testDatabaseUrl, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (error) {
    const why = `PostgreSQL at ${testDatabaseUrl} is unreachable (${(error as Error).message})`;
    if (process.env.CI === 'true') throw new Error(`${why}; CI=true requires it (start it: see DEVELOPERS.md)`);
    console.warn(`\n!!! SKIPPING PostgreSQL tests: ${why}. Set QUARRY_TEST_DATABASE_URL or start PostgreSQL to run them.\n`);
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function uniqueSchema(): string {
  return `quarry_test_${randomBytes(6).toString('hex')}`;
}

/** A fresh migrated schema; `drop` removes it and closes the pool. */
export async function openTestDatabase(schema = uniqueSchema()): Promise<PostgresDatabase & { drop(): Promise<void> }> {
  const db = await openPostgres({ connectionString: testDatabaseUrl, schema, maxConnections: 4 });
  return Object.assign(db, {
    drop: async () => {
      await db.execute(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await db.close();
    },
  });
}

/** Empties every table of the schema (and restarts its sequences), then seeds it again. */
export async function resetTestDatabase(db: PostgresDatabase): Promise<void> {
  const tables = await db.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename <> 'schema_version'", [db.schema]);
  await db.execute(`TRUNCATE ${tables.map((table) => `${db.schema}.${table.tablename}`).join(', ')} RESTART IDENTITY CASCADE`);
  await db.execute(postgresSeed, [localTeamId]);
}

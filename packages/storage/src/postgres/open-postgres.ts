import { localTeamId } from '@quarry/core';
import { defaultPostgresOptions, PostgresDatabase, type PostgresDatabaseOptions } from './postgres-database.js';
import { postgresMigrations, postgresSeed } from './postgres-migrations.js';

export type OpenPostgresOptions = Pick<PostgresDatabaseOptions, 'connectionString'> & Partial<PostgresDatabaseOptions>;

/**
 * Connects to PostgreSQL and brings the Quarry schema up to date (creating the schema when missing)
 * before answering. The caller owns the returned database and closes it.
 */
export async function openPostgres(options: OpenPostgresOptions): Promise<PostgresDatabase> {
  const db = new PostgresDatabase({ ...defaultPostgresOptions, ...options });
  try {
    await migratePostgres(db);
    return db;
  } catch (error) {
    await db.close();
    throw error;
  }
}

/**
 * Applies the migrations this schema has not seen, in order, in one transaction, under an advisory
 * lock named after the schema (so processes starting at once apply them once). Idempotent; returns
 * how many ran.
 */
export async function migratePostgres(db: PostgresDatabase): Promise<number> {
  return db.transaction(async (client) => {
    await client.execute('SELECT pg_advisory_xact_lock(hashtext($1))', [`quarry-migrate:${db.schema}`]);
    await client.execute(`CREATE SCHEMA IF NOT EXISTS ${db.schema}`);
    await client.execute('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
    const [row] = await client.query<{ version: number }>('SELECT version FROM schema_version');
    const current = row?.version ?? 0;
    if (current > postgresMigrations.length) {
      throw new Error(`Schema ${db.schema} has version ${current}, newer than this Quarry (${postgresMigrations.length}); upgrade Quarry`);
    }
    for (const sql of postgresMigrations.slice(current)) await client.execute(sql);
    if (row) await client.execute('UPDATE schema_version SET version = $1', [postgresMigrations.length]);
    else await client.execute('INSERT INTO schema_version (version) VALUES ($1)', [postgresMigrations.length]);
    await client.execute(postgresSeed, [localTeamId]);
    return postgresMigrations.length - current;
  });
}

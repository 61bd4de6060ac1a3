import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { outboxEvent } from '@quarry/core/testing';
import { defaultPostgresOptions, migratePostgres, PostgresDatabase, PostgresWebhookOutbox, postgresMigrations } from '../src/distributed.js';
import { createSqliteStorage, migrations } from '../src/index.js';
import { isPostgresAvailable, testDatabaseUrl, uniqueSchema } from './postgres-test-database.js';

// A database from before the outbox knew phases: its rows are middle, so they stay leasable as
// before, and a last event written after the upgrade waits for them.

let cleanup: (() => Promise<void>) | undefined;

afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const available = await isPostgresAvailable();

describe('webhook outbox phase migration', () => {
  it('SQLite: rows written before are middle, and a new last event waits for them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'quarry-outbox-phase-'));
    cleanup = () => rm(dir, { recursive: true, force: true });
    const before = migrations.findIndex((migration) => migration.includes('ADD COLUMN phase'));
    const db = new Database(join(dir, 'quarry.db'));
    for (const sql of migrations.slice(0, before)) db.exec(sql);
    db.exec('CREATE TABLE schema_version (version INTEGER NOT NULL)');
    db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(before);
    const old = outboxEvent('old-page', 1);
    db.prepare('INSERT INTO webhook_outbox (id, job_id, team_id, url, headers, body, created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
      old.id,
      old.jobId,
      old.teamId,
      old.url,
      JSON.stringify(old.headers),
      old.body,
      old.createdAt,
      old.createdAt,
    );
    db.close();

    const storage = createSqliteStorage({ dataDir: dir });
    try {
      expect(await storage.outbox.list()).toEqual([{ ...old, state: 'pending', attempts: 0, nextAttemptAt: 1 }]);
      await storage.outbox.add([outboxEvent('completed', 2, { phase: 'last' })]);
      expect((await storage.outbox.lease(10, 60_000)).map((entry) => entry.id)).toEqual(['old-page']);
      await storage.outbox.markDelivered('old-page');
      expect(await storage.outbox.lease(10, 60_000)).toMatchObject([{ id: 'completed', phase: 'last' }]);
    } finally {
      storage.close();
    }
  });

  it.runIf(available)('PostgreSQL: rows written before are middle, and a new last event waits for them', async () => {
    const schema = uniqueSchema();
    const db = new PostgresDatabase({ ...defaultPostgresOptions, connectionString: testDatabaseUrl, schema, maxConnections: 2 });
    cleanup = async () => {
      await db.execute(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await db.close();
    };
    const before = postgresMigrations.findIndex((migration) => migration.includes('ADD COLUMN phase'));
    await db.transaction(async (client) => {
      await client.execute(`CREATE SCHEMA ${schema}`);
      await client.execute('CREATE TABLE schema_version (version INTEGER NOT NULL)');
      for (const sql of postgresMigrations.slice(0, before)) await client.execute(sql);
      await client.execute('INSERT INTO schema_version (version) VALUES ($1)', [before]);
    });
    // Written by the function as it was: it knows no phase.
    const old = outboxEvent('old-page', 1);
    await db.execute('SELECT quarry_add_outbox($1)', [JSON.stringify([old])]);

    expect(await migratePostgres(db)).toBe(postgresMigrations.length - before);
    const outbox = new PostgresWebhookOutbox(db);
    expect(await outbox.list()).toEqual([{ ...old, state: 'pending', attempts: 0, nextAttemptAt: 1 }]);
    await outbox.add([outboxEvent('completed', 2, { phase: 'last' })]);
    expect((await outbox.lease(10, 60_000)).map((entry) => entry.id)).toEqual(['old-page']);
    await outbox.markDelivered('old-page');
    expect(await outbox.lease(10, 60_000)).toMatchObject([{ id: 'completed', phase: 'last' }]);
  });
});

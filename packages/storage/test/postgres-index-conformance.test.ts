import { describeChangeHistory, describeMonitorStore, describePageIndex } from '@quarry/core/testing';
import { afterAll, beforeAll, describe } from 'vitest';
import { PostgresChangeHistory, PostgresMonitorStore, PostgresPageIndex } from '../src/distributed.js';
import { isPostgresAvailable, openTestDatabase, resetTestDatabase } from './postgres-test-database.js';

// The index ports on a real PostgreSQL schema of their own (the DocumentCache suite runs in
// postgres-conformance.test.ts): tsvector/ts_rank search and the change histories; and the monitors.
const available = await isPostgresAvailable();

describe.runIf(available)('PostgreSQL index', () => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;

  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  const fresh = async () => {
    await resetTestDatabase(db);
    return db;
  };

  describePageIndex('PostgresPageIndex', async () => new PostgresPageIndex(await fresh()));
  describeChangeHistory('PostgresChangeHistory', async () => new PostgresChangeHistory(await fresh()));
  describeMonitorStore('PostgresMonitorStore', async () => new PostgresMonitorStore(await fresh()));
});

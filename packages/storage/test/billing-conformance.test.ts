import { describeBilling } from '@quarry/core/testing';
import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import { createSqliteStorage, type SqliteStorage } from '../src/index.js';
import { PostgresJobStore, PostgresLedger } from '../src/distributed.js';
import { isPostgresAvailable, openTestDatabase, resetTestDatabase } from './postgres-test-database.js';
import { tempDirs } from './temp-dirs.js';

// Billing's guarantee (charged exactly once, with the result it pays for, or not at all) on each
// ledger and the job store that charges the same tables, against real databases.
const dirs = tempDirs();
const open: SqliteStorage[] = [];
afterEach(() => {
  for (const created of open.splice(0)) created.close();
});
afterAll(() => dirs.removeAll());

describeBilling('SQLite', (clock) => {
  const storage = createSqliteStorage({ dataDir: dirs.make(), clock });
  open.push(storage);
  return { ledger: storage.ledger, jobs: storage.jobs };
});

const available = await isPostgresAvailable();

describe.runIf(available)('PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  describeBilling('PostgreSQL', async (clock) => {
    await resetTestDatabase(db);
    return { ledger: new PostgresLedger(db, clock), jobs: new PostgresJobStore(db) };
  });
});

import { describeChangeHistory, describePageIndex } from '@quarry/core/testing';
import { afterAll, afterEach } from 'vitest';
import { createSqliteStorage, type SqliteStorage } from '../src/index.js';
import { tempDirs } from './temp-dirs.js';

// The index ports on a real database file: the FTS5 page index and the change histories.
// (The DocumentCache suite runs in sqlite-conformance.test.ts.)
const dirs = tempDirs();
const open: SqliteStorage[] = [];

function storage(): SqliteStorage {
  const created = createSqliteStorage({ dataDir: dirs.make() });
  open.push(created);
  return created;
}

afterEach(() => {
  for (const created of open.splice(0)) created.close();
});
afterAll(() => dirs.removeAll());

describePageIndex('SqlitePageIndex', () => storage().pageIndex);
describeChangeHistory('SqliteChangeHistory', () => storage().changeHistory);

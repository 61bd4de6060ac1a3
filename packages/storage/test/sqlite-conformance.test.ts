import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  describeBlobStore,
  describeDocumentCache,
  describeJobStore,
  describeLedger,
  describeMonitorStore,
  describeQueue,
  describeWebhookOutbox,
  type ManualClock,
} from '@quarry/core/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSqliteStorage, LocalBlobStore, type SqliteStorage } from '../src/index.js';
import { tempDirs } from './temp-dirs.js';

// Every port runs its conformance suite against a real database file in a temporary folder.
const dirs = tempDirs();
const open: SqliteStorage[] = [];

function storage(clock?: ManualClock): SqliteStorage {
  const created = createSqliteStorage({ dataDir: dirs.make(), ...(clock ? { clock } : {}) });
  open.push(created);
  return created;
}

afterEach(() => {
  for (const created of open.splice(0)) created.close();
});
afterAll(() => dirs.removeAll());

describeJobStore('SqliteJobStore', () => {
  const { jobs, ledger } = storage();
  return { jobs, ledger };
});
describeQueue('SqliteQueue', (clock) => storage(clock).queue);
describeMonitorStore('SqliteMonitorStore', () => storage().monitors);
describeLedger('SqliteLedger', (clock) => storage(clock).ledger);
describeWebhookOutbox('SqliteWebhookOutbox', (clock) => storage(clock).outbox);
describeDocumentCache('SqliteDocumentCache', () => storage().documents);
describeBlobStore('LocalBlobStore', () => new LocalBlobStore(join(dirs.make(), 'blobs')));

describe('SqliteLedger at rest', () => {
  it('stores no plain key in the database file, only its hash', async () => {
    const dataDir = dirs.make();
    const created = createSqliteStorage({ dataDir });
    await created.ledger.ensureTeam('acme', 'Acme');
    const key = await created.ledger.createKey('acme', 'ci');
    expect(await created.ledger.authenticate(key.key)).toBeDefined();
    created.db.pragma('wal_checkpoint(TRUNCATE)');
    created.close();
    const bytes = readFileSync(join(dataDir, 'quarry.db'));
    expect(bytes.includes(key.key)).toBe(false);
    expect(bytes.includes(key.key.slice(3))).toBe(false);
    expect(bytes.includes(key.prefix)).toBe(true); // the file is readable: the check above means something
  });
});

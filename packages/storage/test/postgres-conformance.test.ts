import { describeBlobStore, describeDocumentCache, describeJobStore, describeLedger, describeWebhookOutbox } from '@quarry/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresBlobStore, PostgresDocumentCache, PostgresJobStore, PostgresLedger, PostgresWebhookOutbox } from '../src/distributed.js';
import { isPostgresAvailable, openTestDatabase, resetTestDatabase } from './postgres-test-database.js';

// Every state port runs its conformance suite against a real PostgreSQL schema of its own,
// emptied before each test.
const available = await isPostgresAvailable();

describe.runIf(available)('PostgreSQL storage', () => {
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

  describeJobStore('PostgresJobStore', async () => {
    const database = await fresh();
    return { jobs: new PostgresJobStore(database), ledger: new PostgresLedger(database) };
  });
  describeLedger('PostgresLedger', async (clock) => new PostgresLedger(await fresh(), clock));
  describeWebhookOutbox('PostgresWebhookOutbox', async (clock) => new PostgresWebhookOutbox(await fresh(), clock));
  describeDocumentCache('PostgresDocumentCache', async () => new PostgresDocumentCache(await fresh()));
  describeBlobStore('PostgresBlobStore', async () => new PostgresBlobStore(await fresh()));

  describe('PostgresBlobStore bounds', () => {
    it('refuses a blob over its size bound, naming the field, and stores nothing', async () => {
      const store = new PostgresBlobStore(await fresh(), { maxBytes: 4 });
      await expect(store.put(new Uint8Array(5), 'image/png')).rejects.toMatchObject({
        code: 'invalid_request',
        message: expect.stringContaining('at most 4 bytes; got 5'),
      });
      expect(await db.query('SELECT id FROM blobs')).toEqual([]);
      expect(await store.get(await store.put(new Uint8Array(4), 'image/png'))).toBeDefined();
    });
  });

  describe('PostgresLedger at rest', () => {
    it('stores no plain key, only its hash', async () => {
      const ledger = new PostgresLedger(await fresh());
      await ledger.ensureTeam('acme', 'Acme');
      const key = await ledger.createKey('acme', 'ci');
      const dump = JSON.stringify(await db.query('SELECT * FROM api_keys'));
      expect(dump).not.toContain(key.key.slice(3));
      expect(dump).toContain(key.prefix);
    });
  });
});

import { describeChangeHistory, describePageIndex } from '@quarry/core/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSqliteStorage, type SqliteStorage } from '../src/index.js';
import { tempDirs } from './temp-dirs.js';

// The index ports on a real database file: the FTS5 page index and the change histories.
// (The DocumentCache suite runs in sqlite-conformance.test.ts.)
const dirs = tempDirs();
const open: SqliteStorage[] = [];

// Batches of 3 pages: the suite's adds cross batch boundaries (a batch is one statement).
function storage(): SqliteStorage {
  const created = createSqliteStorage({ dataDir: dirs.make(), pageIndex: { batchSize: 3, flushMs: 60_000 } });
  open.push(created);
  return created;
}

afterEach(() => {
  for (const created of open.splice(0)) created.close();
});
afterAll(() => dirs.removeAll());

describePageIndex('SqlitePageIndex', () => storage().pageIndex);
describeChangeHistory('SqliteChangeHistory', () => storage().changeHistory);

describe('SqlitePageIndex batches (one statement per batch)', () => {
  it('replaces pages across batches and keeps every column as a single bind would', async () => {
    const { pageIndex, db } = storage();
    const page = (url: string, text: string, storedAt: number) => ({ scope: 'team-a', url, title: `Title ${url}`, description: '', text, storedAt });
    const odd = 'caf\u00e9 \ud800 lone, nul \u0000 here';
    for (const [index, url] of ['https://a.example/1', 'https://a.example/2', 'https://b.example/3'].entries()) {
      await pageIndex.add(page(url, `alpha words ${index} ${odd}`, 1_700_000_000_000 + index));
    }
    await pageIndex.add(page('https://a.example/1', 'omega replaced', 1_700_000_000_100));
    const hits = await pageIndex.search({ query: 'omega alpha', limit: 10, scope: 'team-a' });
    expect(hits.map((hit) => hit.url).sort()).toEqual(['https://a.example/1', 'https://a.example/2', 'https://b.example/3']);
    expect((await pageIndex.search({ query: 'omega', limit: 10, scope: 'team-a' })).map((hit) => hit.url)).toEqual(['https://a.example/1']);
    const rows = db.prepare('SELECT url, site, body, stored_at, typeof(stored_at) AS kind FROM page_index ORDER BY seq').all();
    const bound = db.prepare('SELECT ? AS body').get(`alpha words 1 ${odd}`) as { body: string };
    expect(rows).toEqual([
      { url: 'https://a.example/1', site: 'a.example', body: 'omega replaced', stored_at: 1_700_000_000_100, kind: 'integer' },
      { url: 'https://a.example/2', site: 'a.example', body: bound.body, stored_at: 1_700_000_000_001, kind: 'integer' },
      { url: 'https://b.example/3', site: 'b.example', body: expect.stringContaining('alpha words 2'), stored_at: 1_700_000_000_002, kind: 'integer' },
    ]);
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrations } from '../src/migrations.js';
import { createSqliteStorage } from '../src/index.js';

let dir: string | undefined;

afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('SQLite page index scope migration', () => {
  it('keeps pages indexed before scopes, searchable in the shared scope only', async () => {
    dir = await mkdtemp(join(tmpdir(), 'quarry-scope-'));
    const file = join(dir, 'quarry.db');
    // A database as the version before the scope migration left it (only the migrations before it
    // ran, so the later ones all run on reopening), with a page in the old table.
    const before = migrations.findIndex((migration) => migration.includes('page_index_unscoped'));
    const db = new Database(file);
    for (const sql of migrations.slice(0, before)) db.exec(sql);
    db.exec('CREATE TABLE schema_version (version INTEGER NOT NULL)');
    db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(before);
    db.prepare('INSERT INTO page_index (url, site, title, description, body, stored_at) VALUES (?, ?, ?, ?, ?, ?)').run(
      'https://a.example/old',
      'a.example',
      'Old',
      'An old page',
      'The aardvark page from before.',
      1,
    );
    db.close();

    const reopened = createSqliteStorage({ dataDir: dir });
    try {
      expect((await reopened.pageIndex.search({ query: 'aardvark', limit: 5, scope: '' })).map((hit) => hit.url)).toEqual(['https://a.example/old']);
      expect(await reopened.pageIndex.search({ query: 'aardvark', limit: 5, scope: 'team-a' })).toEqual([]);
      await reopened.pageIndex.add({
        scope: 'team-a',
        url: 'https://a.example/old',
        title: 'Mine',
        description: '',
        text: 'Team a has an aardvark too.',
        storedAt: 2,
      });
      expect(await reopened.pageIndex.search({ query: 'aardvark', limit: 5, scope: 'team-a' })).toHaveLength(1);
      expect(await reopened.pageIndex.search({ query: 'aardvark', limit: 5, scope: '' })).toHaveLength(1);
    } finally {
      reopened.close();
    }
  });
});

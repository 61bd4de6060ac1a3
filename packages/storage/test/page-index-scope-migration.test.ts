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
    const storage = createSqliteStorage({ dataDir: dir });
    const file = join(dir, 'quarry.db');
    storage.close();
    // Back to the schema before the scope migration, with a page in the old table.
    const db = new Database(file);
    const before = migrations.findIndex((migration) => migration.includes('page_index_unscoped'));
    db.exec(
      `DROP TRIGGER page_index_insert; DROP TRIGGER page_index_delete; DROP TRIGGER page_index_update; DROP TABLE page_index_fts; DROP TABLE page_index;`,
    );
    const created = migrations.slice(0, before).findLastIndex((migration) => migration.includes('CREATE TABLE page_index'));
    const original = migrations[created]!;
    db.exec(original.slice(original.indexOf('CREATE TABLE page_index'), original.indexOf('CREATE TABLE change_history')));
    db.prepare('INSERT INTO page_index (url, site, title, description, body, stored_at) VALUES (?, ?, ?, ?, ?, ?)').run(
      'https://a.example/old',
      'a.example',
      'Old',
      'An old page',
      'The aardvark page from before.',
      1,
    );
    db.prepare('UPDATE schema_version SET version = ?').run(before);
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

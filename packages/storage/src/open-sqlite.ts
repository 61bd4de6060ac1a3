import type Database from 'better-sqlite3';
import { createRequire } from 'node:module';
import { migrations } from './migrations.js';

export type SqliteDatabase = Database.Database;

export interface OpenSqliteOptions {
  /** How long a write waits for another connection's write lock before failing (ms). */
  busyTimeoutMs?: number;
}

const defaultBusyTimeoutMs = 5_000;

/**
 * Opens (creating when missing) a Quarry SQLite database and brings its schema up to date.
 *
 * WAL journal (readers never block the writer, and a crash loses no committed transaction),
 * synchronous NORMAL (a committed transaction survives a process crash; only a power loss may drop
 * the last ones), foreign keys on, and a busy timeout so that several processes can share the file.
 * The caller owns the returned connection and closes it. `:memory:` works for tests.
 */
/**
 * better-sqlite3 (14 modules) loads at the first database opened, not with the package: every
 * `quarry` command imports storage and a CLI crawl opens no database (issue 14, sixth pass).
 */
let sqlite: typeof Database | undefined;

export function openSqlite(path: string, options: OpenSqliteOptions = {}): SqliteDatabase {
  sqlite ??= createRequire(import.meta.url)('better-sqlite3') as typeof Database;
  const db = new sqlite(path);
  try {
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? defaultBusyTimeoutMs}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Applies the migrations this database has not seen, in order, in one transaction. Idempotent; returns how many ran. */
export function migrate(db: SqliteDatabase): number {
  db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
  const apply = db.transaction(() => {
    const row = db.prepare('SELECT version FROM schema_version').get() as { version: number } | undefined;
    const current = row?.version ?? 0;
    if (current > migrations.length) {
      throw new Error(`This database has schema version ${current}, newer than this Quarry (${migrations.length}); upgrade Quarry`);
    }
    for (const sql of migrations.slice(current)) db.exec(sql);
    if (row) db.prepare('UPDATE schema_version SET version = ?').run(migrations.length);
    else db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(migrations.length);
    return migrations.length - current;
  });
  return apply.immediate();
}

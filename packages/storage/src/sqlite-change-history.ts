import type { ChangeHistory, PageSnapshot } from '@quarry/core';
import type { SqliteDatabase } from './open-sqlite.js';

/**
 * ChangeHistory on SQLite (migration 8): one row per (team, tag, URL, job); a scrape outside any job
 * has job ''. The default history (tag null) is stored as tag ''.
 */
export class SqliteChangeHistory implements ChangeHistory {
  private readonly statements;

  constructor(db: SqliteDatabase) {
    this.statements = {
      latest: db.prepare<[string, string, string], HistoryRow>(
        `SELECT * FROM change_history WHERE team_id = ? AND tag = ? AND url_key = ? ORDER BY scraped_at DESC, rowid DESC LIMIT 1`,
      ),
      record: db.prepare<SnapshotParams>(
        `INSERT INTO change_history (team_id, tag, url_key, job_id, url, site, scraped_at, status_code, markdown, fields)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (team_id, tag, url_key, job_id) DO UPDATE SET url = excluded.url, site = excluded.site,
           scraped_at = excluded.scraped_at, status_code = excluded.status_code, markdown = excluded.markdown, fields = excluded.fields`,
      ),
      previousJobUrls: db.prepare<[string, string, string, string, string, string, string], { url: string }>(
        `SELECT url FROM change_history WHERE team_id = ? AND tag = ? AND site = ? AND job_id = (
           SELECT job_id FROM change_history WHERE team_id = ? AND tag = ? AND site = ? AND job_id <> '' AND job_id <> ?
           ORDER BY scraped_at DESC, rowid DESC LIMIT 1)`,
      ),
    };
  }

  async latest(teamId: string, tag: string | null, urlKey: string): Promise<PageSnapshot | undefined> {
    const row = this.statements.latest.get(teamId, tag ?? '', urlKey);
    return row ? snapshotOf(row) : undefined;
  }

  async record(snapshot: PageSnapshot): Promise<void> {
    this.statements.record.run(...snapshotParams(snapshot));
  }

  async previousJobUrls(teamId: string, tag: string | null, site: string, exceptJobId: string): Promise<string[]> {
    const key = tag ?? '';
    return this.statements.previousJobUrls.all(teamId, key, site, teamId, key, site, exceptJobId).map((row) => row.url);
  }
}

export interface HistoryRow {
  team_id: string;
  tag: string;
  url_key: string;
  job_id: string;
  url: string;
  site: string;
  scraped_at: number | string;
  status_code: number;
  markdown: string;
  fields: string | null;
}

/** A row of either backend as a snapshot (PostgreSQL's BIGINT arrives as a string). */
/** A snapshot as the record statement's parameters, in column order (both stores). */
export type SnapshotParams = [string, string, string, string, string, string, number, number, string, string | null];

export function snapshotParams(snapshot: PageSnapshot): SnapshotParams {
  return [
    snapshot.teamId,
    snapshot.tag ?? '',
    snapshot.urlKey,
    snapshot.jobId ?? '',
    snapshot.url,
    snapshot.site,
    snapshot.scrapedAt,
    snapshot.statusCode,
    snapshot.markdown,
    snapshot.fields ? JSON.stringify(snapshot.fields) : null,
  ];
}

export function snapshotOf(row: HistoryRow): PageSnapshot {
  return {
    teamId: row.team_id,
    tag: row.tag === '' ? null : row.tag,
    urlKey: row.url_key,
    url: row.url,
    site: row.site,
    scrapedAt: Number(row.scraped_at),
    statusCode: row.status_code,
    markdown: row.markdown,
    ...(row.fields !== null ? { fields: JSON.parse(row.fields) as Record<string, unknown> } : {}),
    ...(row.job_id !== '' ? { jobId: row.job_id } : {}),
  };
}

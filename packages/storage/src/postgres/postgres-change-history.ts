import type { ChangeHistory, PageSnapshot } from '@quarry/core';
import { snapshotOf, snapshotParams, type HistoryRow } from '../sqlite-change-history.js';
import type { PostgresDatabase } from './postgres-database.js';

/**
 * ChangeHistory on PostgreSQL (migration 5): one row per (team, tag, URL, job); a scrape outside any
 * job has job ''. The default history (tag null) is stored as tag ''.
 */
export class PostgresChangeHistory implements ChangeHistory {
  constructor(private readonly db: PostgresDatabase) {}

  async latest(teamId: string, tag: string | null, urlKey: string): Promise<PageSnapshot | undefined> {
    const [row] = await this.db.query<HistoryRow>(
      'SELECT * FROM change_history WHERE team_id = $1 AND tag = $2 AND url_key = $3 ORDER BY scraped_at DESC, seq DESC LIMIT 1',
      [teamId, tag ?? '', urlKey],
    );
    return row ? snapshotOf(row) : undefined;
  }

  async record(snapshot: PageSnapshot): Promise<void> {
    await this.db.execute(
      `INSERT INTO change_history (team_id, tag, url_key, job_id, url, site, scraped_at, status_code, markdown, fields)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (team_id, tag, url_key, job_id) DO UPDATE SET url = excluded.url, site = excluded.site,
         scraped_at = excluded.scraped_at, status_code = excluded.status_code, markdown = excluded.markdown, fields = excluded.fields`,
      snapshotParams(snapshot),
    );
  }

  async previousJobUrls(teamId: string, tag: string | null, site: string, exceptJobId: string): Promise<string[]> {
    const rows = await this.db.query<{ url: string }>(
      `SELECT url FROM change_history WHERE team_id = $1 AND tag = $2 AND site = $3 AND job_id = (
         SELECT job_id FROM change_history WHERE team_id = $1 AND tag = $2 AND site = $3 AND job_id <> '' AND job_id <> $4
         ORDER BY scraped_at DESC, seq DESC LIMIT 1)`,
      [teamId, tag ?? '', site, exceptJobId],
    );
    return rows.map((row) => row.url);
  }
}

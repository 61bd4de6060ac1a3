import { randomUUID } from 'node:crypto';
import {
  NotFoundError,
  systemClock,
  type ApiKeyInfo,
  type AuthenticatedKey,
  type ChargeContext,
  type ChargeResult,
  type Clock,
  type CreatedApiKey,
  type DailyUsage,
  type Ledger,
  type RequestChargeContext,
  type Team,
  type Usage,
  type UsageQuery,
  type UsageRecord,
} from '@quarry/core';
import { apiKeyPattern, hashApiKey, hashesEqual, newApiKey } from '../api-key.js';
import type { PostgresDatabase } from './postgres-database.js';
import { requireCount, toKeyInfo, toTeam, toUsage, unknownTeam, type KeyRow, type TeamRow, type UsageRow } from '../row-mappers.js';

const teamColumns = 'id, name, credits, tokens_used, tokens, created_at';

/**
 * Ledger on PostgreSQL: teams, hashed API keys, credits and usage. A charge is `quarry_charge`, the
 * same SQL function `PostgresJobStore.finishItem` calls inside its transaction, so a page and its
 * charge commit together and the balance is exact under any number of processes (the team row is
 * locked for the charge). The `local` team is created by the migrations.
 */
export class PostgresLedger implements Ledger {
  constructor(
    private readonly db: PostgresDatabase,
    private readonly clock: Clock = systemClock,
  ) {}

  async ensureTeam(id: string, name: string): Promise<Team> {
    const [row] = await this.db.query<TeamRow>(
      `WITH inserted AS (
         INSERT INTO teams (id, name, credits, created_at) VALUES ($1, $2, NULL, $3) ON CONFLICT (id) DO NOTHING RETURNING ${teamColumns}
       )
       SELECT ${teamColumns} FROM inserted UNION ALL SELECT ${teamColumns} FROM teams WHERE id = $1 LIMIT 1`,
      [id, name, this.clock.now()],
    );
    // A team inserted by a concurrent call after this statement's snapshot is read afresh.
    return row ? toTeam(row) : (await this.getTeam(id))!;
  }

  async getTeam(id: string): Promise<Team | undefined> {
    const [row] = await this.db.query<TeamRow>(`SELECT ${teamColumns} FROM teams WHERE id = $1`, [id]);
    return row ? toTeam(row) : undefined;
  }

  async listTeams(): Promise<Team[]> {
    return (await this.db.query<TeamRow>(`SELECT ${teamColumns} FROM teams ORDER BY created_at, seq`)).map(toTeam);
  }

  async createKey(teamId: string, name: string): Promise<CreatedApiKey> {
    const key = newApiKey();
    const info: ApiKeyInfo = { id: randomUUID(), teamId, name, prefix: key.slice(0, 7), last4: key.slice(-4), createdAt: this.clock.now() };
    const inserted = await this.db.execute(
      `INSERT INTO api_keys (id, team_id, name, key_hash, prefix, last4, created_at)
       SELECT $1, id, $3, $4, $5, $6, $7 FROM teams WHERE id = $2`,
      [info.id, teamId, name, hashApiKey(key), info.prefix, info.last4, info.createdAt],
    );
    if (inserted === 0) throw unknownTeam(teamId);
    return { ...info, key };
  }

  async authenticate(key: string): Promise<AuthenticatedKey | undefined> {
    if (typeof key !== 'string' || !apiKeyPattern.test(key)) return undefined;
    const hash = hashApiKey(key);
    const [row] = await this.db.query<{ id: string; team_id: string; key_hash: Buffer }>(
      'UPDATE api_keys SET last_used_at = $2 WHERE key_hash = $1 AND revoked_at IS NULL RETURNING id, team_id, key_hash',
      [hash, this.clock.now()],
    );
    if (!row || !hashesEqual(row.key_hash, hash)) return undefined;
    return { teamId: row.team_id, keyId: row.id };
  }

  async listKeys(teamId: string): Promise<ApiKeyInfo[]> {
    const rows = await this.db.query<KeyRow>(
      'SELECT id, team_id, name, prefix, last4, created_at, last_used_at, revoked_at FROM api_keys WHERE team_id = $1 ORDER BY created_at, seq',
      [teamId],
    );
    return rows.map(toKeyInfo);
  }

  async revokeKey(keyId: string): Promise<boolean> {
    return (await this.db.execute('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [this.clock.now(), keyId])) === 1;
  }

  async hasAnyKey(): Promise<boolean> {
    const [row] = await this.db.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM api_keys) AS found');
    return row?.found === true;
  }

  async getCredits(teamId: string): Promise<number | null> {
    const team = await this.getTeam(teamId);
    if (!team) throw unknownTeam(teamId);
    return team.credits;
  }

  async setCredits(teamId: string, credits: number | null): Promise<void> {
    if (credits !== null) requireCount('credits', credits);
    if ((await this.db.execute('UPDATE teams SET credits = $1 WHERE id = $2', [credits, teamId])) === 0) throw unknownTeam(teamId);
  }

  async setTokens(teamId: string, tokens: number | null): Promise<void> {
    if (tokens !== null) requireCount('tokens', tokens);
    if ((await this.db.execute('UPDATE teams SET tokens = $1 WHERE id = $2', [tokens, teamId])) === 0) throw unknownTeam(teamId);
  }

  async charge(teamId: string, credits: number, reason: string, context: ChargeContext = {}): Promise<number> {
    requireCount('credits', credits);
    const [row] = await this.db.query<{ taken: number | null }>('SELECT quarry_charge($1, $2, $3, $4, $5, $6) AS taken', [
      teamId,
      credits,
      reason,
      this.clock.now(),
      context.apiKeyId ?? null,
      context.jobId ?? null,
    ]);
    if (row?.taken === null || row?.taken === undefined) throw unknownTeam(teamId);
    return row.taken;
  }

  async chargeTokens(teamId: string, tokens: number, reason: string, context: ChargeContext = {}): Promise<void> {
    requireCount('tokens', tokens);
    const [row] = await this.db.query<{ known: number }>(
      `WITH team AS (
         UPDATE teams SET tokens_used = tokens_used + $2 WHERE id = $1 RETURNING id
       ), recorded AS (
         INSERT INTO usage (team_id, kind, amount, reason, at, api_key_id, job_id)
         SELECT id, 'tokens', $2, $3, $4, $5, $6 FROM team WHERE $2 > 0
       )
       SELECT count(*)::int AS known FROM team`,
      [teamId, tokens, reason, this.clock.now(), context.apiKeyId ?? null, context.jobId ?? null],
    );
    if (row?.known !== 1) throw unknownTeam(teamId);
  }

  async chargeUsage(teamId: string, usage: Usage, reason: string, context: RequestChargeContext = {}): Promise<ChargeResult> {
    requireCount('credits', usage.credits);
    requireCount('tokens', usage.tokens);
    const { requestId } = context;
    const at = this.clock.now();
    const key = context.apiKeyId ?? null;
    const job = context.jobId ?? null;
    return this.db.transaction(async (client) => {
      // The team row lock orders concurrent retries of one request: the later one sees the first's row.
      const [team] = await client.query<{ id: string }>('SELECT id FROM teams WHERE id = $1 FOR NO KEY UPDATE', [teamId]);
      if (!team) throw unknownTeam(teamId);
      if (requestId !== undefined) {
        const [first] = await client.query<{ credits: string; tokens: string }>(
          'SELECT credits, tokens FROM charged_requests WHERE team_id = $1 AND request_id = $2',
          [teamId, requestId],
        );
        if (first) return { credits: Number(first.credits), tokens: Number(first.tokens), repeated: true };
      }
      const [row] = await client.query<{ taken: string }>(
        'SELECT quarry_charge($1, $2, $3, $4, $5, $6) AS taken, quarry_charge_tokens($1, $7, $3, $4, $5, $6) AS known',
        [teamId, usage.credits, reason, at, key, job, usage.tokens],
      );
      const credits = Number(row!.taken);
      if (requestId !== undefined) {
        await client.query('INSERT INTO charged_requests (team_id, request_id, reason, credits, tokens, at) VALUES ($1, $2, $3, $4, $5, $6)', [
          teamId,
          requestId,
          reason,
          credits,
          usage.tokens,
          at,
        ]);
      }
      return { credits, tokens: usage.tokens, repeated: false };
    });
  }

  async listUsage(teamId: string, query: UsageQuery = {}): Promise<UsageRecord[]> {
    const rows = await this.db.query<UsageRow>(
      `SELECT team_id, kind, amount, reason, at, api_key_id, job_id FROM usage
       WHERE team_id = $1 AND ($2::text IS NULL OR kind = $2) AND ($3::bigint IS NULL OR at >= $3) AND ($4::bigint IS NULL OR at < $4)
       ORDER BY at, seq`,
      [teamId, query.kind ?? null, query.since ?? null, query.until ?? null],
    );
    return rows.map(toUsage);
  }

  async usageByDay(teamId: string, query: Omit<UsageQuery, 'kind'> = {}): Promise<DailyUsage[]> {
    return this.db.query<DailyUsage>(
      `SELECT to_char(to_timestamp(at / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, kind, reason, SUM(amount)::bigint AS amount FROM usage
       WHERE team_id = $1 AND ($2::bigint IS NULL OR at >= $2) AND ($3::bigint IS NULL OR at < $3)
       GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      [teamId, query.since ?? null, query.until ?? null],
    );
  }

  async claimSetting(name: string, value: string): Promise<string> {
    // Two statements: the second sees the row of a concurrent winner the first waited for.
    await this.db.execute('INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, value]);
    const [row] = await this.db.query<{ value: string }>('SELECT value FROM settings WHERE name = $1', [name]);
    return row!.value;
  }

  async getSetting(name: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ value: string }>('SELECT value FROM settings WHERE name = $1', [name]);
    return row?.value;
  }

  async getWebhookSecret(teamId: string): Promise<string | undefined> {
    const rows = await this.db.query<{ webhook_secret: string | null }>('SELECT webhook_secret FROM teams WHERE id = $1', [teamId]);
    return rows[0]?.webhook_secret ?? undefined;
  }

  async setWebhookSecret(teamId: string, secret: string | null): Promise<void> {
    const rows = await this.db.query<{ id: string }>('UPDATE teams SET webhook_secret = $1 WHERE id = $2 RETURNING id', [secret, teamId]);
    if (rows.length === 0) throw new NotFoundError(`Unknown team ${teamId}`);
  }
}

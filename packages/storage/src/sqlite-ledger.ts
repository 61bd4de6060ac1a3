import { randomUUID } from 'node:crypto';
import {
  localTeamId,
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
  type UsageKind,
  type UsageQuery,
  type UsageRecord,
} from '@quarry/core';
import { apiKeyPattern, hashApiKey, hashesEqual, newApiKey } from './api-key.js';
import type { SqliteDatabase } from './open-sqlite.js';
import { TeamCredits } from './team-credits.js';
import { requireCount, toKeyInfo, toTeam, toUsage, unknownTeam, type KeyRow, type TeamRow, type UsageRow } from './row-mappers.js';

/**
 * Ledger on SQLite: teams, hashed API keys, credits and usage in the tables of migration 3. Shares its
 * connection (and so its transactions) with `SqliteJobStore`, which charges pages through the same
 * `TeamCredits` statements. The `local` team is created on construction.
 */
export class SqliteLedger implements Ledger {
  private readonly credits: TeamCredits;
  private readonly statements;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly clock: Clock = systemClock,
  ) {
    this.credits = new TeamCredits(db);
    this.statements = {
      insertTeam: db.prepare<[string, string, number]>('INSERT OR IGNORE INTO teams (id, name, credits, created_at) VALUES (?, ?, NULL, ?)'),
      team: db.prepare<[string], TeamRow>('SELECT * FROM teams WHERE id = ?'),
      teams: db.prepare<[], TeamRow>('SELECT * FROM teams ORDER BY created_at, rowid'),
      setCredits: db.prepare<[number | null, string]>('UPDATE teams SET credits = ? WHERE id = ?'),
      setTokens: db.prepare<[number | null, string]>('UPDATE teams SET tokens = ? WHERE id = ?'),
      insertKey: db.prepare<[string, string, string, Buffer, string, string, number]>(
        'INSERT INTO api_keys (id, team_id, name, key_hash, prefix, last4, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      keyByHash: db.prepare<[Buffer], { id: string; team_id: string; key_hash: Buffer; revoked_at: number | null }>(
        'SELECT id, team_id, key_hash, revoked_at FROM api_keys WHERE key_hash = ?',
      ),
      touchKey: db.prepare<[number, string]>('UPDATE api_keys SET last_used_at = ? WHERE id = ?'),
      keysOfTeam: db.prepare<[string], KeyRow>(
        'SELECT id, team_id, name, prefix, last4, created_at, last_used_at, revoked_at FROM api_keys WHERE team_id = ? ORDER BY created_at, rowid',
      ),
      revokeKey: db.prepare<[number, string]>('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
      anyKey: db.prepare<[], { found: number }>('SELECT EXISTS (SELECT 1 FROM api_keys) AS found'),
      usage: db.prepare<{ team: string; kind: UsageKind | null; since: number | null; until: number | null }, UsageRow>(
        `SELECT team_id, kind, amount, reason, at, api_key_id, job_id FROM usage
         WHERE team_id = @team AND (@kind IS NULL OR kind = @kind) AND (@since IS NULL OR at >= @since) AND (@until IS NULL OR at < @until)
         ORDER BY at, seq`,
      ),
      usageByDay: db.prepare<{ team: string; since: number | null; until: number | null }, DailyUsage>(
        `SELECT strftime('%Y-%m-%d', at / 1000, 'unixepoch') AS day, kind, reason, SUM(amount) AS amount FROM usage
         WHERE team_id = @team AND (@since IS NULL OR at >= @since) AND (@until IS NULL OR at < @until)
         GROUP BY day, kind, reason ORDER BY day, kind, reason`,
      ),
      insertSetting: db.prepare<[string, string]>('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING'),
      setting: db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE name = ?'),
    };
    this.statements.insertTeam.run(localTeamId, 'Local', clock.now());
  }

  async ensureTeam(id: string, name: string): Promise<Team> {
    this.statements.insertTeam.run(id, name, this.clock.now());
    return toTeam(this.statements.team.get(id)!);
  }

  async getTeam(id: string): Promise<Team | undefined> {
    const row = this.statements.team.get(id);
    return row ? toTeam(row) : undefined;
  }

  async listTeams(): Promise<Team[]> {
    return this.statements.teams.all().map(toTeam);
  }

  async createKey(teamId: string, name: string): Promise<CreatedApiKey> {
    this.requireTeam(teamId);
    const key = newApiKey();
    const info: ApiKeyInfo = { id: randomUUID(), teamId, name, prefix: key.slice(0, 7), last4: key.slice(-4), createdAt: this.clock.now() };
    this.statements.insertKey.run(info.id, teamId, name, hashApiKey(key), info.prefix, info.last4, info.createdAt);
    return { ...info, key };
  }

  async authenticate(key: string): Promise<AuthenticatedKey | undefined> {
    if (typeof key !== 'string' || !apiKeyPattern.test(key)) return undefined;
    const hash = hashApiKey(key);
    const row = this.statements.keyByHash.get(hash);
    if (!row || !hashesEqual(row.key_hash, hash) || row.revoked_at !== null) return undefined;
    this.statements.touchKey.run(this.clock.now(), row.id);
    return { teamId: row.team_id, keyId: row.id };
  }

  async listKeys(teamId: string): Promise<ApiKeyInfo[]> {
    return this.statements.keysOfTeam.all(teamId).map(toKeyInfo);
  }

  async revokeKey(keyId: string): Promise<boolean> {
    return this.statements.revokeKey.run(this.clock.now(), keyId).changes === 1;
  }

  async hasAnyKey(): Promise<boolean> {
    return this.statements.anyKey.get()!.found === 1;
  }

  async getCredits(teamId: string): Promise<number | null> {
    return this.requireTeam(teamId).credits;
  }

  async setCredits(teamId: string, credits: number | null): Promise<void> {
    if (credits !== null) requireCount('credits', credits);
    if (this.statements.setCredits.run(credits, teamId).changes === 0) throw unknownTeam(teamId);
  }

  async setTokens(teamId: string, tokens: number | null): Promise<void> {
    if (tokens !== null) requireCount('tokens', tokens);
    if (this.statements.setTokens.run(tokens, teamId).changes === 0) throw unknownTeam(teamId);
  }

  async charge(teamId: string, credits: number, reason: string, context?: ChargeContext): Promise<number> {
    requireCount('credits', credits);
    const taken = this.db.transaction(() => this.credits.charge(teamId, credits, reason, this.clock.now(), context)).immediate();
    if (taken === undefined) throw unknownTeam(teamId);
    return taken;
  }

  async chargeTokens(teamId: string, tokens: number, reason: string, context?: ChargeContext): Promise<void> {
    requireCount('tokens', tokens);
    const known = this.db.transaction(() => this.credits.chargeTokens(teamId, tokens, reason, this.clock.now(), context)).immediate();
    if (!known) throw unknownTeam(teamId);
  }

  async chargeUsage(teamId: string, usage: Usage, reason: string, context?: RequestChargeContext): Promise<ChargeResult> {
    requireCount('credits', usage.credits);
    requireCount('tokens', usage.tokens);
    const result = this.db.transaction(() => this.credits.chargeUsage(teamId, usage, reason, this.clock.now(), context)).immediate();
    if (result === undefined) throw unknownTeam(teamId);
    return result;
  }

  async listUsage(teamId: string, query: UsageQuery = {}): Promise<UsageRecord[]> {
    const rows = this.statements.usage.all({ team: teamId, kind: query.kind ?? null, since: query.since ?? null, until: query.until ?? null });
    return rows.map(toUsage);
  }

  async usageByDay(teamId: string, query: Omit<UsageQuery, 'kind'> = {}): Promise<DailyUsage[]> {
    return this.statements.usageByDay.all({ team: teamId, since: query.since ?? null, until: query.until ?? null });
  }

  async claimSetting(name: string, value: string): Promise<string> {
    this.statements.insertSetting.run(name, value);
    return this.statements.setting.get(name)!.value;
  }

  async getSetting(name: string): Promise<string | undefined> {
    return this.statements.setting.get(name)?.value;
  }

  async getWebhookSecret(teamId: string): Promise<string | undefined> {
    const row = this.db.prepare<[string], { webhook_secret: string | null }>('SELECT webhook_secret FROM teams WHERE id = ?').get(teamId);
    return row?.webhook_secret ?? undefined;
  }

  async setWebhookSecret(teamId: string, secret: string | null): Promise<void> {
    this.requireTeam(teamId);
    this.db.prepare<[string | null, string]>('UPDATE teams SET webhook_secret = ? WHERE id = ?').run(secret, teamId);
  }

  private requireTeam(teamId: string): TeamRow {
    const row = this.statements.team.get(teamId);
    if (!row) throw unknownTeam(teamId);
    return row;
  }
}

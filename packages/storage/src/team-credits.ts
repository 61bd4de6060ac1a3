import type { ChargeContext, UsageKind } from '@quarry/core';
import type { SqliteDatabase } from './open-sqlite.js';

/**
 * The statements that charge a team, shared by `SqliteLedger` and `SqliteJobStore.finishItem` (which
 * charges a page in the same transaction that stores it). Not transactional by itself: callers run it
 * inside a write transaction.
 */
export class TeamCredits {
  private readonly selectCredits;
  private readonly takeCredits;
  private readonly addTokens;
  private readonly insertUsage;

  constructor(db: SqliteDatabase) {
    this.selectCredits = db.prepare<[string], { credits: number | null }>('SELECT credits FROM teams WHERE id = ?');
    this.takeCredits = db.prepare<[number, string]>('UPDATE teams SET credits = credits - ? WHERE id = ? AND credits IS NOT NULL');
    this.addTokens = db.prepare<[number, string]>('UPDATE teams SET tokens_used = tokens_used + ? WHERE id = ?');
    this.insertUsage = db.prepare<[string, UsageKind, number, string, number, string | null, string | null]>(
      'INSERT INTO usage (team_id, kind, amount, reason, at, api_key_id, job_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
  }

  /** Takes up to `credits` from the team; returns what was taken, or undefined for an unknown team. */
  charge(teamId: string, credits: number, reason: string, at: number, context: ChargeContext = {}): number | undefined {
    const team = this.selectCredits.get(teamId);
    if (!team) return undefined;
    const taken = team.credits === null ? credits : Math.min(credits, team.credits);
    if (taken <= 0) return 0;
    if (team.credits !== null) this.takeCredits.run(taken, teamId);
    this.record(teamId, 'credits', taken, reason, at, context);
    return taken;
  }

  /** Adds tokens used; returns false for an unknown team. */
  chargeTokens(teamId: string, tokens: number, reason: string, at: number, context: ChargeContext = {}): boolean {
    if (this.addTokens.run(tokens, teamId).changes === 0) return false;
    if (tokens > 0) this.record(teamId, 'tokens', tokens, reason, at, context);
    return true;
  }

  private record(teamId: string, kind: UsageKind, amount: number, reason: string, at: number, context: ChargeContext) {
    this.insertUsage.run(teamId, kind, amount, reason, at, context.apiKeyId ?? null, context.jobId ?? null);
  }
}

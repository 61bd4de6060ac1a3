import type { ChargeContext, ChargeResult, RequestChargeContext, Usage, UsageKind } from '@quarry/core';
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
  private readonly chargedRequest;
  private readonly insertChargedRequest;

  constructor(db: SqliteDatabase) {
    this.selectCredits = db.prepare<[string], { credits: number | null }>('SELECT credits FROM teams WHERE id = ?');
    this.takeCredits = db.prepare<[number, string]>('UPDATE teams SET credits = credits - ? WHERE id = ? AND credits IS NOT NULL');
    this.addTokens = db.prepare<[number, string]>('UPDATE teams SET tokens_used = tokens_used + ? WHERE id = ?');
    this.insertUsage = db.prepare<[string, UsageKind, number, string, number, string | null, string | null]>(
      'INSERT INTO usage (team_id, kind, amount, reason, at, api_key_id, job_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.chargedRequest = db.prepare<[string, string], { credits: number; tokens: number }>(
      'SELECT credits, tokens FROM charged_requests WHERE team_id = ? AND request_id = ?',
    );
    this.insertChargedRequest = db.prepare<[string, string, string, number, number, number]>(
      'INSERT INTO charged_requests (team_id, request_id, reason, credits, tokens, at) VALUES (?, ?, ?, ?, ?, ?)',
    );
  }

  /**
   * Charges a request's credits and tokens, once per `context.requestId`: a request id charged
   * before answers its first charge, taking nothing. Undefined for an unknown team.
   */
  chargeUsage(teamId: string, usage: Usage, reason: string, at: number, context: RequestChargeContext = {}): ChargeResult | undefined {
    const { requestId, ...charge } = context;
    if (requestId !== undefined) {
      const first = this.chargedRequest.get(teamId, requestId);
      if (first) return { credits: first.credits, tokens: first.tokens, repeated: true };
    }
    const credits = this.charge(teamId, usage.credits, reason, at, charge);
    if (credits === undefined) return undefined;
    this.chargeTokens(teamId, usage.tokens, reason, at, charge);
    if (requestId !== undefined) this.insertChargedRequest.run(teamId, requestId, reason, credits, usage.tokens, at);
    return { credits, tokens: usage.tokens, repeated: false };
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

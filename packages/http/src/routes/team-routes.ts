import type { FastifyInstance } from 'fastify';
import { NotFoundError, type Ledger, type UsageRecord } from '@quarry/core';
import type { ApiVersion } from '../server/request-context.js';
import type { Services } from '../server/services.js';

/**
 * Team usage (v1 snake_case, v2 camelCase), concurrency and queue status. Unlimited teams (the
 * keyless local team, or `--credits unlimited`) report 999,999,999: the SDKs turn null into 0,
 * which would read as "no credits left".
 */
export const unlimitedCreditsReported = 999_999_999;

export function teamRoutes(app: FastifyInstance, services: Services, version: ApiVersion) {
  const usage = (kind: 'credits' | 'tokens') => async (request: { caller: { teamId: string } }) => {
    const { remaining, plan } = kind === 'credits' ? await creditBalance(services, request.caller.teamId) : await tokenBalance(services, request.caller.teamId);
    const period = { start: null, end: null };
    if (version === 'v1') {
      return kind === 'credits'
        ? { success: true, data: { remaining_credits: remaining, plan_credits: plan, billing_period_start: period.start, billing_period_end: period.end } }
        : { success: true, data: { remaining_tokens: remaining, plan_tokens: plan, billing_period_start: period.start, billing_period_end: period.end } };
    }
    return kind === 'credits'
      ? { success: true, data: { remainingCredits: remaining, planCredits: plan, billingPeriodStart: period.start, billingPeriodEnd: period.end } }
      : { success: true, data: { remainingTokens: remaining, planTokens: plan, billingPeriodStart: period.start, billingPeriodEnd: period.end } };
  };
  app.get(`/${version}/team/credit-usage`, { config: { kind: 'crawlStatus' } }, usage('credits'));
  app.get(`/${version}/team/token-usage`, { config: { kind: 'extractStatus' } }, usage('tokens'));

  // Usage by billing period (calendar months, UTC), per API key when `byApiKey=true`.
  const historical = (kind: 'credits' | 'tokens') => async (request: { caller: { teamId: string }; query: unknown }) => {
    const byApiKey = String((request.query as Record<string, unknown> | undefined)?.byApiKey ?? '') === 'true';
    const records = await services.ledger.listUsage(request.caller.teamId, { kind });
    return { success: true, periods: usagePeriods(records, kind, byApiKey, Date.now()) };
  };
  app.get(`/${version}/team/credit-usage/historical`, { config: { kind: 'crawlStatus' } }, historical('credits'));
  app.get(`/${version}/team/token-usage/historical`, { config: { kind: 'extractStatus' } }, historical('tokens'));

  // The calling team's own work only: pages of its running crawls and batches that are queued or
  // in flight, up to its concurrency limit (never the queue as a whole, which holds other teams' work).
  app.get(`/${version}/concurrency-check`, { config: { kind: 'crawlStatus' } }, async (request) => {
    const teamId = request.caller.teamId;
    const limit = services.config.QUARRY_TEAM_CONCURRENCY || services.config.QUARRY_WORKER_CONCURRENCY;
    const jobs = [...(await services.jobStore.listActive('crawl', teamId)), ...(await services.jobStore.listActive('batch_scrape', teamId))];
    let pending = 0;
    for (const job of jobs) pending += (await services.jobStore.progress(job.id)).pending;
    return { success: true, concurrency: Math.min(pending, limit), maxConcurrency: limit };
  });

  app.get(`/${version}/team/queue-status`, { config: { kind: 'crawlStatus' } }, async (request) => {
    const depth = await services.queue.depth();
    return {
      success: true,
      jobsInQueue: depth.waiting + depth.active,
      activeJobsInQueue: depth.active,
      waitingJobsInQueue: depth.waiting,
      maxConcurrency: services.config.QUARRY_WORKER_CONCURRENCY,
      mostRecentSuccess: await mostRecentSuccess(services.ledger, request.caller.teamId),
    };
  });
}

async function creditBalance(services: Services, teamId: string) {
  const remaining = (await services.ledger.getCredits(teamId)) ?? unlimitedCreditsReported;
  return { remaining, plan: remaining };
}

/** The team's token plan less the tokens its extracts and json formats used (an unlimited plan reports 999,999,999). */
async function tokenBalance(services: Services, teamId: string) {
  const team = await services.ledger.getTeam(teamId);
  if (!team) throw new NotFoundError('Team not found');
  const plan = team.tokens ?? unlimitedCreditsReported;
  return { remaining: Math.max(0, plan - team.tokensUsed), plan };
}

/**
 * When the team's last successful work finished (ISO), or null: the latest credit charge, since
 * every scraped page, search or extract is charged once it succeeded. The day totals find the
 * last day with charges, so only that day's records are read.
 */
async function mostRecentSuccess(ledger: Ledger, teamId: string): Promise<string | null> {
  const lastDay = (await ledger.usageByDay(teamId)).filter((day) => day.kind === 'credits').at(-1);
  if (!lastDay) return null;
  const records = await ledger.listUsage(teamId, { kind: 'credits', since: Date.parse(`${lastDay.day}T00:00:00Z`) });
  const latest = Math.max(...records.map((record) => record.at));
  return Number.isFinite(latest) ? new Date(latest).toISOString() : null;
}

export interface UsagePeriod {
  startDate: string;
  endDate: string;
  apiKey?: string | null;
  creditsUsed?: number;
  tokensUsed?: number;
}

/**
 * Usage records added up per calendar month (UTC), oldest first, and per API key id when asked
 * (usage without a key, e.g. keyless or dashboard work, under `apiKey: null`). With no usage at all,
 * the current month with 0, so clients always see the period they are in.
 */
export function usagePeriods(records: UsageRecord[], kind: 'credits' | 'tokens', byApiKey: boolean, now: number): UsagePeriod[] {
  const field = kind === 'credits' ? 'creditsUsed' : 'tokensUsed';
  const monthOf = (at: number) => {
    const date = new Date(at);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  };
  const totals = new Map<string, { start: number; apiKey: string | null; amount: number }>();
  for (const record of records) {
    const start = monthOf(record.at);
    const apiKey = byApiKey ? (record.apiKeyId ?? null) : null;
    const key = `${start} ${apiKey ?? ''}`;
    const total = totals.get(key) ?? { start, apiKey, amount: 0 };
    total.amount += record.amount;
    totals.set(key, total);
  }
  if (totals.size === 0) totals.set('now', { start: monthOf(now), apiKey: null, amount: 0 });
  return [...totals.values()]
    .sort((a, b) => a.start - b.start || String(a.apiKey).localeCompare(String(b.apiKey)))
    .map(({ start, apiKey, amount }) => {
      const begin = new Date(start);
      const end = new Date(Date.UTC(begin.getUTCFullYear(), begin.getUTCMonth() + 1, 1) - 1);
      return { startDate: begin.toISOString(), endDate: end.toISOString(), ...(byApiKey ? { apiKey } : {}), [field]: amount };
    });
}

import type { FastifyInstance } from 'fastify';
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
    // Tokens are the extract currency, paid from the same balance as credits (as in Firecrawl).
    const remaining = (await services.ledger.getCredits(request.caller.teamId)) ?? unlimitedCreditsReported;
    const plan = remaining;
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

  app.get(`/${version}/concurrency-check`, { config: { kind: 'crawlStatus' } }, async () => {
    const depth = await services.queue.depth();
    const limit = services.config.QUARRY_TEAM_CONCURRENCY || services.config.QUARRY_WORKER_CONCURRENCY;
    return { success: true, concurrency: depth.active, maxConcurrency: limit };
  });

  app.get(`/${version}/team/queue-status`, { config: { kind: 'crawlStatus' } }, async () => {
    const depth = await services.queue.depth();
    return {
      success: true,
      jobsInQueue: depth.waiting + depth.active,
      activeJobsInQueue: depth.active,
      waitingJobsInQueue: depth.waiting,
      maxConcurrency: services.config.QUARRY_WORKER_CONCURRENCY,
      mostRecentSuccess: null,
    };
  });
}

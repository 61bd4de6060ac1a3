import { PaymentRequiredError } from '../errors.js';
import type { ChargeResult, Ledger, RequestChargeContext, Usage } from '../ports/ledger.js';

/** Who pays: the caller's team, the key it used, and the request's idempotency key when it sent one. */
export interface Payer {
  teamId: string;
  keyId?: string | undefined;
  /** The client's idempotency key: a request retried with it is charged once. */
  requestId?: string | undefined;
}

/**
 * The one home for billing, over the Ledger port: the only caller of `Ledger.charge*`
 * (scripts/check-boundaries.mjs keeps routes and actions off them). Prices are in prices.ts.
 *
 * The guarantee: work is charged exactly once, in the same transaction as the result it pays for,
 * or not at all, tokens included.
 * - A synchronous request (scrape, map, search, parse, interact) runs through `chargeRequest`: its
 *   credits and tokens are charged together in one ledger transaction after the work succeeded
 *   (work that throws is charged nothing), keyed by the request's idempotency key so a retried
 *   request is charged once.
 * - A crawl or batch page is charged by `JobStore.finishItem`, in the transaction that stores the
 *   page (its credits and its tokens); a page delivered again is neither stored nor charged again.
 * - An agent job (extract, deep research, llms.txt, agent) is charged by `JobStore.saveJobState`
 *   with its final state, credits and tokens in one transaction.
 * Before work starts, `requireCredits` refuses a team that cannot pay (402) and `capLimit` cuts a
 * crawl's page limit to the credits left.
 */
export class Billing {
  constructor(private readonly ledger: Ledger) {}

  /** Whether the team can pay `credits` now (unlimited teams always can). */
  async canAfford(teamId: string, credits: number): Promise<boolean> {
    const remaining = await this.ledger.getCredits(teamId);
    return remaining === null || remaining >= credits;
  }

  /** A PaymentRequiredError (402) when the team cannot pay `needed` credits; else the credits left (null: unlimited). */
  async requireCredits(teamId: string, needed: number): Promise<number | null> {
    const remaining = await this.ledger.getCredits(teamId);
    if (remaining !== null && remaining < needed) {
      throw new PaymentRequiredError(`Insufficient credits to perform this request: ${needed} needed, ${remaining} left.`);
    }
    return remaining;
  }

  /**
   * A job's page limit cut to the credits the team has left (each page costs at least 1), after
   * the 402 check for its first page.
   */
  async capLimit(teamId: string, limit: number): Promise<number> {
    const remaining = await this.requireCredits(teamId, 1);
    return remaining === null ? limit : Math.min(limit, remaining);
  }

  /**
   * Runs `work`, then charges what `price` says its result used, credits and tokens in one ledger
   * transaction, once per `payer.requestId`. Work that throws is charged nothing.
   */
  async chargeRequest<T>(payer: Payer, reason: string, work: () => Promise<T>, price: (result: T) => Usage): Promise<T> {
    const result = await work();
    await this.charge(payer, reason, price(result));
    return result;
  }

  /**
   * Charges usage that has no result of its own to wait for (the model tokens spent generating a
   * crawl's options): credits and tokens in one transaction, once per `payer.requestId`.
   */
  async charge(payer: Payer, reason: string, usage: Usage): Promise<ChargeResult> {
    if (usage.credits === 0 && usage.tokens === 0 && payer.requestId === undefined) return { credits: 0, tokens: 0, repeated: false };
    return this.ledger.chargeUsage(payer.teamId, usage, reason, contextOf(payer));
  }
}

function contextOf(payer: Payer): RequestChargeContext {
  return {
    ...(payer.keyId !== undefined ? { apiKeyId: payer.keyId } : {}),
    ...(payer.requestId !== undefined ? { requestId: payer.requestId } : {}),
  };
}

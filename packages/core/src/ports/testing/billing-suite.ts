/**
 * Conformance suite for billing over a Ledger and the JobStore that shares its tables. Every pair
 * of stores runs it once:
 *
 * ```ts
 * describeBilling('SQLite', (clock) => {
 *   const storage = createSqliteStorage({ dataDir: tempDir(), clock });
 *   return { ledger: storage.ledger, jobs: storage.jobs };
 * });
 * ```
 *
 * The guarantee it checks (billing/billing.ts): work is charged exactly once, in the same
 * transaction as the result it pays for, or not at all, tokens included.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { Billing } from '../../billing/billing.js';
import { PaymentRequiredError } from '../../errors.js';
import type { JobStore, PageOutcome } from '../job-store.js';
import type { Ledger } from '../ledger.js';
import { frontierEntry, jobRecord, pageDocument } from './job-store-suite.js';
import { ManualClock } from './manual-clock.js';

export interface BillingFixture {
  ledger: Ledger;
  /** The job store whose `finishItem` charges the same ledger. */
  jobs: JobStore;
}

const team = 'team-a';

export function describeBilling(name: string, make: (clock: ManualClock) => BillingFixture | Promise<BillingFixture>): void {
  describe(`Billing conformance: ${name}`, () => {
    let clock: ManualClock;
    let ledger: Ledger;
    let jobs: JobStore;
    let billing: Billing;

    beforeEach(async () => {
      clock = new ManualClock(1_700_000_000_000);
      ({ ledger, jobs } = await make(clock));
      billing = new Billing(ledger);
      await ledger.ensureTeam(team, 'Team A');
      await ledger.setCredits(team, 100);
    });

    const totals = async (teamId = team) => {
      const usage = await ledger.listUsage(teamId);
      const sum = (kind: string) => usage.filter((row) => row.kind === kind).reduce((total, row) => total + row.amount, 0);
      return { credits: sum('credits'), tokens: sum('tokens'), rows: usage.length, balance: await ledger.getCredits(teamId) };
    };

    describe('a request', () => {
      it('charges its credits and tokens together after the work succeeded, with its key and reason', async () => {
        const answer = await billing.chargeRequest(
          { teamId: team, keyId: 'key-1' },
          'scrape',
          async () => 'the page',
          () => ({ credits: 5, tokens: 1_200 }),
        );
        expect(answer).toBe('the page');
        expect(await totals()).toEqual({ credits: 5, tokens: 1_200, rows: 2, balance: 95 });
        const usage = await ledger.listUsage(team);
        expect(usage.map(({ kind, amount, reason, apiKeyId }) => ({ kind, amount, reason, apiKeyId }))).toEqual([
          { kind: 'credits', amount: 5, reason: 'scrape', apiKeyId: 'key-1' },
          { kind: 'tokens', amount: 1_200, reason: 'scrape', apiKeyId: 'key-1' },
        ]);
        expect((await ledger.getTeam(team))?.tokensUsed).toBe(1_200);
      });

      it('is charged nothing when its work fails', async () => {
        const failing = billing.chargeRequest(
          { teamId: team, requestId: 'r-1' },
          'scrape',
          async () => {
            throw new Error('the site is down');
          },
          () => ({ credits: 1, tokens: 10 }),
        );
        await expect(failing).rejects.toThrow('the site is down');
        expect(await totals()).toEqual({ credits: 0, tokens: 0, rows: 0, balance: 100 });
        // The id was not spent: the retry that succeeds is charged.
        await billing.chargeRequest(
          { teamId: team, requestId: 'r-1' },
          'scrape',
          async () => 'ok',
          () => ({ credits: 1, tokens: 10 }),
        );
        expect(await totals()).toEqual({ credits: 1, tokens: 10, rows: 2, balance: 99 });
      });

      it('retried with the same idempotency key is charged once, and answers the first charge', async () => {
        const payer = { teamId: team, keyId: 'key-1', requestId: 'retry-me' };
        const first = await ledger.chargeUsage(team, { credits: 3, tokens: 40 }, 'scrape', { requestId: 'retry-me', apiKeyId: 'key-1' });
        expect(first).toEqual({ credits: 3, tokens: 40, repeated: false });
        let runs = 0;
        await billing.chargeRequest(
          payer,
          'scrape',
          async () => runs++,
          () => ({ credits: 3, tokens: 40 }),
        );
        expect(runs).toBe(1);
        expect(await ledger.chargeUsage(team, { credits: 3, tokens: 40 }, 'scrape', { requestId: 'retry-me' })).toEqual({
          credits: 3,
          tokens: 40,
          repeated: true,
        });
        expect(await totals()).toEqual({ credits: 3, tokens: 40, rows: 2, balance: 97 });
        // Another key, and the same key from another team, are other requests.
        await billing.chargeRequest(
          { ...payer, requestId: 'another' },
          'scrape',
          async () => 0,
          () => ({ credits: 3, tokens: 0 }),
        );
        await ledger.ensureTeam('team-b', 'Team B');
        await billing.chargeRequest(
          { teamId: 'team-b', requestId: 'retry-me' },
          'scrape',
          async () => 0,
          () => ({ credits: 2, tokens: 0 }),
        );
        expect((await totals()).credits).toBe(6);
        expect((await totals('team-b')).credits).toBe(2);
      });

      it('sent many times at once with one key is charged once', async () => {
        const answers = await Promise.all(Array.from({ length: 8 }, () => ledger.chargeUsage(team, { credits: 2, tokens: 5 }, 'map', { requestId: 'burst' })));
        expect(answers.filter((answer) => !answer.repeated)).toHaveLength(1);
        expect(answers.every((answer) => answer.credits === 2 && answer.tokens === 5)).toBe(true);
        expect(await totals()).toEqual({ credits: 2, tokens: 5, rows: 2, balance: 98 });
      });

      it('takes credits as far as the balance goes, and a retry after a top-up takes no more', async () => {
        await ledger.setCredits(team, 2);
        expect(await billing.charge({ teamId: team, requestId: 'big' }, 'search', { credits: 5, tokens: 0 })).toEqual({
          credits: 2,
          tokens: 0,
          repeated: false,
        });
        await ledger.setCredits(team, 50);
        expect(await billing.charge({ teamId: team, requestId: 'big' }, 'search', { credits: 5, tokens: 0 })).toEqual({
          credits: 2,
          tokens: 0,
          repeated: true,
        });
        expect(await ledger.getCredits(team)).toBe(50);
      });

      it('for a team the ledger does not know records nothing', async () => {
        await expect(ledger.chargeUsage('nobody', { credits: 1, tokens: 1 }, 'scrape', { requestId: 'x' })).rejects.toMatchObject({ code: 'not_found' });
        await ledger.ensureTeam('nobody', 'Late');
        // The failed charge spent no key.
        expect(await ledger.chargeUsage('nobody', { credits: 1, tokens: 1 }, 'scrape', { requestId: 'x' })).toMatchObject({ repeated: false });
      });
    });

    describe('before the work', () => {
      it('refuses (402) a team that cannot pay, and caps a job limit at the credits left', async () => {
        await ledger.setCredits(team, 3);
        expect(await billing.canAfford(team, 3)).toBe(true);
        expect(await billing.canAfford(team, 4)).toBe(false);
        await expect(billing.requireCredits(team, 4)).rejects.toBeInstanceOf(PaymentRequiredError);
        expect(await billing.capLimit(team, 10)).toBe(3);
        expect(await billing.capLimit(team, 2)).toBe(2);
        await ledger.setCredits(team, null);
        expect(await billing.capLimit(team, 10_000)).toBe(10_000);
        await ledger.setCredits(team, 0);
        await expect(billing.capLimit(team, 10)).rejects.toBeInstanceOf(PaymentRequiredError);
      });
    });

    describe('a job page', () => {
      it('is charged its credits and tokens in the transaction that stores it, once however often it is delivered', async () => {
        await jobs.createJob(jobRecord('job-1', { teamId: team }));
        await jobs.addItems('job-1', [frontierEntry('a'), frontierEntry('b')], 10);
        const outcome = { key: frontierEntry('a').key, document: pageDocument('a', 5), credits: 5, tokens: 700, finishedAt: clock.now() };
        expect(await jobs.finishItem('job-1', team, outcome)).toBe(true);
        // A redelivered message (its worker died after the commit) finishes nothing and charges nothing.
        expect(await jobs.finishItem('job-1', team, outcome)).toBe(false);
        expect(await jobs.finishItem('job-1', team, { ...outcome, tokens: 0 })).toBe(false);
        expect(await totals()).toEqual({ credits: 5, tokens: 700, rows: 2, balance: 95 });
        const usage = await ledger.listUsage(team);
        expect(usage.map(({ kind, reason, jobId }) => ({ kind, reason, jobId }))).toEqual([
          { kind: 'credits', reason: 'page', jobId: 'job-1' },
          { kind: 'tokens', reason: 'page', jobId: 'job-1' },
        ]);
        expect((await ledger.getTeam(team))?.tokensUsed).toBe(700);
        expect((await jobs.listDocuments('job-1', 0, 10)).length).toBe(1);
      });

      it('finished by concurrent deliveries is stored and charged once', async () => {
        await jobs.createJob(jobRecord('job-1', { teamId: team }));
        await jobs.addItems('job-1', [frontierEntry('a')], 10);
        const outcome = { key: frontierEntry('a').key, document: pageDocument('a', 1), credits: 1, tokens: 50, finishedAt: clock.now() };
        const finished = await Promise.all(Array.from({ length: 6 }, () => jobs.finishItem('job-1', team, outcome)));
        expect(finished.filter(Boolean)).toHaveLength(1);
        expect(await totals()).toEqual({ credits: 1, tokens: 50, rows: 2, balance: 99 });
      });

      it('that failed is charged nothing', async () => {
        await jobs.createJob(jobRecord('job-1', { teamId: team }));
        await jobs.addItems('job-1', [frontierEntry('a')], 10);
        const failed: PageOutcome = {
          key: frontierEntry('a').key,
          error: { code: 'timeout', message: 'too slow', url: 'https://example.com/a' },
          credits: 0,
          tokens: 0,
          finishedAt: clock.now(),
        };
        expect(await jobs.finishItem('job-1', team, failed)).toBe(true);
        expect(await totals()).toEqual({ credits: 0, tokens: 0, rows: 0, balance: 100 });
      });
    });
  });
}

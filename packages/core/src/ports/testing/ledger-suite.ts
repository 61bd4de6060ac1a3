/**
 * Conformance suite for the Ledger port. Every ledger runs it once:
 *
 * ```ts
 * describeLedger('SqliteLedger', (clock) => new SqliteLedger(openSqlite(file), clock));
 * ```
 *
 * `make` is called before each test with a fresh ManualClock and must return an empty ledger (only
 * the `local` team) that stamps times from that clock. That keys are hashed at rest cannot be seen
 * through the port: each durable ledger checks its own files for the plain key.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { localTeamId, type Ledger } from '../ledger.js';
import { ManualClock } from './manual-clock.js';

const notFound = { code: 'not_found' };

export function describeLedger(name: string, make: (clock: ManualClock) => Ledger | Promise<Ledger>): void {
  describe(`Ledger conformance: ${name}`, () => {
    let clock: ManualClock;
    let ledger: Ledger;

    beforeEach(async () => {
      clock = new ManualClock();
      ledger = await make(clock);
    });

    describe('teams', () => {
      it('has the local team, with unlimited credits', async () => {
        expect(await ledger.getTeam(localTeamId)).toMatchObject({ id: localTeamId, credits: null, tokensUsed: 0 });
        expect(await ledger.getCredits(localTeamId)).toBeNull();
      });

      it('creates a team once, with unlimited credits, and keeps it as it is', async () => {
        const team = await ledger.ensureTeam('acme', 'Acme');
        expect(team).toEqual({ id: 'acme', name: 'Acme', credits: null, tokensUsed: 0, tokens: null, createdAt: clock.now() });
        await ledger.setCredits('acme', 5);
        clock.advance(1_000);
        expect(await ledger.ensureTeam('acme', 'Renamed')).toEqual({ ...team, credits: 5 });
        expect(await ledger.getTeam('acme')).toEqual({ ...team, credits: 5 });
        expect(await ledger.getTeam('nope')).toBeUndefined();
      });

      it('keeps a webhook secret per team, replaceable and removable', async () => {
        await ledger.ensureTeam('hooks', 'Hooks');
        expect(await ledger.getWebhookSecret('hooks')).toBeUndefined();
        await ledger.setWebhookSecret('hooks', 'first-secret');
        expect(await ledger.getWebhookSecret('hooks')).toBe('first-secret');
        await ledger.setWebhookSecret('hooks', 'second-secret');
        expect(await ledger.getWebhookSecret('hooks')).toBe('second-secret');
        await ledger.setWebhookSecret('hooks', null);
        expect(await ledger.getWebhookSecret('hooks')).toBeUndefined();
        expect(await ledger.getWebhookSecret('nobody')).toBeUndefined();
        await expect(ledger.setWebhookSecret('nobody', 'x')).rejects.toThrow();
      });

      it('lists every team, oldest first', async () => {
        clock.advance(1);
        await ledger.ensureTeam('b-team', 'B');
        clock.advance(1);
        await ledger.ensureTeam('a-team', 'A');
        expect((await ledger.listTeams()).map((team) => team.id)).toEqual([localTeamId, 'b-team', 'a-team']);
      });
    });

    describe('API keys', () => {
      it('creates a key shown once, with a prefix and the last 4 characters to recognise it', async () => {
        await ledger.ensureTeam('acme', 'Acme');
        const created = await ledger.createKey('acme', 'ci');
        expect(created.key).toMatch(/^fc-[A-Za-z0-9_-]{32,}$/);
        expect(created).toEqual({
          id: expect.any(String),
          teamId: 'acme',
          name: 'ci',
          key: created.key,
          prefix: created.key.slice(0, 7),
          last4: created.key.slice(-4),
          createdAt: clock.now(),
        });
        const other = await ledger.createKey('acme', 'ci');
        expect(other.key).not.toBe(created.key);
        expect(other.id).not.toBe(created.id);
      });

      it('refuses a key for an unknown team', async () => {
        await expect(ledger.createKey('nope', 'x')).rejects.toMatchObject(notFound);
      });

      it('authenticates a valid key and records when it was used', async () => {
        await ledger.ensureTeam('acme', 'Acme');
        const created = await ledger.createKey('acme', 'ci');
        clock.advance(5_000);
        expect(await ledger.authenticate(created.key)).toEqual({ teamId: 'acme', keyId: created.id });
        expect((await ledger.listKeys('acme'))[0]?.lastUsedAt).toBe(clock.now());
      });

      it('refuses unknown, altered and malformed keys without throwing', async () => {
        await ledger.ensureTeam('acme', 'Acme');
        const { key } = await ledger.createKey('acme', 'ci');
        const altered = key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a');
        for (const candidate of [altered, key.slice(0, -1), `${key}x`, key.toUpperCase(), '', 'fc-', 'Bearer ' + key, 'x'.repeat(10_000)]) {
          expect(await ledger.authenticate(candidate)).toBeUndefined();
        }
      });

      it('revokes a key with immediate effect, once', async () => {
        await ledger.ensureTeam('acme', 'Acme');
        const kept = await ledger.createKey('acme', 'kept');
        const revoked = await ledger.createKey('acme', 'revoked');
        expect(await ledger.authenticate(revoked.key)).toBeDefined();
        clock.advance(1_000);
        expect(await ledger.revokeKey(revoked.id)).toBe(true);
        expect(await ledger.authenticate(revoked.key)).toBeUndefined();
        expect(await ledger.authenticate(kept.key)).toEqual({ teamId: 'acme', keyId: kept.id });
        expect(await ledger.revokeKey(revoked.id)).toBe(false);
        expect(await ledger.revokeKey('nope')).toBe(false);
        const listed = await ledger.listKeys('acme');
        expect(listed.find((key) => key.id === revoked.id)?.revokedAt).toBe(clock.now());
        expect(listed.find((key) => key.id === kept.id)?.revokedAt).toBeUndefined();
      });

      it("lists a team's keys, oldest first, never with the secret", async () => {
        await ledger.ensureTeam('acme', 'Acme');
        await ledger.ensureTeam('other', 'Other');
        const first = await ledger.createKey('acme', 'first');
        clock.advance(1);
        const second = await ledger.createKey('acme', 'second');
        await ledger.createKey('other', 'theirs');
        const listed = await ledger.listKeys('acme');
        expect(listed).toEqual([
          { id: first.id, teamId: 'acme', name: 'first', prefix: first.prefix, last4: first.last4, createdAt: first.createdAt },
          { id: second.id, teamId: 'acme', name: 'second', prefix: second.prefix, last4: second.last4, createdAt: second.createdAt },
        ]);
        const text = JSON.stringify(listed);
        expect(text).not.toContain(first.key);
        expect(text).not.toContain(second.key);
        expect(await ledger.listKeys('nobody')).toEqual([]);
      });

      it('knows whether any key was ever created, revoked ones included', async () => {
        expect(await ledger.hasAnyKey()).toBe(false);
        await ledger.ensureTeam('acme', 'Acme');
        const created = await ledger.createKey('acme', 'ci');
        expect(await ledger.hasAnyKey()).toBe(true);
        await ledger.revokeKey(created.id);
        expect(await ledger.hasAnyKey()).toBe(true);
      });
    });

    describe('settings', () => {
      it('stores a setting once: the first value wins and is answered to every later claim', async () => {
        expect(await ledger.claimSetting('admin-token', 'first')).toBe('first');
        expect(await ledger.claimSetting('admin-token', 'second')).toBe('first');
        expect(await ledger.claimSetting('other', 'x')).toBe('x');
        expect(await ledger.getSetting('admin-token')).toBe('first');
        expect(await ledger.getSetting('never-claimed')).toBeUndefined();
      });

      it('lets exactly one of concurrent claims win', async () => {
        const answers = await Promise.all(Array.from({ length: 8 }, (_, index) => ledger.claimSetting('session-key', `value-${index}`)));
        expect(new Set(answers).size).toBe(1);
        expect(await ledger.claimSetting('session-key', 'late')).toBe(answers[0]);
      });
    });

    describe('credits', () => {
      it('charges a balance down to 0 and never below, answering what was taken', async () => {
        await ledger.ensureTeam('acme', 'Acme');
        await ledger.setCredits('acme', 10);
        expect(await ledger.getCredits('acme')).toBe(10);
        expect(await ledger.charge('acme', 3, 'scrape')).toBe(3);
        expect(await ledger.getCredits('acme')).toBe(7);
        expect(await ledger.charge('acme', 10, 'crawl page')).toBe(7);
        expect(await ledger.getCredits('acme')).toBe(0);
        expect(await ledger.charge('acme', 1, 'scrape')).toBe(0);
        expect(await ledger.getCredits('acme')).toBe(0);
      });

      it('charges an unlimited team in full and leaves it unlimited', async () => {
        expect(await ledger.charge(localTeamId, 25, 'scrape')).toBe(25);
        expect(await ledger.getCredits(localTeamId)).toBeNull();
        await ledger.setCredits(localTeamId, 4);
        await ledger.setCredits(localTeamId, null);
        expect(await ledger.getCredits(localTeamId)).toBeNull();
      });

      it('keeps the balance exact under concurrent charges', async () => {
        await ledger.ensureTeam('acme', 'Acme');
        await ledger.setCredits('acme', 10);
        const taken = await Promise.all(Array.from({ length: 25 }, () => ledger.charge('acme', 1, 'scrape')));
        expect(taken.reduce((sum, value) => sum + value, 0)).toBe(10);
        expect(await ledger.getCredits('acme')).toBe(0);
      });

      it('refuses credits of unknown teams', async () => {
        await expect(ledger.getCredits('nope')).rejects.toMatchObject(notFound);
        await expect(ledger.setCredits('nope', 3)).rejects.toMatchObject(notFound);
        await expect(ledger.charge('nope', 1, 'scrape')).rejects.toMatchObject(notFound);
        await expect(ledger.chargeTokens('nope', 1, 'extract')).rejects.toMatchObject(notFound);
        await expect(ledger.setTokens('nope', 3)).rejects.toMatchObject(notFound);
      });

      it('adds up tokens used', async () => {
        await ledger.ensureTeam('acme', 'Acme');
        await ledger.chargeTokens('acme', 1_200, 'extract');
        await ledger.chargeTokens('acme', 300, 'extract');
        expect((await ledger.getTeam('acme'))?.tokensUsed).toBe(1_500);
      });

      it('keeps a token plan per team, unlimited until set, that tokens used draw down', async () => {
        await ledger.ensureTeam('acme', 'Acme');
        expect((await ledger.getTeam('acme'))?.tokens).toBeNull();
        await ledger.setTokens('acme', 10_000);
        await ledger.chargeTokens('acme', 2_500, 'scrape');
        expect(await ledger.getTeam('acme')).toMatchObject({ tokens: 10_000, tokensUsed: 2_500 });
        await ledger.setTokens('acme', null);
        expect((await ledger.getTeam('acme'))?.tokens).toBeNull();
        await expect(ledger.setTokens('acme', -1)).rejects.toThrow();
      });

      it('keeps a usage history of what was taken, filtered by kind and time', async () => {
        await ledger.ensureTeam('acme', 'Acme');
        await ledger.setCredits('acme', 4);
        const start = clock.now();
        await ledger.charge('acme', 1, 'scrape', { apiKeyId: 'key-1' });
        clock.advance(1_000);
        await ledger.chargeTokens('acme', 500, 'extract', { jobId: 'job-9' });
        clock.advance(1_000);
        await ledger.charge('acme', 5, 'crawl page', { jobId: 'job-1' });
        await ledger.charge('acme', 2, 'scrape');
        await ledger.charge(localTeamId, 2, 'scrape');
        expect(await ledger.listUsage('acme')).toEqual([
          { teamId: 'acme', kind: 'credits', amount: 1, reason: 'scrape', at: start, apiKeyId: 'key-1' },
          { teamId: 'acme', kind: 'tokens', amount: 500, reason: 'extract', at: start + 1_000, jobId: 'job-9' },
          { teamId: 'acme', kind: 'credits', amount: 3, reason: 'crawl page', at: start + 2_000, jobId: 'job-1' },
        ]);
        expect((await ledger.listUsage('acme', { kind: 'tokens' })).map((row) => row.amount)).toEqual([500]);
        expect((await ledger.listUsage('acme', { since: start + 1_000 })).map((row) => row.amount)).toEqual([500, 3]);
        expect((await ledger.listUsage('acme', { until: start + 1_000 })).map((row) => row.amount)).toEqual([1]);
        expect(await ledger.listUsage('nobody')).toEqual([]);
      });

      it('adds usage up per UTC day, kind and reason, within a time range', async () => {
        await ledger.ensureTeam('acme', 'Acme');
        const start = clock.now(); // 2023-11-14T22:13:20Z
        await ledger.charge('acme', 2, 'scrape');
        await ledger.charge('acme', 3, 'scrape');
        await ledger.charge('acme', 1, 'map');
        await ledger.chargeTokens('acme', 700, 'extract');
        clock.advance(2 * 3_600_000); // past midnight UTC
        await ledger.charge('acme', 4, 'page', { jobId: 'job-1' });
        await ledger.charge(localTeamId, 9, 'scrape');
        expect(await ledger.usageByDay('acme')).toEqual([
          { day: '2023-11-14', kind: 'credits', reason: 'map', amount: 1 },
          { day: '2023-11-14', kind: 'credits', reason: 'scrape', amount: 5 },
          { day: '2023-11-14', kind: 'tokens', reason: 'extract', amount: 700 },
          { day: '2023-11-15', kind: 'credits', reason: 'page', amount: 4 },
        ]);
        expect(await ledger.usageByDay('acme', { since: start + 1 })).toEqual([{ day: '2023-11-15', kind: 'credits', reason: 'page', amount: 4 }]);
        expect((await ledger.usageByDay('acme', { until: start + 1 })).map((row) => row.amount)).toEqual([1, 5, 700]);
        expect(await ledger.usageByDay('nobody')).toEqual([]);
      });
    });
  });
}

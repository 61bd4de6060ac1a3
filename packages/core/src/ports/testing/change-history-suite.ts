/**
 * Conformance suite for the ChangeHistory port. Every history runs it once:
 *
 * ```ts
 * describeChangeHistory('SqliteChangeHistory', () => createSqliteStorage({ dataDir }).changeHistory);
 * ```
 *
 * `make` is called before each test and must return an empty history.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ChangeHistory, PageSnapshot } from '../change-history.js';

const t0 = 1_700_000_000_000;

function snapshot(overrides: Partial<PageSnapshot> = {}): PageSnapshot {
  return {
    teamId: 'team-a',
    tag: null,
    urlKey: 'https://a.example/page',
    url: 'http://a.example/page',
    site: 'a.example',
    scrapedAt: t0,
    statusCode: 200,
    markdown: '# Page\n\nFirst version',
    ...overrides,
  };
}

export function describeChangeHistory(name: string, make: () => ChangeHistory | Promise<ChangeHistory>): void {
  describe(`ChangeHistory conformance: ${name}`, () => {
    let history: ChangeHistory;

    beforeEach(async () => {
      history = await make();
    });

    it('answers the newest snapshot of a URL, per team and per tag', async () => {
      expect(await history.latest('team-a', null, 'https://a.example/page')).toBeUndefined();
      await history.record(snapshot({ fields: { price: 10 } }));
      await history.record(snapshot({ scrapedAt: t0 + 10, markdown: 'second', jobId: 'job-1' }));
      await history.record(snapshot({ scrapedAt: t0 + 20, markdown: 'tagged', tag: 'daily' }));
      await history.record(snapshot({ scrapedAt: t0 + 30, markdown: 'other team', teamId: 'team-b' }));
      expect(await history.latest('team-a', null, 'https://a.example/page')).toEqual(snapshot({ scrapedAt: t0 + 10, markdown: 'second', jobId: 'job-1' }));
      expect(await history.latest('team-a', 'daily', 'https://a.example/page')).toMatchObject({ markdown: 'tagged', tag: 'daily' });
      expect(await history.latest('team-b', null, 'https://a.example/page')).toMatchObject({ markdown: 'other team' });
      expect(await history.latest('team-c', null, 'https://a.example/page')).toBeUndefined();
      expect(await history.latest('team-a', 'weekly', 'https://a.example/page')).toBeUndefined();
    });

    it('keeps fields and status, and replaces the snapshot of the same page in the same job', async () => {
      await history.record(snapshot({ jobId: 'job-1', fields: { price: 10, name: 'A' }, statusCode: 200 }));
      await history.record(snapshot({ jobId: 'job-1', fields: { price: 12 }, statusCode: 404, scrapedAt: t0 + 5 }));
      expect(await history.latest('team-a', null, 'https://a.example/page')).toEqual(
        snapshot({ jobId: 'job-1', fields: { price: 12 }, statusCode: 404, scrapedAt: t0 + 5 }),
      );
    });

    it("lists the pages of the site's previous job", async () => {
      expect(await history.previousJobUrls('team-a', null, 'a.example', 'job-3')).toEqual([]);
      for (const [jobId, at, paths] of [
        ['job-1', t0, ['/one']],
        ['job-2', t0 + 100, ['/a', '/b', '/c']],
        ['job-3', t0 + 200, ['/a']],
      ] as const) {
        for (const path of paths) {
          await history.record(snapshot({ jobId, scrapedAt: at, urlKey: `https://a.example${path}`, url: `http://a.example${path}` }));
        }
      }
      await history.record(snapshot({ jobId: 'job-9', scrapedAt: t0 + 300, urlKey: 'https://b.example/x', url: 'http://b.example/x', site: 'b.example' }));
      await history.record(snapshot({ jobId: 'job-8', scrapedAt: t0 + 300, tag: 'other', urlKey: 'https://a.example/t', url: 'http://a.example/t' }));
      await history.record(snapshot({ scrapedAt: t0 + 400, urlKey: 'https://a.example/single', url: 'http://a.example/single' }));
      expect((await history.previousJobUrls('team-a', null, 'a.example', 'job-3')).sort()).toEqual([
        'http://a.example/a',
        'http://a.example/b',
        'http://a.example/c',
      ]);
      expect(await history.previousJobUrls('team-a', null, 'a.example', 'job-2')).toEqual(['http://a.example/a']);
      expect(await history.previousJobUrls('team-b', null, 'a.example', 'job-3')).toEqual([]);
    });
  });
}

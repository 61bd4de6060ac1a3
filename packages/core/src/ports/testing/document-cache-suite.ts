/**
 * Conformance suite for the DocumentCache port. Every cache runs it once:
 *
 * ```ts
 * describeDocumentCache('SqliteDocumentCache', () => new SqliteDocumentCache(openSqlite(file)));
 * ```
 *
 * `make` is called before each test and must return an empty cache.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { DocumentCache } from '../document-cache.js';
import { pageDocument } from './job-store-suite.js';

const t0 = 1_700_000_000_000;

export function describeDocumentCache(name: string, make: () => DocumentCache | Promise<DocumentCache>): void {
  describe(`DocumentCache conformance: ${name}`, () => {
    let cache: DocumentCache;

    beforeEach(async () => {
      cache = await make();
    });

    it('answers a document stored within maxAge, and nothing older', async () => {
      await cache.put({ key: 'k1', url: 'https://example.com/a', document: pageDocument('a'), storedAt: t0 });
      expect(await cache.get('k1', 60_000, t0 + 60_000)).toEqual({ document: pageDocument('a'), storedAt: t0 });
      expect(await cache.get('k1', 60_000, t0 + 60_001)).toBeUndefined();
      expect(await cache.get('k1', 0, t0)).toBeUndefined();
      expect(await cache.get('other', 60_000, t0)).toBeUndefined();
    });

    it('replaces an entry stored under the same key', async () => {
      await cache.put({ key: 'k1', url: 'https://example.com/a', document: pageDocument('a'), storedAt: t0 });
      await cache.put({ key: 'k1', url: 'https://example.com/a', teamId: 'team-a', document: pageDocument('b'), storedAt: t0 + 10 });
      expect(await cache.get('k1', 1_000, t0 + 20)).toEqual({ document: pageDocument('b'), storedAt: t0 + 10 });
    });

    it('keeps the links stored with an entry, and none when none were', async () => {
      await cache.put({
        key: 'k1',
        url: 'https://example.com/a',
        document: pageDocument('a'),
        storedAt: t0,
        links: ['https://example.com/b', 'https://example.com/c'],
      });
      expect(await cache.get('k1', 1_000, t0)).toEqual({
        document: pageDocument('a'),
        storedAt: t0,
        links: ['https://example.com/b', 'https://example.com/c'],
      });
      await cache.put({ key: 'k2', url: 'https://example.com/b', document: pageDocument('b'), storedAt: t0, links: [] });
      expect(await cache.get('k2', 1_000, t0)).toEqual({ document: pageDocument('b'), storedAt: t0, links: [] });
    });
  });
}

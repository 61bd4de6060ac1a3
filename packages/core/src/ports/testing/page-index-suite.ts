/**
 * Conformance suite for the PageIndex port. Every index runs it once:
 *
 * ```ts
 * describePageIndex('SqlitePageIndex', () => createSqliteStorage({ dataDir }).pageIndex);
 * ```
 *
 * `make` is called before each test and must return an empty index.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { IndexedPage, PageIndex } from '../page-index.js';

const t0 = 1_700_000_000_000;
const hour = 3_600_000;

const scope = 'team-a';

function page(url: string, text: string, storedAt = t0, title = `Title of ${url}`, description = `About ${url}`, pageScope = scope): IndexedPage {
  return { scope: pageScope, url, title, description, text, storedAt };
}

export function describePageIndex(name: string, make: () => PageIndex | Promise<PageIndex>): void {
  describe(`PageIndex conformance: ${name}`, () => {
    let index: PageIndex;

    beforeEach(async () => {
      index = await make();
      await index.add(page('https://a.example/fox', 'The quick brown fox jumps over the lazy dog. Foxes are quick.'));
      await index.add(page('https://a.example/dog', 'A lazy dog sleeps all day in the sun.', t0 + hour));
      await index.add(
        page('https://docs.b.example/install', 'Install the package with npm and run the server.', t0 + 2 * hour, 'Installing', 'How to install'),
      );
    });

    it('finds pages by words of their text, best match first, with a snippet', async () => {
      const hits = await index.search({ query: 'quick fox', limit: 10, scope });
      expect(hits.map((hit) => hit.url)).toEqual(['https://a.example/fox']);
      expect(hits[0]).toMatchObject({ title: 'Title of https://a.example/fox', storedAt: t0 });
      expect(hits[0]!.snippet.toLowerCase()).toContain('fox');

      const lazy = await index.search({ query: 'lazy', limit: 10, scope });
      expect(lazy.map((hit) => hit.url).sort()).toEqual(['https://a.example/dog', 'https://a.example/fox']);
      const ranked = await index.search({ query: 'lazy dog sleeps', limit: 10, scope });
      expect(ranked[0]!.url).toBe('https://a.example/dog');
    });

    it('finds pages by words of their title and matches word forms (install / installing)', async () => {
      expect((await index.search({ query: 'installing', limit: 10, scope })).map((hit) => hit.url)).toEqual(['https://docs.b.example/install']);
    });

    it('honours limit, time range and site', async () => {
      expect(await index.search({ query: 'lazy', limit: 1, scope })).toHaveLength(1);
      expect((await index.search({ query: 'lazy', limit: 10, since: t0 + 1, scope })).map((hit) => hit.url)).toEqual(['https://a.example/dog']);
      expect((await index.search({ query: 'lazy', limit: 10, until: t0, scope })).map((hit) => hit.url)).toEqual(['https://a.example/fox']);
      expect(await index.search({ query: 'install', limit: 10, site: 'a.example', scope })).toEqual([]);
      expect((await index.search({ query: 'install', limit: 10, site: 'b.example', scope })).map((hit) => hit.url)).toEqual(['https://docs.b.example/install']);
    });

    it('takes odd input literally and answers nothing to no words', async () => {
      for (const query of ['"unbalanced', 'fox OR', 'NEAR(fox dog)', "it's -dog* :col", '^&|!()', '']) {
        await expect(index.search({ query, limit: 5, scope })).resolves.toBeInstanceOf(Array);
      }
      expect(await index.search({ query: '   ', limit: 5, scope })).toEqual([]);
    });

    it('replaces a page added again and forgets a removed one', async () => {
      await index.add(page('https://a.example/fox', 'Now about cats only.', t0 + 3 * hour, 'Cats', 'A page on cats'));
      expect(await index.search({ query: 'fox', limit: 10, scope })).toEqual([]);
      expect((await index.search({ query: 'cats', limit: 10, scope }))[0]).toMatchObject({ url: 'https://a.example/fox', storedAt: t0 + 3 * hour });
      await index.remove('https://a.example/fox', scope);
      await index.remove('https://a.example/never-added', scope);
      expect(await index.search({ query: 'cats', limit: 10, scope })).toEqual([]);
    });

    it('lists the pages of a site and its subdomains, newest first', async () => {
      expect((await index.pagesOf('a.example', 10, scope)).map((entry) => entry.url)).toEqual(['https://a.example/dog', 'https://a.example/fox']);
      expect(await index.pagesOf('b.example', 10, scope)).toEqual([
        { url: 'https://docs.b.example/install', title: 'Installing', description: 'How to install' },
      ]);
      expect(await index.pagesOf('a.example', 1, scope)).toHaveLength(1);
      expect(await index.pagesOf('c.example', 10, scope)).toEqual([]);
    });

    it('keeps scopes apart: a page of one team is neither found, listed, replaced nor removed by another', async () => {
      await index.add(page('https://a.example/fox', 'Team b keeps its own copy about badgers.', t0 + 4 * hour, 'Badgers', 'Team b', 'team-b'));
      expect((await index.search({ query: 'fox', limit: 10, scope })).map((hit) => hit.url)).toEqual(['https://a.example/fox']);
      expect(await index.search({ query: 'fox', limit: 10, scope: 'team-b' })).toEqual([]);
      expect((await index.search({ query: 'badgers', limit: 10, scope: 'team-b' })).map((hit) => hit.url)).toEqual(['https://a.example/fox']);
      expect(await index.search({ query: 'install', limit: 10, scope: '' })).toEqual([]);
      expect((await index.pagesOf('a.example', 10, 'team-b')).map((entry) => entry.title)).toEqual(['Badgers']);
      await index.remove('https://a.example/fox', 'team-b');
      expect((await index.search({ query: 'fox', limit: 10, scope })).map((hit) => hit.url)).toEqual(['https://a.example/fox']);
    });
  });
}

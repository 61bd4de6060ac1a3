import type { Clock } from '../ports/clock.js';
import type { PageIndex } from '../ports/page-index.js';
import type { SearchHit, SearchProvider, SearchQuery } from '../ports/search-provider.js';
import { parseTbs } from './tbs.js';
import { storeScope, type StoreSharing } from '../cache/store-scope.js';

/**
 * The embedded SearchProvider: full-text search over every page this instance has stored
 * (PageIndex), so /search works with no outside service. Web results only (the index holds no
 * images or news), and only the asking team's pages unless the operator shares them
 * (store-scope.ts). `tbs` filters on when a page was stored; a `site:host` word in the query limits
 * results to that site. `country`, `lang` and `location` do not apply to stored pages.
 */
export class IndexSearch implements SearchProvider {
  readonly name = 'index';

  constructor(
    private readonly index: PageIndex,
    private readonly clock: Clock,
    private readonly sharing?: StoreSharing,
  ) {}

  async search(query: SearchQuery): Promise<SearchHit[]> {
    if (!(query.sources ?? ['web']).includes('web')) return [];
    const range = parseTbs(query.tbs, this.clock.now());
    const { words, site } = splitSiteOperator(query.query);
    const hits = await this.index.search({
      query: words,
      limit: query.limit,
      scope: storeScope(query.teamId, this.sharing),
      ...range,
      ...(site ? { site } : {}),
    });
    return hits.map((hit, index) => ({
      source: 'web',
      url: hit.url,
      title: hit.title,
      description: hit.snippet,
      position: index + 1,
      date: hit.storedAt,
    }));
  }
}

/** `pricing site:www.example.com` -> words `pricing`, site `example.com`. */
export function splitSiteOperator(query: string): { words: string; site: string | undefined } {
  let site: string | undefined;
  const words = query.replace(/(^|\s)site:(\S+)/gi, (_match, space: string, host: string) => {
    site = host
      .toLowerCase()
      .replace(/^https?:\/\//, '')
      .replace(/^www\./, '')
      .replace(/\/.*$/, '');
    return space;
  });
  return { words: words.trim(), site };
}

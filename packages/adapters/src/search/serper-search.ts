import type { SearchHit, SearchProvider, SearchQuery, SearchSource } from '@quarry/core';
import { arrayOf, dateOf, requestJson, stringOf } from './search-http.js';

/**
 * SearchProvider on the Serper Google Search API (https://serper.dev): `POST /search`, `/images`,
 * `/news` with `X-API-KEY`, body `{q, num, gl, hl, location, tbs}`; answers `organic`, `images`
 * and `news` lists. `tbs` is Google's own, passed as is.
 */
export interface SerperSearchOptions {
  apiKey: string;
  /** Base URL (default https://google.serper.dev). */
  endpoint?: string;
}

const pathOf: Record<SearchSource, string> = { web: 'search', images: 'images', news: 'news' };
const listOf: Record<SearchSource, string> = { web: 'organic', images: 'images', news: 'news' };

export class SerperSearch implements SearchProvider {
  readonly name = 'serper';

  constructor(private readonly options: SerperSearchOptions) {}

  async search(query: SearchQuery): Promise<SearchHit[]> {
    const sources = query.sources ?? ['web'];
    const perSource = await Promise.all(sources.map((source) => this.searchSource(source, query)));
    return perSource.flat();
  }

  private async searchSource(source: SearchSource, query: SearchQuery): Promise<SearchHit[]> {
    const base = this.options.endpoint ?? 'https://google.serper.dev';
    const url = new URL(pathOf[source], base.endsWith('/') ? base : `${base}/`);
    const body = {
      q: query.query,
      num: Math.min(100, query.limit),
      ...(query.country ? { gl: query.country.toLowerCase() } : {}),
      ...(query.lang ? { hl: query.lang.toLowerCase() } : {}),
      ...(query.location ? { location: query.location } : {}),
      ...(query.tbs ? { tbs: query.tbs } : {}),
    };
    const answer = await requestJson('Serper', url, {
      method: 'POST',
      headers: { 'x-api-key': this.options.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: query.signal,
    });
    const results = arrayOf((answer as Record<string, unknown>)[listOf[source]]).slice(0, query.limit);
    return results.flatMap((result, index): SearchHit[] => {
      const url = stringOf(result.link);
      if (!url) return [];
      const position = typeof result.position === 'number' ? result.position : index + 1;
      const date = dateOf(result.date);
      const hit: SearchHit = {
        source,
        url,
        title: stringOf(result.title),
        description: stringOf(result.snippet),
        position,
        ...(date !== undefined ? { date } : {}),
      };
      if (source === 'images') {
        const imageUrl = stringOf(result.imageUrl);
        if (!imageUrl) return [];
        return [{ ...hit, imageUrl, ...sizeOf(result) }];
      }
      if (source === 'news' && stringOf(result.imageUrl)) return [{ ...hit, imageUrl: stringOf(result.imageUrl) }];
      return [hit];
    });
  }
}

function sizeOf(result: Record<string, unknown>) {
  return {
    ...(typeof result.imageWidth === 'number' ? { imageWidth: result.imageWidth } : {}),
    ...(typeof result.imageHeight === 'number' ? { imageHeight: result.imageHeight } : {}),
  };
}

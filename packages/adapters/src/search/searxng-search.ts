import { parseTbs, type SearchHit, type SearchProvider, type SearchQuery, type SearchSource } from '@quarry/core';
import { arrayOf, dateOf, requestJson, stringOf } from './search-http.js';

/**
 * SearchProvider on a SearXNG instance, through its JSON API (`GET /search?format=json`; the
 * instance must list `json` under `search.formats` in its settings.yml).
 *
 * Sources map to SearXNG categories: web -> the configured categories (default `general`), images
 * -> `images`, news -> `news`. `tbs` becomes `time_range` (qdr:h and qdr:d -> day, w -> week, m ->
 * month, y -> year); a custom date range filters results by their `publishedDate` (results without
 * one are kept). SearXNG answers about ten results a page: pages are read until `limit` is reached
 * (at most five).
 */
export interface SearxngSearchOptions {
  /** Base URL of the instance, e.g. `http://searxng:8080`. */
  endpoint: string;
  /** Comma-separated engines (`SEARXNG_ENGINES`), e.g. `google,bing`. */
  engines?: string;
  /** Comma-separated categories of web results (`SEARXNG_CATEGORIES`), default `general`. */
  categories?: string;
  clock?: { now(): number };
}

const maxPages = 5;
const timeRanges: Record<string, string> = { h: 'day', d: 'day', w: 'week', m: 'month', y: 'year' };
const categoryOf: Record<Exclude<SearchSource, 'web'>, string> = { images: 'images', news: 'news' };

export class SearxngSearch implements SearchProvider {
  readonly name = 'searxng';

  constructor(private readonly options: SearxngSearchOptions) {}

  async search(query: SearchQuery): Promise<SearchHit[]> {
    const sources = query.sources ?? ['web'];
    const perSource = await Promise.all(sources.map((source) => this.searchSource(source, query)));
    return perSource.flat();
  }

  private async searchSource(source: SearchSource, query: SearchQuery): Promise<SearchHit[]> {
    const range = parseTbs(query.tbs, this.options.clock?.now() ?? Date.now());
    const hits: SearchHit[] = [];
    const seen = new Set<string>();
    for (let page = 1; page <= maxPages && hits.length < query.limit; page++) {
      const body = await requestJson('SearXNG', this.urlOf(source, query, page), {
        method: 'GET',
        headers: { accept: 'application/json' },
        signal: query.signal,
      });
      const results = arrayOf((body as { results?: unknown }).results);
      if (results.length === 0) break;
      for (const result of results) {
        const hit = hitOf(source, result, hits.length + 1);
        if (!hit || seen.has(hit.url + (hit.imageUrl ?? ''))) continue;
        if (hit.date !== undefined && ((range.since !== undefined && hit.date < range.since) || (range.until !== undefined && hit.date > range.until)))
          continue;
        seen.add(hit.url + (hit.imageUrl ?? ''));
        hits.push(hit);
        if (hits.length >= query.limit) break;
      }
    }
    return hits;
  }

  private urlOf(source: SearchSource, query: SearchQuery, page: number): URL {
    const url = new URL('search', this.options.endpoint.endsWith('/') ? this.options.endpoint : `${this.options.endpoint}/`);
    url.searchParams.set('q', query.query);
    url.searchParams.set('format', 'json');
    url.searchParams.set('pageno', String(page));
    const categories = source === 'web' ? query.categories?.join(',') || this.options.categories || 'general' : categoryOf[source];
    url.searchParams.set('categories', categories);
    if (this.options.engines) url.searchParams.set('engines', this.options.engines);
    if (query.lang) url.searchParams.set('language', query.country ? `${query.lang}-${query.country.toUpperCase()}` : query.lang);
    const qdr = /(?:^|,)qdr:([hdwmy])/.exec(query.tbs ?? '');
    if (qdr) url.searchParams.set('time_range', timeRanges[qdr[1]!]!);
    return url;
  }
}

function hitOf(source: SearchSource, result: Record<string, unknown>, position: number): SearchHit | undefined {
  const url = stringOf(result.url);
  if (!url) return undefined;
  const date = dateOf(result.publishedDate);
  const base = { source, url, title: stringOf(result.title), description: stringOf(result.content), position, ...(date !== undefined ? { date } : {}) };
  if (source === 'images') {
    const imageUrl = stringOf(result.img_src) || stringOf(result.thumbnail_src);
    if (!imageUrl) return undefined;
    const size = /^(\d+)\s*[x×]\s*(\d+)$/.exec(stringOf(result.resolution));
    return { ...base, imageUrl, ...(size ? { imageWidth: Number(size[1]), imageHeight: Number(size[2]) } : {}) };
  }
  const thumbnail = stringOf(result.thumbnail) || stringOf(result.img_src);
  const category = stringOf(result.category);
  return {
    ...base,
    ...(source === 'news' && thumbnail ? { imageUrl: thumbnail } : {}),
    ...(source === 'web' && category && category !== 'general' ? { category } : {}),
  };
}

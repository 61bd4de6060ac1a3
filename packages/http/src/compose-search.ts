import { SearxngSearch, SerperSearch } from '@quarry/adapters';
import { IndexSearch, NotConfiguredError, type Clock, type PageIndex, type SearchProvider, type ServerConfig } from '@quarry/core';

/**
 * The SearchProvider of this process (QUARRY_SEARCH_PROVIDER): the embedded index by default, so
 * /search works with no outside service; SearXNG or Serper when configured.
 */
export function searchProviderOf(config: ServerConfig, index: PageIndex, clock: Clock): SearchProvider {
  switch (searchChoice(config)) {
    case 'serper':
      if (!config.SERPER_API_KEY) throw new NotConfiguredError('QUARRY_SEARCH_PROVIDER=serper needs SERPER_API_KEY');
      return new SerperSearch({ apiKey: config.SERPER_API_KEY, endpoint: config.SERPER_ENDPOINT });
    case 'searxng':
      if (!config.SEARXNG_ENDPOINT) throw new NotConfiguredError('QUARRY_SEARCH_PROVIDER=searxng needs SEARXNG_ENDPOINT');
      return new SearxngSearch({
        endpoint: config.SEARXNG_ENDPOINT,
        ...(config.SEARXNG_ENGINES ? { engines: config.SEARXNG_ENGINES } : {}),
        ...(config.SEARXNG_CATEGORIES ? { categories: config.SEARXNG_CATEGORIES } : {}),
        clock,
      });
    default:
      return new IndexSearch(index, clock, { sharedAcrossTeams: config.QUARRY_SHARED_INDEX });
  }
}

/** Which provider answers /search (QUARRY_SEARCH_PROVIDER, with `auto` resolved). */
export function searchChoice(config: ServerConfig): 'serper' | 'searxng' | 'index' {
  if (config.QUARRY_SEARCH_PROVIDER !== 'auto') return config.QUARRY_SEARCH_PROVIDER;
  return config.SERPER_API_KEY ? 'serper' : config.SEARXNG_ENDPOINT ? 'searxng' : 'index';
}

/** The search provider in words, for the startup log and `doctor`. */
export function describeSearchProvider(config: ServerConfig): string {
  const choice = searchChoice(config);
  if (choice === 'serper') return `Serper (${config.SERPER_ENDPOINT})`;
  if (choice === 'searxng') return `SearXNG (${config.SEARXNG_ENDPOINT ?? 'no endpoint'})`;
  return 'built-in index (the pages this instance stored)';
}

import type { MapLink } from './map-link.js';

/**
 * Ranks map links by relevance of a query to each URL's path words, title and description (not
 * the URL string alone, as Firecrawl does). A query word found in the path weighs 3, in the title
 * 2, in the description 1; prefixes count half (so "price" finds "pricing"). Links that match
 * nothing keep their order after those that do.
 */
const weights = { path: 3, title: 2, description: 1 } as const;

export function rankBySearch(links: MapLink[], query: string): MapLink[] {
  const terms = words(query);
  if (terms.length === 0) return links;
  const scored = links.map((link, index) => ({ link, index, score: score(link, terms) }));
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.map((entry) => entry.link);
}

function score(link: MapLink, terms: string[]): number {
  let path = '';
  try {
    const url = new URL(link.url);
    path = `${url.hostname} ${decodeURIComponent(url.pathname)} ${url.hash}`;
  } catch {
    path = link.url;
  }
  const fields: Array<[string[], number]> = [
    [words(path), weights.path],
    [words(link.title ?? ''), weights.title],
    [words(link.description ?? ''), weights.description],
  ];
  let total = 0;
  for (const term of terms) {
    for (const [fieldWords, weight] of fields) {
      if (fieldWords.includes(term)) total += weight;
      else if (term.length >= 3 && fieldWords.some((word) => word.startsWith(term) || (term.startsWith(word) && word.length >= 4))) total += weight / 2;
    }
  }
  return total;
}

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

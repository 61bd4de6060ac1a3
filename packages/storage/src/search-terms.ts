/**
 * The words of a search query, taken literally: letters and digits only, so no query can reach
 * the full-text engines' operators (FTS5's NEAR/OR/quotes, tsquery's & | ! :*). At most 32 words.
 */
export function searchTerms(query: string): string[] {
  return [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, 32);
}

/** The site column of a URL: its host without `www.`. */
export function siteColumn(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return '';
  }
}

/** Longest text kept per page in the index (the rest of a huge page adds little to ranking). */
export const maxIndexedChars = 200_000;

/**
 * Judges a block by its whole text: "Edit this page", "Share", "Last updated on ...", a bare
 * dateline, a photo credit, a "Read also: ..." line. Only short blocks are ever asked.
 */
import { chromeSectionHeadingPattern, chromeTextPatterns, dateLineWords } from './boilerplate-patterns.js';

/** Longer texts are never dates. */
const dateLineMaximum = 80;

/** True when a text is only a date (and time), as in a dateline or a "Last updated" line. */
export function isDateLine(text: string): boolean {
  if (text.length > dateLineMaximum || !/\d/.test(text)) return false;
  const words = text
    .toLowerCase()
    .split(/[\s,.:/|()\-–—]+/)
    .filter(isWord);
  return words.length > 0 && words.every(isDateWord);
}

// Module functions, not arrows made per call (see `holdsCode` in content-cleanup.ts).
const isWord = (word: string): boolean => word !== '';
const dayNumberPattern = /^\d+(?:st|nd|rd|th|h)?$/;
const isDateWord = (word: string): boolean => dayNumberPattern.test(word) || dateLineWords.has(word);

/** True for the whole text of a block that is chrome: a chrome phrase, a section label, a bare date. */
export function isChromeText(text: string): boolean {
  for (const pattern of joinedChromeTextPatterns) if (pattern.test(text)) return true;
  return chromeSectionHeadingPattern.test(text) || isDateLine(text);
}

/**
 * `chromeTextPatterns` as one alternation per set of flags: each text, most of them no chrome, is
 * read by two expressions rather than by each of the list's.
 */
const joinedChromeTextPatterns: readonly RegExp[] = joinByFlags(chromeTextPatterns);

function joinByFlags(patterns: readonly RegExp[]): RegExp[] {
  const sources = new Map<string, string[]>();
  for (const pattern of patterns) {
    const list = sources.get(pattern.flags);
    if (list) list.push(`(?:${pattern.source})`);
    else sources.set(pattern.flags, [`(?:${pattern.source})`]);
  }
  // Anchored at the start when each is, so the expression is not tried at every position of the text.
  const anchor = patterns.every((pattern) => pattern.source.startsWith('^')) ? '^' : '';
  return [...sources].map(([flags, list]) => new RegExp(`${anchor}(?:${list.join('|')})`, flags));
}

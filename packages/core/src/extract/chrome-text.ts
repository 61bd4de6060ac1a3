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
  for (const pattern of chromeTextPatterns) if (pattern.test(text)) return true;
  return chromeSectionHeadingPattern.test(text) || isDateLine(text);
}

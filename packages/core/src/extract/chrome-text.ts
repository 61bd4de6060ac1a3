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
    .filter((word) => word !== '');
  return words.length > 0 && words.every((word) => /^\d+(?:st|nd|rd|th|h)?$/.test(word) || dateLineWords.has(word));
}

/** True for the whole text of a block that is chrome: a chrome phrase, a section label, a bare date. */
export function isChromeText(text: string): boolean {
  return chromeTextPatterns.some((pattern) => pattern.test(text)) || chromeSectionHeadingPattern.test(text) || isDateLine(text);
}

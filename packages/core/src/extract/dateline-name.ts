/**
 * The author's name a CMS prints as its own line right before the dateline under the title, with
 * no link and no "By" (`<span>JANIE HAR</span><div><time>Nov. 20, 2019</time></div>`): a name the
 * byline rule (`related-links.ts`) does not see, as it looks for a linked name. Found by its place
 * (the dateline's previous sibling) and shape (a few words, no digit, no sentence, no colon), never
 * in a list (mdBook's steps "Run cargo fix --edition", then "... edition = "2021"").
 */
import type { Element } from 'domhandler';
import { adjacentElement, collapsedText, firstElement, headingLevel } from './dom-tools.js';
import type { TextStats } from './text-stats.js';

/** A name is at most this long (weighted characters)... */
const nameMaximumText = 40;
/** ...and this many words. */
const nameMaximumWords = 4;
/** What a name line does not hold: a digit, a sentence end, a colon (a field label). */
const notNamePattern = /[\d.!?:。！？]/u;

const isHeading = (element: Element): boolean => headingLevel(element) > 0;

/**
 * The name line right before `dateline` (see the module comment), or none. `stats`: the body's
 * text stats.
 */
export function nameBesideDateline(dateline: Element, stats: Map<Element, TextStats>): Element[] {
  // A list's items are entries of the text: a step with a year in it is no dateline's neighbour.
  const name = adjacentElement(dateline, 'prev');
  if (!name || name.name === 'li' || dateline.name === 'li') return [];
  const nameStats = stats.get(name);
  if (!nameStats || nameStats.text === 0 || nameStats.text > nameMaximumText || nameStats.media > 0) return [];
  if (isHeading(name) || firstElement(name, isHeading)) return [];
  const text = collapsedText(name);
  if (text.split(' ').length > nameMaximumWords || notNamePattern.test(text)) return [];
  return [name];
}

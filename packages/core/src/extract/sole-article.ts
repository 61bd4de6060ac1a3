/**
 * The page's only `article` element is, by its tag, where the page's article is. When the scoring
 * chose a root beside it rather than in or around it (a comment thread of many long posts outscores
 * the story once class names no longer mark it as comments), the article wins: a tag the page
 * gave its text on purpose says more than the length of what lies next to it.
 */
import type { Element } from 'domhandler';
import { isWithin } from './dom-tools.js';
import type { TextStats } from './text-stats.js';

/** The article must hold at least this many weighted characters of prose to outrank the scoring. */
const articleMinimumProse = 1000;

/**
 * `root`, or the page's only `article` when `root` lies outside it and does not hold it.
 * `elements`: the page's elements left after chrome removal; `prose`: prose under each element.
 */
export function preferSoleArticle(root: Element, elements: Element[], stats: Map<Element, TextStats>, prose: Map<Element, number>): Element {
  let article: Element | undefined;
  for (const element of elements) {
    if (element.name !== 'article') continue;
    if (article) return root;
    article = element;
  }
  if (!article || isWithin(root, article) || isWithin(article, root)) return root;
  if ((prose.get(article) ?? 0) < articleMinimumProse || !stats.has(article)) return root;
  return article;
}

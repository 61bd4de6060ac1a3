/**
 * The page's only `article` element is, by its tag, where the page's article is. When the scoring
 * chose a root beside it rather than in or around it (a comment thread of many long posts outscores
 * the story once class names no longer mark it as comments), the article wins: a tag the page
 * gave its text on purpose says more than the length of what lies next to it.
 */
import { type AnyNode, type Element, isTag } from 'domhandler';
import { detachAll, isWithin } from './dom-tools.js';
import type { TextStats } from './text-stats.js';

/** The article must hold at least this many weighted characters of prose to outrank the scoring. */
const articleMinimumProse = 1000;

/** The page's only `article` element among `elements` (those left after chrome removal), if it has one. */
export function soleArticleOf(elements: Element[]): Element | undefined {
  let article: Element | undefined;
  for (const element of elements) {
    if (element.name !== 'article') continue;
    if (article) return undefined;
    article = element;
  }
  return article;
}

/** `root`, or the page's only `article` when `root` lies outside it and does not hold it. `prose`: prose under each element. */
export function preferSoleArticle(root: Element, article: Element | undefined, stats: Map<Element, TextStats>, prose: Map<Element, number>): Element {
  if (!article || isWithin(root, article) || isWithin(article, root)) return root;
  if ((prose.get(article) ?? 0) < articleMinimumProse || !stats.has(article)) return root;
  return article;
}

/**
 * When the content holds the page's only `article` and more, what follows the article in the
 * content is the page's, not the article's: the comment thread and its rules, an author's other
 * posts. It goes when it holds less prose than the article (an article cut in two by a wrapper
 * keeps its second half). What comes before the article (the title, a lead) stays. Returns true
 * when it removed anything.
 */
export function trimAfterSoleArticle(container: Element, article: Element | undefined, prose: Map<Element, number>): boolean {
  if (!article || article === container || !isWithin(article, container)) return false;
  const articleProse = prose.get(article) ?? 0;
  if (articleProse < articleMinimumProse) return false;
  const after: AnyNode[] = [];
  for (let node: Element = article; node !== container && node.parent && isTag(node.parent); node = node.parent) {
    const siblings = node.parent.children;
    for (let index = siblings.indexOf(node) + 1; index < siblings.length; index++) after.push(siblings[index]!);
  }
  const afterProse = after.reduce((sum, node) => sum + (isTag(node) ? (prose.get(node) ?? 0) : 0), 0);
  if (after.length === 0 || afterProse > articleProse) return false;
  detachAll(after);
  return true;
}

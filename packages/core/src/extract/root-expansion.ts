/**
 * Lifts a chosen content root to the ancestors whose other children continue it: an article whose
 * parts sit in sibling containers (split by an ad slot or an embedded link box), or a table of
 * signatures beside the letter it signs. Each step may bring a little clutter along in proportion
 * to the prose it adds; climbing stops at the first ancestor that brings more (a teaser list, a
 * link block, a site footer, a comment thread: `repeated-items.ts`).
 */
import { type AnyNode, type Element, isTag, isText } from 'domhandler';
import { collapsedText, descendantElements } from './dom-tools.js';
import { mainLandmarkBound } from './main-landmark.js';
import { isRepeatedItems } from './repeated-items.js';
import { type TextStats, linkDensity } from './text-stats.js';

/** A sibling shorter than this (weighted characters) is clutter, not a continuation. */
const minimumContinuationLength = 25;

/**
 * An ancestor replaces the root only when it adds at least this much prose (a byline or a
 * teaser does not)...
 */
const minimumAddedProse = 300;
/** ...and at least this share of the prose the root already has. */
const minimumAddedProseShare = 0.1;
/** Clutter (text of siblings that do not continue the content) tolerated at each step... */
const clutterSlack = 100;
/** ...plus this much per character of prose the step adds. */
const clutterPerProse = 0.25;
/** A sibling continues the content when at most this share of its text is in links... */
const continuingMaximumLinkDensity = 0.35;
/** ...and at least this share of its text is prose. */
const continuingMinimumProse = 0.6;

/** Lists with at least this many items are checked for teasers... */
const teaserListMinimumItems = 3;
/** ...and are teaser lists when this share of their items open with a link (headline + summary). */
const teaserItemShare = 0.6;

/** True when the first text inside `node` belongs to a link. */
function opensWithLink(node: Element): boolean {
  const stack: AnyNode[] = [...node.children].reverse();
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (isText(current)) {
      if (current.data.trim() !== '') return false;
    } else if (isTag(current)) {
      if (current.name === 'a') return collapsedText(current) !== '';
      for (let index = current.children.length - 1; index >= 0; index--) stack.push(current.children[index]!);
    }
  }
  return false;
}

// A module function, not an arrow made per call (see `holdsCode` in content-cleanup.ts).
const isListItemOrArticle = (element: Element): boolean => element.name === 'li' || element.name === 'article';

/** A list of teasers (each item a linked headline with a summary): related stories, tickers. */
export function isTeaserList(element: Element): boolean {
  const items = descendantElements(element, isListItemOrArticle);
  if (items.length < teaserListMinimumItems) return false;
  return items.filter(opensWithLink).length >= teaserItemShare * items.length;
}

/**
 * The highest ancestor of `root` (up to `body`, and not past the page's main landmark) that only
 * adds content; `root` itself if none.
 */
export function expandRoot(root: Element, prose: Map<Element, number>, stats: Map<Element, TextStats>): Element {
  let best = root;
  let current = root;
  let addedProse = 0;
  let clutter = 0;
  // Not past the page's main landmark: what lies outside it is not the main content.
  const bound = mainLandmarkBound(root);
  for (let parent = root.parent; parent && isTag(parent) && parent.name !== 'html'; parent = parent.parent) {
    if (current === bound) return best;
    let isAfter = false;
    for (const sibling of parent.children) {
      if (sibling === current) isAfter = true;
      if (sibling === current || !isTag(sibling)) continue;
      const siblingStats = stats.get(sibling);
      const text = siblingStats?.text ?? 0;
      const siblingProse = prose.get(sibling) ?? 0;
      const isContinuation =
        text >= minimumContinuationLength &&
        linkDensity(siblingStats) <= continuingMaximumLinkDensity &&
        siblingProse >= continuingMinimumProse * text &&
        !isTeaserList(sibling) &&
        // A comment thread or list of entries after the content is not more of it.
        !(isAfter && isRepeatedItems(sibling, stats));
      if (isContinuation) addedProse += siblingProse;
      else clutter += text;
    }
    if (clutter > clutterSlack + clutterPerProse * addedProse) return best;
    if (addedProse >= Math.max(minimumAddedProse, minimumAddedProseShare * (prose.get(best) ?? 0))) {
      best = parent;
      addedProse = 0;
      clutter = 0;
    }
    current = parent;
  }
  return best;
}

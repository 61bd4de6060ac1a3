/**
 * A line of post metadata at an edge of the article, found by link semantics rather than class
 * names (which an unseen site does not share): the HTML standard's `rel="tag"` and the `category`
 * link type blog engines print beside it mark links to the post's own tags and categories, and a
 * CMS writes them in a line above or below the text ("14. Juni 2013 at 20:51 ([Category])",
 * "Der Beitrag wurde am ... unter [A], [B], [C] abgelegt", a breadcrumb of categories).
 *
 * Such a line before the first prose paragraph or after the last one is removed: the block around
 * the marked links, widened while its parent stays short, holds no heading, media or other prose,
 * and adds little text besides marked links (a wrapper, a "Tags:" label, the other items of a list
 * of tags). A field's value (`dd`, a table cell: an event's category among its date and place) is
 * the page's data and stays. A line that is a prose paragraph itself goes only after the last paragraph and only when
 * it lists its marked links (two or more with nothing but separators between them): a marked link
 * in a sentence is the text's own (a plugin that links tag words in place) and stays, as does
 * everything between the first and the last prose paragraph.
 */
import type { AnyNode, Element } from 'domhandler';
import { isTag, isText } from 'domhandler';
import { getAttributeValue } from 'domutils';
import { descendantElements, headingTags, isInline } from './dom-tools.js';
import type { TextStats } from './text-stats.js';

/** A metadata line is at most this long (weighted characters). */
const lineMaximumText = 500;
/** Link types that mark a link to the post's own taxonomy. */
const taxonomyRelPattern = /(?:^|\s)(?:tag|category)(?:\s|$)/i;
/** What may stand between two listed links: punctuation and whitespace only. */
const separatorPattern = /^[\s,;|/·•»›>&()[\]–—-]*$/u;

/** Widening takes a parent with at most this much more unmarked text (weighted characters): a label. */
const widenSlack = 40;
/** ...and widens at most this many levels (a deep chain of wrappers is not a line's). */
const widenMaximumLevels = 6;
/** A field's value (`dd`, a table cell) is the page's data, such as an event's category. */
const fieldTags: ReadonlySet<string> = new Set(['dd', 'dt', 'td', 'th']);

/** True when `element` is a link marked as one to the post's tags or categories. */
function isTaxonomyLink(element: Element): boolean {
  return element.name === 'a' && taxonomyRelPattern.test(getAttributeValue(element, 'rel') ?? '');
}

/** The nearest ancestor of `link` that is a block (not inline), or undefined past `flow`. */
function blockOf(link: Element, flow: Element): Element | undefined {
  for (let node = link.parent; node && isTag(node); node = node.parent) {
    if (!isInline(node)) return node;
    if (node === flow) return undefined;
  }
  return undefined;
}

/** The text of `element` outside its marked links (weighted characters). */
function unmarkedText(element: Element, stats: Map<Element, TextStats>): number {
  let marked = 0;
  for (const link of descendantElements(element, isTaxonomyLink)) marked += stats.get(link)?.text ?? 0;
  return (stats.get(element)?.text ?? 0) - marked;
}

/** True when two of `links` follow each other with nothing but separators between them. */
function listsLinks(links: Element[]): boolean {
  for (let index = 1; index < links.length; index++) {
    let between = '';
    let node: AnyNode | null = links[index - 1]!.next;
    while (node && node !== links[index]) {
      if (!isText(node)) break;
      between += node.data;
      node = node.next;
    }
    if (node === links[index] && separatorPattern.test(between)) return true;
  }
  return false;
}

/** True when `element` holds a heading or media, which a metadata line does not. */
function holdsHeadingOrMedia(element: Element, stats: Map<Element, TextStats>): boolean {
  if (headingTags.has(element.name) || (stats.get(element)?.media ?? 0) > 0) return true;
  const walk = (node: AnyNode): boolean => isTag(node) && (headingTags.has(node.name) || node.children.some(walk));
  return element.children.some(walk);
}

/**
 * The metadata lines of `flow` (see the module comment), given its elements in document order and
 * a test for a prose paragraph; the caller detaches them. Linear in the flow: positions are read
 * once, a block is placed against the first and last prose paragraph only (a block that starts
 * before the first one and does not hold it ends before it), and a line widens a few levels at most.
 */
export function trimTaxonomyLines(flow: Element, stats: Map<Element, TextStats>, order: Element[], isProse: (element: Element) => boolean): Element[] {
  const linksByBlock = new Map<Element, Element[]>();
  for (const element of order) {
    if (!isTaxonomyLink(element)) continue;
    const block = blockOf(element, flow);
    if (!block || block === flow || fieldTags.has(block.name)) continue;
    const links = linksByBlock.get(block);
    if (links) links.push(element);
    else linksByBlock.set(block, [element]);
  }
  if (linksByBlock.size === 0) return [];
  const positions = new Map<Element, number>();
  const prose: Element[] = [];
  order.forEach((element, index) => {
    positions.set(element, index);
    if (isProse(element)) prose.push(element);
  });
  const first = prose[0];
  const last = prose.at(-1);
  if (!first || !last) return [];
  // Each element's count of elements in its subtree, itself included: `inner` lies within `outer`
  // when its position falls in outer's range (no walk up a deep chain per question).
  const sizes = new Map<Element, number>();
  for (let index = order.length - 1; index >= 0; index--) {
    const element = order[index]!;
    let size = 1;
    for (const child of element.children) if (isTag(child)) size += sizes.get(child) ?? 0;
    sizes.set(element, size);
  }
  const isInside = (inner: Element, outer: Element): boolean => {
    const start = positions.get(outer);
    const at = positions.get(inner);
    return start !== undefined && at !== undefined && at > start && at < start + sizes.get(outer)!;
  };
  const lines = new Set<Element>();
  for (const [block, links] of linksByBlock) {
    const blockText = stats.get(block)?.text ?? 0;
    if (blockText === 0 || blockText > lineMaximumText || holdsHeadingOrMedia(block, stats)) continue;
    const position = positions.get(block)!;
    // The prose paragraph the line must not take: the first one for a line before the text, the
    // last other one for a line after it.
    let bound: Element | undefined;
    if (block === last) {
      if (prose.length >= 2 && listsLinks(links)) bound = prose.at(-2);
    } else if (isProse(block)) {
      continue;
    } else if (position < positions.get(first)! && !isInside(first, block)) {
      bound = first;
    } else if (position > positions.get(last)! && !isInside(block, last)) {
      bound = last;
    }
    if (!bound) continue;
    let line = block;
    let level = 0;
    for (let parent = line.parent; parent && isTag(parent) && parent !== flow && level < widenMaximumLevels; parent = parent.parent, level++) {
      if ((stats.get(parent)?.text ?? 0) > lineMaximumText || holdsHeadingOrMedia(parent, stats) || isInside(bound, parent)) break;
      // A wrapper, a label ("Tags:") or the other items of a list of marked links: not other fields.
      if (unmarkedText(parent, stats) > unmarkedText(line, stats) + widenSlack) break;
      line = parent;
    }
    lines.add(line);
  }
  // A line inside another one goes with it: detaching it too is harmless.
  return [...lines];
}

/**
 * Structure-preserving cleanup inside the chosen content: drops chrome that lives inside articles
 * (share rows, "Edit this page", pagers, "Related" and "Comments" sections, link lists, empty
 * wrappers, photo credits glued to the end of a caption) and keeps tables, code blocks, lists of
 * prose, headings, figures and quotes.
 */
import { type AnyNode, type Element, type ParentNode, isTag, isText } from 'domhandler';
import { chromeSectionHeadingPattern } from './boilerplate-patterns.js';
import { isLabelledGrid } from './chrome-removal.js';
import { isChromeText, isDateLine } from './chrome-text.js';
import { isDefinitionParagraph, isDescribedTerm, isTermDescriptionList, isTermValue } from './definition-body.js';
import { hintWeight } from './content-scoring.js';
import {
  adjacentElement,
  chainText,
  collapsedText,
  descendantElements,
  joinedText,
  detach,
  detachUnsettled,
  detachedCount,
  documentSectionPeers,
  firstElement,
  childrenFirst,
  hasCollapsedText,
  hasHeaderCells,
  hasHint,
  hasOwnText,
  headingLevel,
  headingTags,
  inlineTags,
  isNoteAside,
  sectionHeadingLevel,
  sectionPeersNeeded,
  deferDetaches,
  judging,
  settleDetached,
  settleParent,
  settleReached,
  settleWithin,
  shareElements,
  sharedElements,
} from './dom-tools.js';
import { removePictureLabels } from './picture-labels.js';
import {
  clearSectionsHoldMemo,
  forgetRemovalOf,
  forgetSiblingsRemoval,
  sectionBlockLevel,
  sectionPeerCount,
  sectionsHoldParent,
  wrapsSection,
  startSectionsHoldMemo,
  stopSectionsHoldMemo,
} from './section-blocks.js';
import { isFieldedTitleHeader, isTitleField } from './title-fields.js';
import { type TextStats, addStats, discountStats, emptyTextStats, linkDensity, measureText } from './text-stats.js';

export interface CleanupOptions {
  /** Judge containers by class/id hints too (off in the relaxed retry). */
  useClassHints: boolean;
  /**
   * What `measureText(container)` gives, when the caller has it (the body's stats kept current);
   * measured here otherwise. The rules change it in place.
   */
  stats?: Map<Element, TextStats>;
  /**
   * With `useClassHints`, set to true when a class/id weight changed a clutter verdict: the relaxed
   * retry (without hints) would then clean the content otherwise. Left alone when no weight did.
   */
  hintsMattered?: boolean;
  /**
   * Set by the cleanup: true when the `stats` passed in are still what `measureText(container)`
   * gives after it (every removal discounted, no text cut, no second measure), so that the caller
   * can read the content's text from them instead of measuring it again.
   */
  isStatsKept?: boolean;
}

/** Blocks longer than this (weighted characters) are never matched against chrome texts. */
const chromeTextMaximum = 200;

/** Containers judged by the link-density and size rules. */
const conditionalTags: ReadonlySet<string> = new Set([
  'div',
  'section',
  'article',
  'aside',
  'header',
  'footer',
  'form',
  'fieldset',
  'ul',
  'ol',
  'dl',
  'table',
  'nav',
]);
const listTags: ReadonlySet<string> = new Set(['ul', 'ol', 'dl']);
/** Data, never judged as chrome text: tables, code, formulas. */
const dataTags: ReadonlySet<string> = new Set(['table', 'pre', 'code', 'math']);
/** Elements that make a container worth keeping even without text. */
const mediaTags: ReadonlySet<string> = new Set(['img', 'picture', 'figure', 'table', 'pre', 'iframe', 'video', 'math']);

/** True when an inline element sits beside loose text (part of a sentence, not of a meta row). */
function isInSentence(element: Element, ownTexts: Map<ParentNode, boolean>): boolean {
  const parent = element.parent;
  if (!parent) return false;
  // Per parent: its text children stay while elements are detached, and each of thousands of
  // inline siblings read them all again (quadratic: 9 s for 32,000 spans beside empty headings).
  let has = ownTexts.get(parent);
  if (has === undefined) ownTexts.set(parent, (has = hasOwnText(parent)));
  return has;
}

/** True when `heading` opens `section`: the first element with text in it. */
function opensSection(section: Element, heading: Element): boolean {
  return section.name === 'section' && section.children.find((child) => isTag(child) && hasCollapsedText(child)) === heading;
}

/**
 * The block that stands for a heading among its siblings: itself, its permalink wrapper, or the
 * `section` it opens (Sphinx writes every section as one).
 */
function sectionBlock(heading: Element): Element {
  let block = heading;
  while (block.parent && isTag(block.parent) && isHeadingWrapper(block.parent)) block = block.parent;
  if (block.parent && isTag(block.parent) && opensSection(block.parent, block)) block = block.parent;
  return block;
}

/**
 * ...is one section of a flat, sectioned document (a README, a docs page): "Contents", "Related"
 * or "Comments" there name a section of the document like any other, so its title is not read as
 * chrome (nor a version title, "3.24.1, 3.24.2", as a bare date). Two `section`s nested in their
 * parent heading's `section` are enough, as docutils nests a page's sections. A "Related" box
 * after an article sits apart from the article's own headings.
 */
function isDocumentSection(heading: Element, known?: SectionLevels): boolean {
  const block = sectionBlock(heading);
  const parent = block.parent;
  if (!parent || !isTag(parent)) return false;
  const level = headingLevel(heading);
  let peers: number;
  if (known) {
    // The block is always one peer: the siblings that match as peers, plus the block if it does not.
    const blockMatches = block.name === heading.name || topHeadingLevel(block, known.below) === level;
    peers = peerCount(parent, heading.name, block.name, known) + (blockMatches ? 0 : 1);
  } else peers = countPeers(parent, heading.name, block.name, block);
  if (peers >= (block.name === 'section' ? sectionPeersNeeded(parent, level) : documentSectionPeers)) return true;
  // A heading that opens one of its document's section `div`s (asciidoc's `div.sect1`).
  if (parent.name !== 'div' || sectionBlockLevel(parent) !== level) return false;
  known?.settle?.();
  return isDocumentSectionBlock(parent);
}

/**
 * What `isDocumentSection` remembers while the tree holds still: the highest heading level under
 * each element, and per parent how many children match as peers of a heading and block name
 * (every heading of a flat document compares itself with the same siblings).
 */
interface SectionLevels {
  below: Map<Element, number>;
  peers: Map<Element, Map<string, number>>;
  /** Settles the children a walk left holding nodes it took out, before a rule reads a whole section around the heading. */
  settle?: () => void;
}

function newSectionLevels(): SectionLevels {
  return { below: new Map(), peers: new Map() };
}

/**
 * Forgets what a removal of `element` changes: the levels and peer counts of its ancestors. Without
 * a heading at or under it, the levels stand, and so does its parent's peer count (it was no peer,
 * and its siblings are as they were); above, the parent may turn into a heading's wrapper. Forgotten
 * at each chrome line between thousands of headings, the count was read again over all of them.
 */
function forgetAncestors(element: Element, known: SectionLevels): void {
  const holdsHeading = topHeadingLevel(element, known.below) > 0;
  for (let node = element.parent; node && isTag(node); node = node.parent) {
    if (holdsHeading) known.below.delete(node);
    if (holdsHeading || node !== element.parent) known.peers.delete(node);
  }
}

/** The children of `parent` that match as peers of a heading named `headingName` standing as a `blockName`. */
function peerCount(parent: Element, headingName: string, blockName: string, known: SectionLevels): number {
  const key = `${headingName} ${blockName}`;
  let counts = known.peers.get(parent);
  const cached = counts?.get(key);
  if (cached !== undefined) return cached;
  const peers = countPeers(parent, headingName, blockName, undefined, known.below);
  if (!counts) {
    counts = new Map();
    known.peers.set(parent, counts);
  }
  counts.set(key, peers);
  return peers;
}

/** `peerCount` without memory (`block` counts whatever its level), for a heading judged once. */
function countPeers(parent: Element, headingName: string, blockName: string, block: Element | undefined, below?: Map<Element, number>): number {
  const level = Number(headingName[1]);
  let peers = 0;
  for (const sibling of parent.children) {
    if (!isTag(sibling) || sibling.parent !== parent) continue; // past nodes a deferred detach took out
    if (sibling === block || sibling.name === headingName) peers++;
    else if ((sibling.name === blockName || isHeadingWrapper(sibling)) && topHeadingLevel(sibling, below) === level) peers++;
  }
  return peers;
}

/**
 * True when fewer than half of a list's items read as chrome: an item "Contents" in a document's
 * table of contents, or "Last updated: ..." among a package's details, is one entry of the list.
 */
function isContentList(list: Element, stats: Map<Element, TextStats>, known: Map<Element, boolean>): boolean {
  const cached = known.get(list);
  if (cached !== undefined) return cached;
  const items = list.children.filter((child): child is Element => isTag(child) && child.name === 'li');
  const chrome = items.filter((item) => {
    const itemStats = stats.get(item);
    return !!itemStats && itemStats.text <= chromeTextMaximum && isChromeText(collapsedText(item));
  }).length;
  const verdict = items.length >= 2 && chrome * 2 < items.length;
  known.set(list, verdict);
  return verdict;
}

/** Removes the blocks whose whole text is a chrome phrase ("Edit this page", "Share", ...). */
function removeChromeTexts(container: Element, stats: Map<Element, TextStats>): void {
  const stack = container.children.filter(isTag);
  const contentLists = new Map<Element, boolean>();
  const ownTexts = new Map<ParentNode, boolean>();
  // The short texts of wrapper chains (see `chainText`): each element's at most `chromeTextMaximum`.
  const texts = new Map<Element, string>();
  // Each heading compares its level with every sibling section's (its whole subtree): remember
  // them, and forget an ancestor's at each removal (the only change to the tree here).
  const known = newSectionLevels();
  // Parents whose `children` still hold blocks taken out (`detachUnsettled`): spliced out one by
  // one, thousands of chrome lines among kept paragraphs cost each removal the kept siblings after
  // it. Most verdicts read only the element's own subtree, which the walk has not touched yet; the
  // few that read its siblings or ancestors (`readsAroundIt`) settle them all first.
  const unsettled = new Set<ParentNode>();
  known.settle = () => settleDetached(unsettled);
  // Each parent whose children were pushed, with the stack's height below them: when the stack is
  // back to it, the walk is done with the parent's subtree, which is settled then. So only the
  // ancestors of the element judged hold nodes taken out, after the child on the way down.
  const leaving: Element[] = [];
  const heights: number[] = [];
  startSectionsHoldMemo();
  while (stack.length > 0) {
    while (heights.length > 0 && stack.length <= heights[heights.length - 1]!) {
      heights.pop();
      settleParent(leaving.pop()!, unsettled);
    }
    const element = stack.pop()!;
    if (unsettled.size > 0 && readsAroundIt(element, contentLists)) settleDetached(unsettled);
    if (dataTags.has(element.name)) continue; // a table cell or code that reads "10000" or a date is data
    if (inlineTags.has(element.name) && isInSentence(element, ownTexts)) continue; // a date link in a sentence stays
    // A heading that opens a document's section stays with what is under it; asked only when the
    // heading or a child of it may go (its text a chrome phrase, a child with text to judge), since
    // otherwise the walk leaves it as it is either way (a section's levels and peers cost most here).
    let chrome: string | undefined | null = null;
    if (headingTags.has(element.name)) {
      chrome = chromeTextOf(element, stats.get(element), texts);
      if ((chrome !== undefined || holdsJudgedChild(element, stats)) && isDocumentSection(element, known)) continue;
      if (chrome !== undefined && isDateLine(chrome) && isDateSectionHeading(element, stats)) continue;
    }
    if (isDefinitionParagraph(element)) continue; // "See also: size, rows" closing a function's description
    if (element.name === 'li' && element.parent && isTag(element.parent) && isContentList(element.parent, stats, contentLists)) {
      // The item's own text is an entry; a list nested under it is judged on its own.
      leaving.push(element);
      heights.push(stack.length);
      for (const child of element.children) if (isTag(child) && listTags.has(child.name)) stack.push(child);
      continue;
    }
    if (chrome === null) chrome = chromeTextOf(element, stats.get(element), texts);
    if (chrome !== undefined) {
      if (isNoteLabel(element, chrome)) continue; // kept whole: its bare number is the note's name
      if (isTermValue(element) || isDescribedTerm(element)) continue; // "Since: 1.5", "See Also:" over its links
      discountStats(element, stats, container);
      forgetAncestors(element, known);
      const parent = element.parent;
      detachUnsettled(element, unsettled);
      clearSectionsHoldMemo(parent);
      continue;
    }
    leaving.push(element);
    heights.push(stack.length);
    for (const child of element.children) if (isTag(child)) stack.push(child);
  }
  settleDetached(unsettled);
  stopSectionsHoldMemo();
}

/**
 * The text of a block that reads as chrome (`isChromeText`), else undefined. A list or group of
 * several blocks is judged block by block: "Last updated: ..." as one item of a details list takes
 * only that item. A wrapper of a code block ("1 2 3 4 5 6", an array printed in a docs page) is
 * judged as that code: read whole, its digits would pass for a date line.
 */
function chromeTextOf(element: Element, elementStats: TextStats | undefined, texts: Map<Element, string>): string | undefined {
  if (!elementStats || elementStats.text === 0 || elementStats.text > chromeTextMaximum || hasSeveralBlocks(element)) return undefined;
  // A `pre` counts as media: without any, there is no code to find (a walk of the whole subtree).
  if (elementStats.media > 0 && holdsCode(element)) return undefined;
  // Short (at most `chromeTextMaximum` characters): kept for each wrapper of a chain, which the walk
  // judges one by one before anything under them is taken out.
  const text = chainText(element, texts);
  return isChromeText(text) ? text : undefined;
}

/**
 * A heading that is only a date yet names a section: the page's title (an archive's "May 2020"), or
 * a heading with a block of text before it and a section's text under it (a diary's or an events
 * page's "February 2020", "May 2020"). A dateline heading sits above the text, right after the
 * title, and a teaser's date has links, not text, around it. Siblings are read through
 * `prev`/`next`, which stay right while nodes taken out wait to be settled.
 */
function isDateSectionHeading(heading: Element, stats: Map<Element, TextStats>): boolean {
  if (heading.name === 'h1') return true;
  const before = filledElementBefore(heading, stats);
  if (!before || headingTags.has(before.name) || !isTextBlock(stats.get(before))) return false;
  let text = 0;
  let linkText = 0;
  for (let node = heading.next; node && text < dateSectionMinimum; node = node.next) {
    if (!isTag(node)) continue;
    if (headingTags.has(node.name)) break;
    const nodeStats = stats.get(node);
    if (!nodeStats) continue;
    text += nodeStats.text;
    linkText += nodeStats.linkText;
  }
  return isTextBlock({ text, linkText });
}

/** Characters of text a block needs beside a date heading for both to be a section: a sentence or two. */
const dateSectionMinimum = 80;

function isTextBlock(blockStats: Pick<TextStats, 'text' | 'linkText'> | undefined): boolean {
  return !!blockStats && blockStats.text >= dateSectionMinimum && blockStats.linkText <= blockStats.text / 2;
}

/** The nearest element before `node` with text or media, past blank text, comments and empty blocks. */
function filledElementBefore(node: Element, stats: Map<Element, TextStats>): Element | undefined {
  for (let sibling = adjacentElement(node, 'prev'); sibling; sibling = adjacentElement(sibling, 'prev')) {
    const siblingStats = stats.get(sibling);
    if (!siblingStats || siblingStats.text > 0 || siblingStats.media > 0) return sibling;
  }
  return undefined;
}

/**
 * True when `removeChromeTexts` may take something under `heading`: a child element with text
 * that is not data (a child without text holds none below it, and data is never judged).
 */
function holdsJudgedChild(heading: Element, stats: Map<Element, TextStats>): boolean {
  for (const child of heading.children) {
    if (!isTag(child) || dataTags.has(child.name)) continue;
    const childStats = stats.get(child);
    if (!childStats || childStats.text > 0) return true;
  }
  return false;
}

/**
 * True when `removeChromeTexts`' verdict on `element` reads beyond its own subtree what may hold
 * nodes taken out: a definition's other paragraphs, a list's items (read once per list), a heading's
 * wrapper or `section` and what is around it. Every other verdict reads the element's stats, text
 * and children only; a heading standing alone reads its siblings' names and levels (`countPeers`
 * and `isHeadingWrapper` skip the nodes taken out, the siblings after it are settled) and settles
 * before it reads a section `div` around it (`SectionLevels.settle`).
 */
function readsAroundIt(element: Element, contentLists: Map<Element, boolean>): boolean {
  const parent = element.parent;
  if (!parent || !isTag(parent)) return headingTags.has(element.name);
  if (headingTags.has(element.name)) return parent.name === 'section' || isHeadingWrapper(parent);
  if (element.name === 'li') return !contentLists.has(parent);
  return element.name === 'p' && parent.name === 'dd';
}

/**
 * A note's label: wordless text holding links to places in this page (docutils' footnote label
 * `[<a href="#id1">1</a>]`, or `1(<a href="#id1">1</a>,<a href="#id2">2</a>)` with its back-links).
 * The number names the note; read alone it would pass for a bare date. ("Back to top" has words.)
 */
function isNoteLabel(element: Element, text: string): boolean {
  if (/\p{L}/u.test(text)) return false;
  return isInPageLink(element) || firstElement(element, isInPageLink) !== undefined;
}

/** True when a `pre` is inside `element` (Sphinx and Pygments wrap each code block in two `div`s). */
function holdsCode(element: Element): boolean {
  return firstElement(element, isPre) !== undefined;
}

// Predicates passed to the tree walks are module functions: an arrow written inside a function is a
// new function on every call, and V8 dropped its optimized code with it and compiled the next page's
// again (issue 14, tenth pass).
const isPre = (element: Element): boolean => element.name === 'pre';
/** A link with a word in it: a name, not a heading's permalink sign ("¶", "#"). */
const isWordLink = (element: Element): boolean => element.name === 'a' && /\p{L}/u.test(collapsedText(element));
const isSectionHeading = (element: Element): boolean => headingLevel(element) >= 2;
const isNotTable = (element: Element): boolean => element.name !== 'table';

/** True when at least two child elements are blocks with text (list items, paragraphs, rows). */
function hasSeveralBlocks(element: Element): boolean {
  // Fewer than two block children: no text to look for (a chain of wrappers read it all at each one).
  let candidates = 0;
  for (const child of element.children) if (isTag(child) && !inlineTags.has(child.name) && ++candidates >= 2) break;
  if (candidates < 2) return false;
  let blocks = 0;
  for (const child of element.children) {
    if (isTag(child) && !inlineTags.has(child.name) && hasCollapsedText(child) && ++blocks >= 2) return true;
  }
  return false;
}

function hasVisibleContent(element: Element, stats: Map<Element, TextStats>): boolean {
  const elementStats = stats.get(element);
  return !!elementStats && (elementStats.text > 0 || elementStats.media > 0);
}

/**
 * Drops "Related", "Comments", "Share this" sections: the heading and what follows it. Reads
 * `stats` as they were before the first removal; true when it removed anything (`stats` are then
 * out of date).
 */
function removeChromeSections(container: Element, stats: Map<Element, TextStats>): boolean {
  let removed = false;
  const headings = descendantElements(container, isSectionHeading);
  for (const heading of headings) {
    if (!heading.parent || !chromeSectionHeadingPattern.test(collapsedText(heading))) continue;
    if (isDocumentSection(heading)) continue;
    const level = headingLevel(heading);
    let start: Element = heading;
    while (start.parent && isTag(start.parent) && start.parent !== container) {
      const visible = start.parent.children.filter((child) => (isTag(child) ? hasVisibleContent(child, stats) : isText(child) && child.data.trim() !== ''));
      if (visible.length !== 1) break;
      start = start.parent;
    }
    const doomed: Element[] = [start];
    for (let node = start.next; node; node = node.next) {
      if (!isTag(node)) continue;
      const nextLevel = topHeadingLevel(node);
      if (nextLevel > 0 && nextLevel <= level) break;
      doomed.push(node);
    }
    doomed.forEach(detach);
    removed = true;
  }
  return removed;
}

/**
 * The highest heading level (smallest number) at or under `element`, 0 when there is none;
 * `below` remembers the level under each element it walks (for one look, a plain walk is cheaper).
 */
function topHeadingLevel(element: Element, below?: Map<Element, number>): number {
  const own = headingLevel(element);
  if (own > 0) return own;
  if (below) return levelBelow(element, below);
  let top = 0;
  for (const descendant of descendantElements(element)) {
    const level = headingLevel(descendant);
    if (level > 0 && (top === 0 || level < top)) top = level;
  }
  return top;
}

/**
 * The highest heading level under `element` (not itself), 0 when there is none: each element's
 * from its children's, in one walk of the part of the subtree `below` does not know yet (a walk
 * of the whole subtree per element is quadratic in nested sections).
 */
function levelBelow(element: Element, below: Map<Element, number>): number {
  const cached = below.get(element);
  if (cached !== undefined) return cached;
  for (const current of childrenFirst(element, below)) {
    let top = 0;
    for (const child of current.children) {
      if (!isTag(child) || child.parent !== current) continue; // past nodes a deferred detach took out
      const own = headingLevel(child);
      const under = below.get(child)!;
      if (own > 0 && (top === 0 || own < top)) top = own;
      if (under > 0 && (top === 0 || under < top)) top = under;
    }
    below.set(current, top);
  }
  return below.get(element)!;
}

/** An in-page link (`#id`): a heading's permalink widget, never content of its own. */
function isInPageLink(element: Element): boolean {
  return element.name === 'a' && (element.attribs.href?.startsWith('#') ?? false);
}

/**
 * A wrapper of one heading and its permalink widget (Starlight's `sl-heading-wrapper`), or of one
 * heading and inline notes beside it that say less than it does (an API item's heading with its
 * "since 1.0.0 · source" links: rustdoc's `main-heading` and item sections). The heading's own
 * words may be mostly links (a signature whose type names link to their pages): it is a heading
 * all the same.
 */
function isHeadingWrapper(element: Element): boolean {
  let heading: Element | undefined;
  let besideText = 0;
  for (const child of element.children) {
    if (child.parent !== element) continue; // past nodes a deferred detach took out
    if (isText(child)) {
      if (child.data.trim() !== '') return false; // loose text: a block of its own
      continue;
    }
    if (!isTag(child) || isInPageLink(child)) continue;
    if (headingTags.has(child.name)) {
      if (heading) return false; // a second heading
      heading = child;
    } else if (inlineTags.has(child.name)) besideText += collapsedText(child).length;
    else return false; // a block beside the heading
  }
  return heading !== undefined && besideText <= collapsedText(heading).length;
}

/** How many wrappers down from a block the tables holding its links are looked for (`ul > li > div > div.summary-table`). */
const gridWrapperDepth = 3;

/**
 * True for tables written in `div`s with their captions and wrappers (Javadoc's `ul.block-list >
 * li > div#interface`: `div.caption` "Interfaces" over its `div.summary-table`): every link of the
 * block is in a labelled grid (`isLabelledGrid`) at most three wrappers down, so what is beside
 * the tables is their captions, not more links.
 */
function isGridWrapper(element: Element, allStats: Map<Element, TextStats>): boolean {
  return gridLinksOnly(element, allStats, gridWrapperDepth) === 'grids';
}

/** 'grids' when every link under `element` is in a labelled grid (one at least), 'none' when it holds no link, else 'other'. */
function gridLinksOnly(element: Element, allStats: Map<Element, TextStats>, depth: number): 'grids' | 'none' | 'other' {
  let found: 'grids' | 'none' = 'none';
  for (const child of element.children) {
    if (!isTag(child) || (allStats.get(child)?.linkText ?? 0) === 0) continue;
    if (child.name === 'div' && isLabelledGrid(child)) found = 'grids';
    else if (depth === 0 || child.name === 'a') return 'other';
    else {
      const inner = gridLinksOnly(child, allStats, depth - 1);
      if (inner === 'other') return 'other';
      if (inner === 'grids') found = 'grids';
    }
  }
  return found;
}

interface Container {
  element: Element;
  stats: TextStats;
  /** Link density of the text outside the data tables it holds. */
  density: number;
  /** Class/id/role prior (0 when hints are off). */
  weight: number;
  /** Every element's stats (a rule may read a neighbour's). */
  allStats: Map<Element, TextStats>;
  /** Link density of the whole content being cleaned (its root's text as it stands). */
  contentDensity: number;
  /** What the subtree rules count under each element judged so far (see `subtreeSums`). */
  sums: SubtreeMemo;
}

/** Content with at least this share of its text in links is an index page (see 'list wrapper on a page of links'). */
const indexPageDensity = 0.5;

/** A container with a negative class/id name goes above this link density (the lowest of the rules). */
const negativeNameDensity = 0.25;

/**
 * What to do with a container left inside the content, first matching rule wins (no match: keep).
 * Lists are content (a documentation page's table of contents, its lists of API links) unless
 * their name is negative and links are many; other containers go when links dominate them, or
 * when their name is negative and links are many.
 */
type ClutterRule<Judged = Container> = readonly [string, (container: Judged) => boolean, 'keep' | 'remove'];

/** The first rules, which read the container's own stats and nothing else (no neighbour, no subtree). */
const statsRules: readonly ClutterRule<Pick<Container, 'stats'>>[] = [
  ['empty', ({ stats }) => stats.text === 0 && stats.media === 0, 'remove'],
  ['media without text', ({ stats }) => stats.text === 0, 'keep'],
];

const clutterRules: readonly ClutterRule[] = [
  ...statsRules,
  [
    'link list',
    ({ element, density, weight, allStats }) =>
      listTags.has(element.name) && weight < 0 && density > 0.3 && !isTermDescriptionList(element) && !isGridWrapper(element, allStats),
    'remove',
  ],
  ['list', ({ element }) => listTags.has(element.name), 'keep'],
  ['list wrapper', ({ element, density, weight }) => isSectionListWrapper(element) && !(weight < 0 && density > 0.3), 'keep'],
  [
    'list wrapper in a section body',
    ({ element, density, weight }) => isListWrapperInSectionBody(element) && !(weight < 0 && wrappedListWeight(element) < 0 && density > 0.3),
    'keep',
  ],
  // An index page (a manual's contents, a Sphinx `toctree` under the title): the content is its
  // lists of links, and a wrapped one is judged as its list is.
  [
    'lists on a page of links',
    ({ element, density, weight, contentDensity }) => contentDensity >= indexPageDensity && !(weight < 0 && density > 0.3) && isCaptionedListWrapper(element),
    'keep',
  ],
  ['announced list', ({ element, density, weight, allStats }) => !(weight < 0 && density > 0.3) && isAnnouncedList(element, allStats), 'keep'],
  ['document section', ({ element }) => isDocumentSectionBlock(element), 'keep'],
  ['whole body of a document section', ({ element, density }) => density > 0.4 && isWholeSectionBody(element), 'keep'],
  ['heading wrapper', ({ element }) => isHeadingWrapper(element), 'keep'],
  ['data table', ({ element }) => element.name === 'table' && hasHeaderCells(element), 'keep'],
  ['wrapper of a code block', ({ element }) => isCodeBlockWrapper(element), 'keep'],
  ['prose with many commas', ({ stats, density }) => stats.commas >= 10 && density < 0.5, 'keep'],
  ['addresses', ({ element, density, sums }) => density > 0.4 && isMostlyAddresses(subtreeSums(element, sums.counts)), 'keep'],
  ['sentences of code terms', ({ element, stats, density, sums }) => density > 0.4 && isProseBesideCodeTerms(element, stats, sums), 'keep'],
  // Footnotes are the text's own notes, whatever share of them is a cited URL.
  ['notes', ({ element }) => isNoteAside(element), 'keep'],
  ['headings with linked words', ({ element, density, sums }) => density > 0.4 && isHeadingsWithLinkedWords(element, sums, density), 'keep'],
  ['name beside its description', ({ element, density, allStats }) => density > 0.4 && isNameBesideDescription(element, allStats), 'keep'],
  ['rows named in plain text', ({ element, density, allStats }) => density > 0.4 && isTableOfNamedRows(soleTableOf(element), allStats), 'keep'],
  ['titled part of an entry', ({ element, density, allStats }) => density > 0.4 && isTitledPartOfEntry(element, allStats), 'keep'],
  [
    'labelled grid',
    ({ element, density, allStats }) =>
      density > 0.4 &&
      (isLabelledGrid(element) || (!!element.parent && isTag(element.parent) && isLabelledGrid(element.parent)) || isGridWrapper(element, allStats)),
    'keep',
  ],
  // An item's module and package over its title ("Module java.base", "Package java.util": `title-fields.ts`).
  ['fields of an item title', ({ element }) => isTitleField(element) || isFieldedTitleHeader(element), 'keep'],
  ['mostly links', ({ density }) => density > 0.4, 'remove'],
  ['negative name with links', ({ density, weight }) => weight < 0 && density > negativeNameDensity, 'remove'],
  ['table', ({ element }) => element.name === 'table', 'keep'],
  ['chrome element', ({ element, stats, density }) => chromeElementTags.has(element.name) && (density > 0.3 || stats.text < 100), 'remove'],
];

/**
 * A division holding one `pre` and nothing else but blank text: the frame of a code block
 * (Doxygen's `div.fragment` around an enum's listing, whose enumerators are links to their
 * descriptions), judged as the code it holds, not as links standing alone.
 */
function isCodeBlockWrapper(element: Element): boolean {
  if (element.name !== 'div') return false;
  let code = false;
  for (const child of element.children) {
    if (isTag(child)) {
      if (child.name !== 'pre' || code) return false;
      code = true;
    } else if (isText(child) && child.data.trim() !== '') return false;
  }
  return code;
}

/** Fewest links without text that make a row of icon buttons. */
const iconLinksNeeded = 3;
/** Most text beside them: a label ("Share this article", "Was this helpful?"), not a sentence. */
const iconRowLabelMaximum = 60;
/** An image declared at most this many CSS pixels each way is an icon, not a picture of the text. */
const iconImageMaximum = 64;
/** A row of icon pictures stands in one of these or in a label's own line. */
const iconImageRowTags: ReadonlySet<string> = new Set([...conditionalTags, 'p', 'span']);

/** Links with neither text nor a picture under `element` (an icon a stylesheet or a script draws), counted up to `enough`. */
function countIconLinks(element: Element, enough: number): number {
  iconLinksCounted = 0;
  iconLinksEnough = enough;
  firstElement(element, countsIconLink);
  return iconLinksCounted;
}

// The count lives in the module, not in a closure made per call (see `removeLinkRuns`).
let iconLinksCounted = 0;
let iconLinksEnough = 0;
const countsIconLink = (child: Element): boolean => child.name === 'a' && !hasCollapsedText(child) && ++iconLinksCounted >= iconLinksEnough;

const isDeclaredSmall = (value: string | undefined): boolean =>
  value !== undefined && /^\s*\d+(?:px)?\s*$/.test(value) && Number.parseInt(value, 10) <= iconImageMaximum;

/**
 * An image that is a button's face, not a picture: declared icon-sized both ways (a share icon of
 * 53 by 53 pixels), or one a click acts on (`onclick`: the stars of a rating widget).
 */
function isIconImage(image: Element): boolean {
  if (image.name !== 'img') return false;
  const { width, height, onclick } = image.attribs;
  return onclick !== undefined || (isDeclaredSmall(width) && isDeclaredSmall(height));
}

/**
 * The icons of a label-sized block whose pictures are all icons (`isIconImage`): its icon images
 * and its links with neither text nor a picture. 0 when any picture is not an icon. One walk of
 * the block: each element carries the link it stands in, so a picture marks its link once.
 */
function countIconsBesidePictures(element: Element, stats: Map<Element, TextStats>): number {
  let images = 0;
  const textlessLinks: Element[] = [];
  const linksWithPictures = new Set<Element>();
  const stack: Array<[Element, Element | undefined]> = [[element, undefined]];
  while (stack.length > 0) {
    const [node, link] = stack.pop()!;
    for (const child of node.children) {
      if (!isTag(child)) continue;
      if (child.name === 'img' || child.name === 'picture') {
        if (!isIconImage(child)) return 0;
        images += 1;
        if (link) linksWithPictures.add(link);
        continue;
      }
      const isTextlessLink = child.name === 'a' && stats.get(child)?.text === 0;
      if (isTextlessLink) textlessLinks.push(child);
      stack.push([child, isTextlessLink ? child : link]);
    }
  }
  return images + textlessLinks.filter((link) => !linksWithPictures.has(link)).length;
}

/**
 * Removes rows of icon buttons under a short label: a block (a conditional container) holding at
 * least three links with neither text nor a picture (share and rating buttons a script or a
 * stylesheet draws), no other picture, no link text and a few words beside them. Read without its icons
 * the label is all that is left of it, a question or an invitation with no answer. Judged by
 * shape, not by name: a site's class names are its own words. The largest such block goes; before
 * the clutter rules, which take the icons' empty wrappers first (children before parents) and
 * leave the label alone. Linear: below a label-sized block with fewer icon links none can have more.
 *
 * The icons may be pictures too (`isIconImage`): a rating's clickable stars under "Was this
 * article useful?", a share row of 53-pixel icons over "Share this post". Such a block goes when
 * every picture in it is an icon, also as a paragraph or a `span` of its own. Only the outermost
 * label-sized block holding pictures is read for them (one walk of each element in all).
 */
function removeIconLinkRows(container: Element, stats: Map<Element, TextStats>): void {
  // Two stacks side by side, not a pair per element: an array made for each of a page's elements.
  const stack: Element[] = container.children.filter(isTag);
  const picturesRead: boolean[] = stack.map(() => false);
  while (stack.length > 0) {
    const element = stack.pop()!;
    const isPictureRead = picturesRead.pop()!;
    const elementStats = stats.get(element);
    if (!elementStats) continue;
    const isLabelSized = elementStats.text <= iconRowLabelMaximum && elementStats.linkText === 0;
    let isBelowRead = isPictureRead;
    if (isLabelSized && elementStats.images === 0) {
      if (elementStats.text === 0 || countIconLinks(element, iconLinksNeeded) < iconLinksNeeded) continue;
      if (conditionalTags.has(element.name)) {
        discountStats(element, stats, container);
        detach(element);
        continue;
      }
    } else if (isLabelSized && elementStats.text > 0 && !isPictureRead) {
      isBelowRead = true;
      if (iconImageRowTags.has(element.name) && countIconsBesidePictures(element, stats) >= iconLinksNeeded) {
        discountStats(element, stats, container);
        detach(element);
        continue;
      }
    }
    for (const child of element.children) {
      if (!isTag(child)) continue;
      stack.push(child);
      picturesRead.push(isBelowRead);
    }
  }
}

/** Fewest e-mail addresses that make a block a list of contacts. */
const addressesNeeded = 3;

/**
 * True when the links of a block are mostly e-mail addresses written out (`mailto:` links whose
 * text is the address): a list of contributors or contacts, read as text, not a way to other pages.
 * A "Share by e-mail" link reads "Email", not an address.
 */
function isMostlyAddresses({ links, addresses }: SubtreeSums): boolean {
  return addresses >= addressesNeeded && addresses * 5 >= links * 4;
}

const isAddressLink = (link: Element): boolean => link.attribs.href?.toLowerCase().startsWith('mailto:') === true && collapsedText(link).includes('@');

/** Most of a block's text (the share) may be in links when links around code are read as text. */
const termProseMaximumDensity = 0.4;

/**
 * True when a block of sentences is link-dense only through links around code: an API docs
 * "See also" note names `loop.create_connection()` with a link to its reference, a term of the
 * sentence, not a way out of the page. Its other links must leave most of the text as prose.
 */
function isProseBesideCodeTerms(element: Element, stats: TextStats, memo: SubtreeMemo): boolean {
  const { termText } = subtreeSums(element, memo.counts);
  if (termText === 0) return false;
  if (!sentenceEnd.test(collapsedEnd(subtreeText(element, memo.texts)))) return false;
  return (stats.linkText - termText) / stats.text <= termProseMaximumDensity;
}

/** The collapsed text of a link around one `code` element (a term of the sentence), or 0. */
function codeTermText(link: Element): number {
  const children = link.children.filter((child) => isTag(child) || (isText(child) && child.data.trim() !== ''));
  return children.length === 1 && isTag(children[0]!) && children[0]!.name === 'code' ? collapsedText(link).length : 0;
}

const sentenceEnd = /[.!?]["'”’)]?$/;

/**
 * A wrapper whose one child is a list of links to other pages (Sphinx's `toctree-wrapper`): judged
 * as the list is. An outline of the page's own sections repeats its headings and is judged as any
 * other container.
 */
function isListWrapper(element: Element): boolean {
  if (hasOwnText(element)) return false;
  const children = element.children.filter(isTag);
  if (children.length !== 1 || !listTags.has(children[0]!.name)) return false;
  return firstElement(children[0]!, isOutboundLink) !== undefined;
}

const isAnchor = (element: Element): boolean => element.name === 'a';
/** A caption over a list ("Appendices" over a Sphinx toctree) is at most this long. */
const listCaptionMaximum = 80;

/**
 * A list wrapper (`isListWrapper`), or one whose list follows a short caption without links (a
 * Sphinx toctree's `p.caption`).
 */
function isCaptionedListWrapper(element: Element): boolean {
  if (isListWrapper(element)) return true;
  if (hasOwnText(element)) return false;
  const children = element.children.filter(isTag);
  if (children.length !== 2 || !listTags.has(children[1]!.name) || listTags.has(children[0]!.name)) return false;
  const caption = children[0]!;
  return (
    collapsedText(caption).length <= listCaptionMaximum &&
    firstElement(caption, isAnchor) === undefined &&
    firstElement(children[1]!, isOutboundLink) !== undefined
  );
}

/**
 * A list wrapper that is a document section's body (a Sphinx `toctree-wrapper` under its section
 * title). Elsewhere a wrapped list of links is judged as any other container: a "Related" box
 * after an article is one.
 */
function isSectionListWrapper(element: Element): boolean {
  const parent = element.parent;
  return isListWrapper(element) && !!parent && isTag(parent) && isDocumentSectionBlock(parent);
}

/**
 * A list wrapper standing in a document section's body, beside the section's other blocks
 * (asciidoc's `div.ulist` in `div.sect1 > h2 + div.sectionbody`: the commands giteveryday lists,
 * each a link and what it is for). It is judged as its list is, by the list's name: the wrapper's
 * ("ulist") names what it holds.
 */
function isListWrapperInSectionBody(element: Element): boolean {
  const parent = element.parent;
  return isListWrapper(element) && !!parent && isTag(parent) && isSectionBody(parent);
}

/** The class/id weight of the list a list wrapper holds. */
function wrappedListWeight(wrapper: Element): number {
  const list = wrapper.children.find(isTag);
  return list ? hintWeight(list) : 0;
}

/**
 * Section blocks already judged by `isSectionBody` in this cleanup: a section body holds many list
 * wrappers, and each asked again read the text of all its peers (quadratic on a page of thousands
 * of lists). Judged once, on the tree before the clutter went; emptied by `cleanContent`.
 */
let documentSectionBlocks = new WeakMap<Element, boolean>();

/** The body of one of a document's sections: with its heading, the only block with text of a section block. */
function isSectionBody(element: Element): boolean {
  const block = element.parent;
  if (!block || !isTag(block) || element.name !== 'div' || sectionBlockLevel(block) === 0) return false;
  settleWithin(block);
  const withText = block.children.filter((child) => isTag(child) && hasCollapsedText(child));
  if (withText.length !== 2 || withText[1] !== element) return false;
  let isSection = documentSectionBlocks.get(block);
  if (isSection === undefined) {
    isSection = isDocumentSectionBlock(block);
    documentSectionBlocks.set(block, isSection);
  }
  return isSection;
}

/**
 * A `section` opened by a heading that is one section of a flat, sectioned document: a part of
 * the document like any other, even when its whole body is a list of links ("Policies Introduced
 * by CMake 3.25", "Previous CVEs").
 */
function isDocumentSectionBlock(element: Element): boolean {
  const level = sectionBlockLevel(element);
  if (level === 0) return false;
  const parent = element.parent;
  if (!parent || !isTag(parent)) return false;
  const peers = sectionPeerCount(parent, element.name, level);
  if (element.name === 'section' ? peers >= sectionPeersNeeded(parent, level) : peers >= documentSectionPeers && sectionsHoldParent(parent, level)) return true;
  // Among section `div`s of its level that hold the document (Erlang's "Events" and "See Also"
  // beside its `div` sections), a `section` is one of them.
  if (element.name === 'section' && peers + sectionPeerCount(parent, 'div', level) >= documentSectionPeers && sectionsHoldParent(parent, level)) return true;
  if (isItemOfListOfSections(element, parent, level)) return true;
  if (isWrappedDocumentSection(parent, level)) return true;
  // The one subsection of a document's section (nipype's "Index of Interfaces" under its
  // "Interfaces", as docutils nests them) is a part of that document too.
  const parentLevel = sectionHeadingLevel(parent);
  return parentLevel > 0 && parentLevel < level && isDocumentSectionBlock(parent);
}

/** A block that wraps one section `div` of `level`, among that level's section `div`s of a document (see `wrapsSection`). */
function isWrappedDocumentSection(wrapper: Element, level: number): boolean {
  const parent = wrapper.parent;
  if (!parent || !isTag(parent) || !wrapsSection(wrapper, level)) return false;
  return sectionPeerCount(parent, 'div', level) >= documentSectionPeers && sectionsHoldParent(parent, level);
}

/** Fewest items of a list that are each one section for the list to be the document's sections. */
const listedSectionsNeeded = 2;

/**
 * A `section` that is the whole of a list item, in a list whose every item is one section of the
 * same level: the document's sections written as a list (Javadoc's class pages hold their
 * "Field Summary", "Constructor Summary", "Method Summary" as `ul.summary-list > li > section`,
 * and their details as `ul.details-list` the same way). Each is a part of the document like any
 * other, even when most of it is links to members and to the members inherited.
 */
function isItemOfListOfSections(element: Element, item: Element, level: number): boolean {
  if (element.name !== 'section' || item.name !== 'li') return false;
  const list = item.parent;
  if (!list || !isTag(list) || !listTags.has(list.name)) return false;
  let listLevel = listOfSectionsLevels.get(list);
  if (listLevel === undefined) {
    listLevel = levelOfListedSections(list);
    listOfSectionsLevels.set(list, listLevel);
  }
  return listLevel === level;
}

/**
 * Per list, the level of the sections it lists (0: not a list of sections): every section of a
 * long list asks it of the same list. Judged once, on the tree before the clutter went, as
 * `documentSectionBlocks`; emptied by `cleanContent`.
 */
let listOfSectionsLevels = new WeakMap<Element, number>();

function levelOfListedSections(list: Element): number {
  let level = 0;
  let sections = 0;
  for (const child of list.children) {
    if (!isTag(child)) continue;
    const withText = firstChildrenWithText(child);
    const section = withText.length === 1 ? withText[0]! : undefined;
    const sectionLevel = child.name === 'li' && section?.name === 'section' ? sectionBlockLevel(section) : 0;
    if (sectionLevel === 0 || (level !== 0 && sectionLevel !== level)) return 0;
    level = sectionLevel;
    sections++;
  }
  return sections >= listedSectionsNeeded ? level : 0;
}

/** How many wrappers up a section's whole body is looked for. */
const sectionBodyDepth = 4;

/**
 * True when `element` is, through wrappers with nothing else, the whole body of one of a
 * document's sections: that section's content like any other, even when it is only links (a
 * manual page's "SEE ALSO" over a paragraph of links to its sibling pages), as a list of links is.
 */
function isWholeSectionBody(element: Element): boolean {
  let current = element;
  // asciidoc's paragraph sits three wrappers down (`div.sect1 > div.sectionbody > div.paragraph > p`).
  for (let depth = 0; depth < sectionBodyDepth && current.parent && isTag(current.parent); depth++) {
    const parent: Element = current.parent;
    const withText = firstChildrenWithText(parent);
    if (sectionBlockLevel(parent) > 0 && isDocumentSectionBlock(parent)) return withText.length === 2 && withText[1] === current;
    if (withText.length !== 1) return false;
    current = parent;
  }
  return false;
}

/**
 * Per parent, its first three element children with text, while a walk keeps them (see
 * `keepTextChildren`): a section body's verdict asks its parent and up to four ancestors, and a
 * parent of thousands of children with no text before its last blocks (pictures, then links) was
 * read through all of them for each of its blocks (30 s for a 1 MB page).
 */
let textChildrenKept: Map<Element, Element[]> | undefined;

/** Starts (`true`) or ends keeping `firstChildrenWithText`'s answers, for a walk that changes the tree only by `forgetTextChildren` and a detach. */
function keepTextChildren(isKept: boolean): void {
  textChildrenKept = isKept ? new Map() : undefined;
}

/** `childrenWithText(parent, 3)`, kept while a walk allows (see `textChildrenKept`). */
function firstChildrenWithText(parent: Element): Element[] {
  let found = textChildrenKept?.get(parent);
  if (found === undefined) {
    found = childrenWithText(parent, 3);
    textChildrenKept?.set(parent, found);
  }
  return found;
}

/**
 * Before `element` is detached: forgets the kept answer of each ancestor whose answer holds the
 * child on the way down to `element` (that child goes, or may lose its text). Any other answer
 * stays right, since a detach only takes text away: a child without text never gains any, and
 * the children after the third with text are not read.
 */
function forgetTextChildren(element: Element): void {
  if (!textChildrenKept || textChildrenKept.size === 0) return;
  let child: AnyNode = element;
  for (let parent = element.parent; parent && isTag(parent); parent = parent.parent) {
    if (textChildrenKept.get(parent)?.includes(child as Element)) textChildrenKept.delete(parent);
    child = parent;
  }
}

/**
 * The first `most` element children of `parent` that hold text. Stopping there keeps a parent of
 * thousands of children from being read whole for each of them: the answer above needs to know
 * only whether there are one, two or more.
 */
function childrenWithText(parent: Element, most: number): Element[] {
  settleWithin(parent);
  const found: Element[] = [];
  for (const child of parent.children) {
    if (isTag(child) && hasCollapsedText(child) && found.push(child) >= most) break;
  }
  return found;
}

/**
 * Most wrappers between an announced list and the sentence's level (`blockquote > div > ul` is two).
 * Both walks below are bounded by it: unbounded, a page of thousands of nested single-child wrappers
 * walked its whole chain from every element of it (quadratic in the depth).
 */
const listWrapperDepth = 4;

/** The list a wrapper holds through a chain of single children with no text of their own (`blockquote > div > ul`). */
function wrappedList(element: Element): Element | undefined {
  let current = element;
  for (let depth = 0; depth < listWrapperDepth && !hasOwnText(current); depth++) {
    const children = current.children.filter(isTag);
    if (children.length !== 1) return undefined;
    current = children[0]!;
    if (listTags.has(current.name)) return current;
  }
  return undefined;
}

/** Shortest sentence that announces what follows it (not a "See also:" label). */
const introductionMinimum = 40;

/**
 * A list (or its wrapper) that the sentence before it announces: the previous block is prose of
 * the text, mostly not links, that ends with a colon ("...basic image manipulations, and
 * filesystem/storage interfaces:"). The list finishes that sentence, whatever share of it is links.
 */
function isAnnouncedList(element: Element, stats: Map<Element, TextStats>): boolean {
  if (!listTags.has(element.name) && !wrappedList(element)) return false;
  // Judged where the wrapping ends: the `div` of `blockquote > div > ul` has no sibling of its own.
  let outer = element;
  for (
    let depth = 0;
    depth < listWrapperDepth &&
    outer.parent &&
    isTag(outer.parent) &&
    outer.parent.name !== 'section' &&
    !hasOwnText(outer.parent) &&
    settledChildren(outer.parent).filter(isTag).length === 1;
    depth++
  )
    outer = outer.parent;
  let previous = outer.prev;
  while (previous && !isTag(previous)) {
    if (isText(previous) && previous.data.trim() !== '') return false;
    previous = previous.prev;
  }
  if (previous?.name !== 'p') return false;
  const previousStats = stats.get(previous);
  if (!previousStats || previousStats.text < introductionMinimum || linkDensity(previousStats) > 0.5) return false;
  return /:\s*$/.test(collapsedText(previous));
}

/** `parent.children` with no node a deferred detach took out (see `settleWithin`). */
function settledChildren(parent: Element): AnyNode[] {
  settleWithin(parent);
  return parent.children;
}

/** `footer`, `aside`, `nav` that survived inside the content: kept only as prose. */
const chromeElementTags: ReadonlySet<string> = new Set(['footer', 'aside', 'nav']);

/**
 * The link density of a container's text outside its data tables: a results table whose rows link
 * to each product is judged by the data-table rule, and its wrapper (the table and its heading)
 * by the rest.
 */
function densityBesideDataTables(element: Element, stats: TextStats, allStats: Map<Element, TextStats>, tables: Map<Element, TableText>): number {
  const density = linkDensity(stats);
  if (density <= negativeNameDensity || element.name === 'table') return density;
  const inTables = dataTableText(element, allStats, tables);
  if (inTables === noTableText) return density;
  const text = stats.text - inTables.text;
  const linkText = stats.linkText - inTables.linkText;
  return text > 0 ? linkText / text : 0;
}

/** Text and link text of the data tables under an element (a table inside another counts with that one). */
interface TableText {
  text: number;
  linkText: number;
}

/** No data table below: shared, never changed. */
const noTableText: TableText = Object.freeze({ text: 0, linkText: 0 });

/**
 * The text of the outermost data tables under `element`, each element's from its children's in
 * one walk of the part of the subtree `known` does not hold yet (a walk of the whole subtree per
 * container was quadratic in nested wrappers). Only for a subtree that no longer changes:
 * `removeClutter` judges children before parents.
 */
function dataTableText(element: Element, allStats: Map<Element, TextStats>, known: Map<Element, TableText>): TableText {
  const cached = known.get(element);
  if (cached !== undefined) return cached;
  // A table is read from `allStats`, not walked.
  for (const current of childrenFirst(element, known, isNotTable)) {
    let sum = noTableText;
    for (const child of current.children) {
      if (!isTag(child)) continue;
      const part = child.name === 'table' ? (hasHeaderCells(child) ? allStats.get(child) : undefined) : known.get(child);
      if (!part || part === noTableText) continue;
      if (sum === noTableText) sum = { text: 0, linkText: 0 };
      sum.text += part.text;
      sum.linkText += part.linkText;
    }
    known.set(current, sum);
  }
  return known.get(element)!;
}

/** A container is its headings' when they hold at least this share of its text. */
const headingsShare = 0.5;

const isHeadingElement = (element: Element): boolean => headingTags.has(element.name);

/** True when `node` has non-blank text outside links. */
function hasTextOutsideLinks(node: AnyNode): boolean {
  if (isText(node)) return node.data.trim() !== '';
  if (!isTag(node) || node.name === 'a') return false;
  return node.children.some(hasTextOutsideLinks);
}

/**
 * A container whose text is mostly headings, each with words of its own beside its links: an API
 * page's item headings, signatures whose type names link to their pages ("impl Copy for bool",
 * "pub fn iter(&self) -> Iter<'_, T>", rustdoc's implementors list). Its links are the headings'
 * words, not navigation. A list of linked headlines (a teaser block) has headings that are links
 * through and through, and is not one.
 */
function isHeadingsWithLinkedWords(element: Element, memo: SubtreeMemo, density: number): boolean {
  const { headings, linkedHeadings, plainHeadings } = subtreeSums(element, memo.counts);
  if (headings === 0 || linkedHeadings > 0) return false;
  const text = subtreeText(element, memo.texts);
  const length = collapsedLength(text);
  if (text.headingText >= headingsShare * length) return true;
  // Headings that each link a name among words of their own are signatures: beside each, a line
  // of links (rustdoc's "source" and "const: unstable", a summary's "Read more") is the item's,
  // and their share is read against the text outside links. A box of links under a plain title
  // ("Related posts") has a heading without a link.
  return plainHeadings === 0 && text.headingText >= headingsShare * length * (1 - density);
}

/**
 * What the subtree rules (addresses, code terms, headings with linked words) count under an
 * element, its descendants (not itself): links, `mailto:` addresses, the text of links around
 * code, headings.
 */
interface SubtreeSums {
  links: number;
  addresses: number;
  /** Collapsed text of the links around one `code` element (`codeTermText`). */
  termText: number;
  headings: number;
  /** Headings with no text outside their links. */
  linkedHeadings: number;
  /** Headings with no link that holds a word (a permalink sign is no name). */
  plainHeadings: number;
}

/**
 * The text under an element as `collapsedText` reads it before the trim (whitespace runs as one
 * space), read only when a rule gets that far (most link-dense blocks have no code term and no
 * heading): its length, whether it starts with its space, its last three characters (all when
 * shorter), and the collapsed text of its headings (a heading inside another counts in both, as a
 * list of them would).
 */
interface SubtreeText {
  headingText: number;
  length: number;
  leadingSpace: boolean;
  end: string;
}

/** Both memos, kept for one `removeClutter` walk. */
interface SubtreeMemo {
  counts: Map<Element, SubtreeSums>;
  texts: Map<Element, SubtreeText>;
}

const emptySums = (): SubtreeSums => ({ links: 0, addresses: 0, termText: 0, headings: 0, linkedHeadings: 0, plainHeadings: 0 });

/** Appends a piece of collapsed text (its length, leading space and last three characters) to `text`: a space run across the seam is one. */
function appendCollapsed(text: SubtreeText, length: number, leadingSpace: boolean, end: string): void {
  if (length === 0) return;
  if (text.length === 0) {
    text.length = length;
    text.leadingSpace = leadingSpace;
    text.end = end;
    return;
  }
  const seam = leadingSpace && text.end.endsWith(' ');
  text.end = length > 3 ? end : (text.end + (seam ? end.slice(1) : end)).slice(-3);
  text.length += seam ? length - 1 : length;
}

function appendText(text: SubtreeText, data: string): void {
  const collapsed = uncollapsedSpace.test(data) ? data.replace(/\s+/g, ' ') : data;
  appendCollapsed(text, collapsed.length, collapsed.startsWith(' '), collapsed.slice(-3));
}

const uncollapsedSpace = /[^\S ]| {2}/;

/** `collapsedText(element).length` from its subtree text. */
function collapsedLength({ length, leadingSpace, end }: SubtreeText): number {
  return Math.max(0, length - (leadingSpace ? 1 : 0) - (end.endsWith(' ') ? 1 : 0));
}

/** The last characters of `collapsedText(element)` (up to three; two when the text ends in a space run). */
function collapsedEnd({ end }: SubtreeText): string {
  return end.endsWith(' ') ? end.slice(0, -1) : end;
}

/**
 * The subtree sums of `element`, each element's from its children's in one walk of the part of
 * the subtree `known` does not hold yet: each rule listing the links or headings of every
 * link-dense container in a chain of nested ones read the page once per container (the parser's
 * depth cut, 1,024, bounded the chain). Only for a subtree that no longer changes, as
 * `dataTableText`.
 */
function subtreeSums(element: Element, known: Map<Element, SubtreeSums>): SubtreeSums {
  const cached = known.get(element);
  if (cached !== undefined) return cached;
  for (const current of childrenFirst(element, known)) {
    const sums = emptySums();
    for (const child of current.children) {
      if (!isTag(child)) continue;
      const below = known.get(child)!;
      sums.links += below.links;
      sums.addresses += below.addresses;
      sums.termText += below.termText;
      sums.headings += below.headings;
      sums.linkedHeadings += below.linkedHeadings;
      sums.plainHeadings += below.plainHeadings;
      if (child.name === 'a') {
        sums.links++;
        if (isAddressLink(child)) sums.addresses++;
        sums.termText += codeTermText(child);
      } else if (isHeadingElement(child)) {
        sums.headings++;
        if (!hasTextOutsideLinks(child)) sums.linkedHeadings++;
        else if (firstElement(child, isWordLink) === undefined) sums.plainHeadings++;
      }
    }
    known.set(current, sums);
  }
  return known.get(element)!;
}

/** The subtree text of `element`, as `subtreeSums` (each element's from its children's, once). */
function subtreeText(element: Element, known: Map<Element, SubtreeText>): SubtreeText {
  const cached = known.get(element);
  if (cached !== undefined) return cached;
  for (const current of childrenFirst(element, known)) {
    const text: SubtreeText = { headingText: 0, length: 0, leadingSpace: false, end: '' };
    for (const child of current.children) {
      if (isText(child)) appendText(text, child.data);
      else if (isTag(child)) {
        const below = known.get(child)!;
        text.headingText += below.headingText;
        if (isHeadingElement(child)) text.headingText += collapsedText(child).length;
        if (child.name === 'br') appendCollapsed(text, 1, true, ' ');
        appendCollapsed(text, below.length, below.leadingSpace, below.end);
      } else if ('children' in child) appendText(text, joinedText(child));
    }
    known.set(current, text);
  }
  return known.get(element)!;
}

/** A name cell is short (a signature at most), not a block of links... */
const nameMaximum = 200;
/** ...and the description beside it is mostly not links. */
const descriptionMaximumDensity = 0.4;

/**
 * A `div` cell that names an item beside the `div` cell that describes it, in a row or grid of
 * `div` cells (rustdoc's module item table: the item's link, then its one-line summary; Javadoc's
 * member summary: type, linked name, description). The name is the row's subject, not a link list.
 */
function isNameBesideDescription(element: Element, allStats: Map<Element, TextStats>): boolean {
  const parent = element.parent;
  if (element.name !== 'div' || !parent || !isTag(parent) || (allStats.get(element)?.text ?? 0) > nameMaximum) return false;
  const cells = divCellsOf(parent);
  if (!cells.has(element)) return false;
  let next = element.next;
  while (next && !isTag(next)) next = next.next;
  return next !== null && cells.has(next) && isDescriptionCell(next, allStats);
}

/** Per parent, its leading `div` children (see `divCellsOf`), read once: a grid of thousands is not rescanned per cell. */
const divCellsByParent = new WeakMap<Element, ReadonlySet<AnyNode>>();

/**
 * The `div` children of `parent` that come before its first child that is not a `div` (another
 * tag, or text that is not blank): the cells of a row or grid of `div` cells.
 */
function divCellsOf(parent: Element): ReadonlySet<AnyNode> {
  let cells = divCellsByParent.get(parent);
  if (cells === undefined) {
    settleWithin(parent);
    const found = new Set<AnyNode>();
    for (const child of parent.children) {
      if (!isTag(child)) {
        if (isText(child) && child.data.trim() !== '') break;
        continue;
      }
      if (child.name !== 'div') break;
      found.add(child);
    }
    cells = found;
    divCellsByParent.set(parent, cells);
  }
  return cells;
}

/** The rows of `table` itself (through `thead`/`tbody`/`tfoot`, not a nested table's). */
function ownRows(table: Element): Element[] {
  const rows: Element[] = [];
  for (const child of table.children) {
    if (!isTag(child)) continue;
    if (child.name === 'tr') rows.push(child);
    else if (child.name === 'tbody' || child.name === 'thead' || child.name === 'tfoot')
      for (const row of child.children) if (isTag(row) && row.name === 'tr') rows.push(row);
  }
  return rows;
}

/**
 * `element` when it is a table, or the one table it wraps with no text beside but a heading over it
 * and empty anchors (gtk-doc: `div > a[name] + h4 "Parameters" + div > table`).
 */
function soleTableOf(element: Element): Element | undefined {
  let current = element;
  for (let depth = 0; depth < 3; depth++) {
    if (current.name === 'table') return current;
    if (current.name !== 'div') return undefined;
    let only: Element | undefined;
    for (const child of current.children) {
      if (isTag(child)) {
        if (child.children.length === 0 || (!only && headingTags.has(child.name))) continue;
        if (only) return undefined;
        only = child;
      } else if (isText(child) && child.data.trim() !== '') return undefined;
    }
    if (!only) return undefined;
    current = only;
  }
  return current.name === 'table' ? current : undefined;
}

/**
 * A table whose rows open with a cell of plain text, no link in it, beside further cells: a list of
 * named things described (gtk-doc's parameter tables, `base_stream | a GOutputStream`), the names
 * its subjects even when every description is a linked type. A row of one cell across the table (a
 * section's heading, a separator) and a row whose first cell is empty (the description under a
 * name: Doxygen's member summaries, `int | SDL_OpenURL (const char *url)` under a "Functions" row)
 * name nothing and are passed over; a name that is itself a linked type (`SDL_bool`) may open a
 * few rows. A table of links (a navigation grid, a link farm) links its first column throughout.
 */
function isTableOfNamedRows(table: Element | undefined, allStats: Map<Element, TextStats>): boolean {
  if (!table) return false;
  const linkedTargets: (string | undefined)[] = [];
  const targets = new Map<string, number>();
  let named = 0;
  for (const row of ownRows(table)) {
    const cells = row.children.filter((child): child is Element => isTag(child) && (child.name === 'td' || child.name === 'th'));
    if (cells.length < 2) continue;
    const name = allStats.get(cells[0]!);
    if (!name || name.text === 0) continue;
    if (name.text > nameMaximum) return false;
    if (name.linkText === 0) {
      named++;
      continue;
    }
    const target = firstLinkTarget(cells[0]!);
    linkedTargets.push(target);
    if (target) targets.set(target, (targets.get(target) ?? 0) + 1);
  }
  // A first column whose links repeat a target is a column of values, the types of the named
  // things (Doxygen's "Data Fields": `Uint16 | version`, `Uint16 | type`, ... beside `const char * | name`):
  // a navigation grid or a link farm links each of its destinations once.
  let linked = 0;
  for (const target of linkedTargets) {
    if (target && (targets.get(target) ?? 0) > 1) named++;
    else linked++;
  }
  return named > 0 && linked <= linkedNamesMaximumShare * (named + linked);
}

/** The `href` of the first link under `cell`, if any. */
function firstLinkTarget(cell: Element): string | undefined {
  return firstElement(cell, isLinkWithTarget)?.attribs.href;
}

const isLinkWithTarget = (element: Element): boolean => element.name === 'a' && !!element.attribs.href;

/** Share of a table's name cells that may be links (types a generator links to their pages). */
const linkedNamesMaximumShare = 0.25;

function isDescriptionCell(cell: Element, allStats: Map<Element, TextStats>): boolean {
  const stats = allStats.get(cell);
  return stats !== undefined && stats.text > 0 && linkDensity(stats) <= descriptionMaximumDensity;
}

/**
 * A list whose every item holds a heading: a sequence of titled sections laid out as a list
 * (Javadoc's `ul.summary-list > li > section > h2` member summaries, `ul.member-list` details),
 * or a `div` of such items (rustdoc's `div#trait-implementations-list`: a disclosure per `impl`,
 * each titled by its `h3`).
 * A class that calls it a "list" says only what its tag says; chrome words (`nav`, `menu`, ...)
 * still count.
 */
function isListOfSections(element: Element): boolean {
  const isList = element.name === 'ul' || element.name === 'ol';
  if (!isList && element.name !== 'div') return false;
  const items = element.children.filter(isTag);
  return items.length > 0 && items.every((item) => (!isList || item.name === 'li') && firstElement(item, isHeadingElement) !== undefined);
}

function clutterHintWeight(element: Element): number {
  const weight = hintWeight(element);
  return weight < 0 && isListOfSections(element) ? hintWeight(element, true) : weight;
}

/** The verdict of the first matching clutter rule; true when the container should go. */
function isClutter(
  element: Element,
  stats: TextStats,
  options: CleanupOptions,
  allStats: Map<Element, TextStats>,
  tables: Map<Element, TableText>,
  contentDensity: number,
  sums: SubtreeMemo,
): boolean {
  const container: Container = {
    element,
    stats,
    density: densityBesideDataTables(element, stats, allStats, tables),
    weight: options.useClassHints ? clutterHintWeight(element) : 0,
    allStats,
    contentDensity,
    sums,
  };
  const verdict = clutterVerdict(container);
  // Whether the relaxed retry (weight 0) would judge it the same, asked until one verdict differs.
  if (container.weight !== 0 && !options.hintsMattered) {
    container.weight = 0;
    if (clutterVerdict(container) !== verdict) options.hintsMattered = true;
  }
  return verdict;
}

function clutterVerdict(container: Container): boolean {
  // A container no 'remove' rule applies to is kept whatever the 'keep' rules before them say: they
  // are read only when one does (most containers of a page of prose), since several read around it
  // (a section's peers and their text, a list's caption).
  if (!removeRules.some(([, applies]) => applies(container))) return false;
  for (const [, applies, verdict] of clutterRules) if (applies(container)) return verdict === 'remove';
  return false;
}

/** The rules of `clutterRules` that remove: each reads the container's name, stats, density and weight (and a list's term), nothing it changes. */
const removeRules = clutterRules.filter(([, , verdict]) => verdict === 'remove');

/** The verdict of the stats rules alone (true: remove, false: keep), undefined when none applies. */
function statsVerdict(stats: TextStats): boolean | undefined {
  for (const [, applies, verdict] of statsRules) if (applies({ stats })) return verdict === 'remove';
  return undefined;
}

function removeClutter(container: Element, options: CleanupOptions, stats: Map<Element, TextStats>): void {
  const elements = sharedElements(container);
  const tables = new Map<Element, TableText>();
  const sums: SubtreeMemo = { counts: new Map(), texts: new Map() };
  // Parents whose `children` still hold containers taken out: each settled when the walk reaches
  // it, or before a rule reads it (`settleWithin`), so every verdict reads the tree a one-by-one
  // removal leaves. Spliced out one by one, thousands of link blocks among kept paragraphs cost
  // each removal the kept siblings after it (9.5 s for 64,000 pairs, 4.8 MB).
  const unsettled = new Set<ParentNode>();
  const pending: PendingDiscount = { parent: undefined, removed: emptyTextStats() };
  const inHeadings = blocksInHeadings(elements, stats);
  startSectionsHoldMemo();
  keepTextChildren(true);
  deferDetaches(unsettled);
  try {
    // Backwards: children before parents.
    for (let index = elements.length - 1; index >= 0; index--) {
      const element = elements[index]!;
      settleReached(element);
      if (!conditionalTags.has(element.name) || !element.parent) continue;
      // A sibling's removal changes no stats of this element's subtree: the sum waits for them all.
      if (pending.parent !== undefined && pending.parent !== element.parent) flushDiscount(pending, stats, container);
      const elementStats = stats.get(element);
      if (!elementStats) continue;
      // An empty container goes, one with only media stays, whatever its name or neighbours (the
      // relaxed retry of `isClutter` judges it the same): thousands of empty blocks among kept
      // ones leave their parent's children unsettled, not spliced one by one.
      const early = statsVerdict(elementStats);
      if (early !== undefined) {
        if (early) {
          pending.parent = element.parent;
          addStats(pending.removed, elementStats);
          forgetTextChildren(element);
          forgetRemovalOf(element);
          detachUnsettled(element, unsettled);
        }
        continue;
      }
      flushDiscount(pending, stats, container);
      if (inHeadings.has(element)) continue;
      judging(element);
      if (isClutter(element, elementStats, options, stats, tables, linkDensity(stats.get(container)), sums)) {
        discountStats(element, stats, container);
        forgetTextChildren(element);
        forgetRemovalOf(element);
        detachUnsettled(element, unsettled);
      }
    }
    flushDiscount(pending, stats, container);
  } finally {
    deferDetaches(undefined);
    settleDetached(unsettled);
    keepTextChildren(false);
    stopSectionsHoldMemo();
  }
}

/** The stats of empty siblings `removeClutter` took out, not yet subtracted from their ancestors. */
interface PendingDiscount {
  parent: ParentNode | undefined;
  removed: TextStats;
}

/**
 * Subtracts the pending sum from the ancestors, as `discountStats` does for each removal: one walk
 * up for a run of siblings, not one each (200,000 empty `div`s flattened under 512 levels of
 * wrappers walked 512 ancestors each).
 */
function flushDiscount(pending: PendingDiscount, stats: Map<Element, TextStats>, container: Element): void {
  if (pending.parent === undefined) return;
  for (let node: ParentNode | null = pending.parent; node && isTag(node); node = node.parent) {
    const ancestor = stats.get(node);
    if (ancestor) addStats(ancestor, pending.removed, -1);
    if (node === container) break;
  }
  pending.parent = undefined;
  pending.removed = emptyTextStats();
}

/** Most text of a heading whose inner blocks are judged with it: a heading, not a page left inside an unclosed one. */
const headingTextMost = 300;

/**
 * The elements inside a heading, which goes or stays whole (the orphan-heading and chrome rules
 * judge it): Erlang's reference pages write a function's heading as `h4 > div.title-anchors +
 * div.title-name`, and the name's links to its types made that `div` "mostly links". Each element
 * is walked once: a heading inside one already listed is not walked again.
 */
function blocksInHeadings(elements: readonly Element[], stats: Map<Element, TextStats>): Set<Element> {
  const inside = new Set<Element>();
  for (const element of elements) {
    if (!headingTags.has(element.name) || inside.has(element) || (stats.get(element)?.text ?? 0) > headingTextMost) continue;
    for (const descendant of descendantElements(element)) if (descendant !== element) inside.add(descendant);
  }
  return inside;
}

/** How many wrappers up from a titled part the entry holding it is looked for. */
const entryDepth = 2;

/**
 * True when `element` is a titled part of an entry, or a block of one's body: the part opens with
 * a short heading that ranks above the heading opening the `section` or `article` around it. A
 * generated reference writes an entry's fields so (Erlang/OTP's `article > h4` function, whose
 * "Types" is an `h3` over lines such as `Set = set(Element)`, each mostly links to the types): a
 * field of the entry, however linked, not a box of links beside the text, whose heading ranks
 * below the text's.
 */
function isTitledPartOfEntry(element: Element, allStats: Map<Element, TextStats>): boolean {
  if (isTitledPart(element, allStats)) return true;
  const part = element.parent;
  return !!part && isTag(part) && firstChildrenWithText(part)[0] !== element && isTitledPart(part, allStats);
}

function isTitledPart(part: Element, allStats: Map<Element, TextStats>): boolean {
  const heading = firstChildrenWithText(part)[0];
  if (!heading || !headingTags.has(heading.name) || (allStats.get(heading)?.text ?? 0) > headingTextMost) return false;
  let entry = part.parent;
  for (let depth = 0; depth < entryDepth && entry && isTag(entry); depth++, entry = entry.parent) {
    if (!sectioningTags.has(entry.name)) continue;
    const opening = firstChildrenWithText(entry)[0];
    return !!opening && headingTags.has(opening.name) && headingLevel(opening) > headingLevel(heading);
  }
  return false;
}

/** Blocks that can form a run of stand-alone links ("Read next" lists written as paragraphs). */
const linkRunTags: ReadonlySet<string> = new Set(['p', 'div', 'h2', 'h3', 'h4', 'h5', 'h6', 'section']);
/** A block is a stand-alone link when at least this share of its text is link text. */
const linkOnlyDensity = 0.9;

/** Longer blocks are never judged as stand-alone links (a paragraph inside a broken `<a>`). */
const linkOnlyMaximum = 600;

/**
 * Removes stand-alone link blocks that come in twos or more: a run of sibling blocks that are each
 * just a link, or one block holding several links and nothing else ("Read next" lists written as
 * paragraphs).
 */
/** A link that leaves the page: in-page links (a heading's permalink `#id` widget) do not make a heading a list of links. */
const isOutboundLink = (child: Element): boolean => child.name === 'a' && !isInPageLink(child);

function outboundLinkCount(element: Element): number {
  return descendantElements(element, isOutboundLink).length;
}

function isLinkOnly(element: Element, stats: Map<Element, TextStats>): boolean {
  const elementStats = stats.get(element);
  if (!linkRunTags.has(element.name) || !elementStats || elementStats.text === 0) return false;
  // Its stats first: most blocks are no links at all, and the section rules below read around them
  // (a section's peers and their text).
  if (elementStats.text > linkOnlyMaximum || linkDensity(elementStats) < linkOnlyDensity) return false;
  // A list (or its wrapper) is judged as a list; a document's section is content; a heading
  // whose only links stay in the page (Sphinx's link back to the contents) is a title.
  if (isListWrapper(element) || isDocumentSectionBlock(element)) return false;
  // A table written in `div`s, or a cell of one (Javadoc's "Indirect Exports": a module, its
  // packages), is a table, as the clutter rules judge it ('labelled grid'), not links standing alone.
  if (isLabelledGrid(element) || (element.parent && isTag(element.parent) && isLabelledGrid(element.parent))) return false;
  if (headingTags.has(element.name) && outboundLinkCount(element) === 0) return false;
  // An item's module and package over its title ("Module java.base", "Package java.util") are its header's fields.
  if (isTitleField(element)) return false;
  return !isWholeSectionBody(element);
}

/** Removes `run` when it is a run of links (two or more, or one holding two links); empties it; the count removed. */
function flushLinkRun(run: Element[], stats: Map<Element, TextStats>, container: Element): number {
  const removed = run.length >= 2 || (run.length === 1 && outboundLinkCount(run[0]!) >= 2) ? run.length : 0;
  if (removed > 0) {
    // The run's elements are siblings: the answers about their parent and its ancestors go, but
    // for the peer counts of those whose child keeps its section level.
    forgetSiblingsRemoval(run);
    for (const element of run) {
      discountStats(element, stats, container);
      forgetTextChildren(element);
      detachUnsettled(element, linkRunParents);
    }
  }
  run.length = 0;
  return removed;
}

/**
 * The parent whose runs `removeLinkRuns` took out and left in its `children` until the walk is
 * done with it (`detachUnsettled`): spliced out one by one, thousands of link runs among kept
 * paragraphs cost each removal the kept siblings after it. The walk judges each child with
 * `judging`, so a rule that reads the parent's children or text settles it first (`settleWithin`);
 * the readers of a parent's first children skip the nodes taken out, which stand before the child
 * judged in this walk.
 */
const linkRunParents = new Set<ParentNode>();

/**
 * The run `removeLinkRuns` collects, one array for the module. An array literal made per call took
 * its elements kind from its allocation site, which moves from small integers to objects at the
 * first link run, and code optimized in between met arrays of the other kind. An empty literal kept
 * in the module still changed kind at its first push, after TurboFan had compiled the push for the
 * small-integer kind: a deoptimization and a recompile per crawl. This one is made holding an object
 * and emptied, so its kind is objects from the start and never changes.
 */
const linkRun: Element[] = emptyObjectArray();

/** An empty array whose elements kind is already objects (see `linkRun`). */
function emptyObjectArray<T extends object>(): T[] {
  const array: (T | null)[] = [null];
  array.length = 0;
  return array as T[];
}

function removeLinkRuns(container: Element, stats: Map<Element, TextStats>): void {
  // Module functions, not closures made per call: a closure made per page is a new function to V8,
  // whose optimized code goes with it, so a crawl compiled these again and again (issue 14, tenth pass).
  // No copy of each child list, no closure and no run array per parent (it allocated about 6 % of
  // a page's garbage): the children are read by index, which steps back past a removed run.
  const run = linkRun;
  run.length = 0;
  const elements = sharedElements(container);
  startSectionsHoldMemo();
  keepTextChildren(true);
  deferDetaches(linkRunParents);
  try {
    for (let parentIndex = -1; parentIndex < elements.length; parentIndex++) {
      const parent = parentIndex < 0 ? container : elements[parentIndex]!;
      const children = parent.children;
      // A flushed run stays in `children` until the parent is done or a verdict settles it (the
      // run's nodes stood before the child judged: the index steps back by as many).
      for (let index = 0; index < children.length; index++) {
        const child = children[index]!;
        if (isText(child) && child.data.trim() === '') continue;
        const length = children.length;
        const isLinkBlock = isTag(child) && isLinkOnlyJudged(child, stats);
        index -= length - children.length;
        if (isLinkBlock) run.push(child);
        else if (run.length > 0) flushLinkRun(run, stats, container);
      }
      if (run.length > 0) flushLinkRun(run, stats, container);
      settleDetached(linkRunParents);
    }
  } finally {
    run.length = 0;
    deferDetaches(undefined);
    settleDetached(linkRunParents);
    keepTextChildren(false);
    stopSectionsHoldMemo();
  }
}

/** `isLinkOnly`, with `child` named as the element judged (see `linkRunParents`). */
function isLinkOnlyJudged(child: Element, stats: Map<Element, TextStats>): boolean {
  judging(child);
  return isLinkOnly(child, stats);
}

/** Class/id names of caption blocks. */
const captionHintPattern = /caption|legend|credit/i;

function isCaption(element: Element): boolean {
  if (element.name === 'figcaption' || element.name === 'caption') return true;
  return hasHint(element, captionHintPattern);
}

/**
 * Drops later copies of a caption whose text already appeared (a slideshow repeats one caption
 * under every photo). Repeated prose stays: a meal plan may list the same dish twice.
 */
function removeRepeatedCaptions(container: Element, stats: Map<Element, TextStats>): void {
  const seen = new Set<string>();
  for (const element of sharedElements(container)) {
    if (!element.parent || !isCaption(element)) continue;
    const text = collapsedText(element);
    if (text === '') continue;
    if (seen.has(text)) {
      discountStats(element, stats, container);
      detach(element);
    } else seen.add(text);
  }
}

/**
 * A photo credit after a caption's last sentence ("... der Schweiz. © AFP / M. Bertorello",
 * "... René Klemmer. Foto: GdP/H. Immel"): the sentence end, then a copyright sign or a credit word
 * with a colon, then a short name.
 */
const creditTailPattern =
  /(?<=[.!?)»”"]\s+)(?:©|\(c\)|(?:foto|fotos|bild|bilder|photo|photos|picture|image|credit|credits|quelle|source|crédit|crédito|fuente)\s*:)[^©]{1,80}$/iu;

/** A caption: a caption element or class, or the text block right after a block that is only an image. */
function isCaptionBlock(element: Element, stats: Map<Element, TextStats>): boolean {
  if (isCaption(element)) return true;
  let previous = element.prev;
  while (previous && isText(previous) && previous.data.trim() === '') previous = previous.prev;
  const previousStats = previous && isTag(previous) ? stats.get(previous) : undefined;
  return !!previousStats && previousStats.images > 0 && previousStats.text === 0;
}

/** Cuts the photo credit off the end of each caption; the caption's own words stay. True when it cut any. */
function removeCreditTails(container: Element, stats: Map<Element, TextStats>): boolean {
  let isCut = false;
  for (const element of sharedElements(container)) {
    const elementStats = stats.get(element);
    if (!elementStats || elementStats.text === 0 || elementStats.text > chromeTextMaximum || elementStats.blocks !== 1) continue;
    if (!isCaptionBlock(element, stats)) continue;
    let last = element.lastChild;
    while (last && isText(last) && last.data.trim() === '') last = last.prev;
    if (!last || !isText(last)) continue;
    const match = creditTailPattern.exec(last.data.trimEnd());
    if (!match) continue;
    last.data = last.data.slice(0, match.index).trimEnd();
    isCut = true;
  }
  return isCut;
}

/**
 * A text node with words of its own that stands after its element's start: docutils writes a
 * section's last lines as bare text after an empty `<p></p>` (pandas' whatsnew "Contributors"),
 * and its parent's own text, counted where the parent opens, comes before the heading it follows.
 */
function isLooseText(node: AnyNode, isUnderHeadingOrLink: boolean): boolean {
  return !isUnderHeadingOrLink && isText(node) && node.prev !== null && /\S/.test(node.data);
}

/** Headings (h2-h6) with no text, media or deeper heading with content before the next heading of their level. */
function emptySectionHeadings(container: Element): Set<Element> {
  // Parallel lists, not an object per item: this runs twice per extraction pass.
  const items: Element[] = [];
  const levels: number[] = [];
  // Pre-order, as `descendantElements`, carrying per depth whether an ancestor below `container`
  // is a heading or an in-page link: no walk up from each element with text of its own.
  const lists: AnyNode[][] = [container.children];
  const next: number[] = [0];
  const underHeading: boolean[] = [false];
  const underLink: boolean[] = [false];
  // The nearest `section` or `article` around each depth's children, and the level of the first
  // heading met in each (see `levelInSection`).
  const sectionOf: (Element | undefined)[] = [undefined];
  const firstLevels = new Map<Element, number>();
  let depth = 1;
  while (depth > 0) {
    const parentDepth = depth - 1;
    const list = lists[parentDepth]!;
    const index = next[parentDepth]!;
    if (index >= list.length) {
      depth = parentDepth;
      continue;
    }
    next[parentDepth] = index + 1;
    const element = list[index]!;
    if (!isTag(element)) {
      if (isLooseText(element, underHeading[parentDepth]! || underLink[parentDepth]!)) {
        items.push(element.parent as Element);
        levels.push(0);
      }
      continue;
    }
    const level = levelInSection(headingLevel(element), sectionOf[parentDepth], firstLevels);
    const inHeading = underHeading[parentDepth]!;
    // A permalink widget's own text is inside it too.
    const inLink = underLink[parentDepth]! || isInPageLink(element);
    if (level > 0 || mediaTags.has(element.name) || (hasOwnText(element) && !inHeading && !inLink)) {
      items.push(element);
      levels.push(level);
    }
    if (element.children.length > 0) {
      lists[depth] = element.children;
      next[depth] = 0;
      underHeading[depth] = inHeading || level > 0;
      underLink[depth] = inLink;
      sectionOf[depth] = sectioningTags.has(element.name) ? element : sectionOf[parentDepth];
      depth++;
    }
  }
  return headingsWithoutContent(items, levels);
}

/**
 * A heading's level as its `section` or `article` reads it: no heading inside one ranks above the
 * heading that opens it, since the element's end closes what it opens, not its headings. Erlang
 * writes a function as `article > h4` with its "Types" as an `h3` further in: read as an `h3`, it
 * closed the "Exports" `h3` before the first function's text, and "Exports" went as empty.
 */
function levelInSection(level: number, section: Element | undefined, firstLevels: Map<Element, number>): number {
  if (level === 0 || !section) return level;
  const first = firstLevels.get(section);
  if (first === undefined) {
    firstLevels.set(section, level);
    return level;
  }
  return Math.max(level, first);
}

/**
 * The headings (level >= 2) of `items` with no content item before the next heading of their level
 * or above. Apart from the walk that lists the items: V8 compiles that walk's loop while it still
 * runs on the first page, before this scan ever ran, and the compiled code then left for the
 * interpreter at this scan's first comparison, on every page (106 times in one pass over
 * python-tornado-doc, issue 14, ninth pass).
 */
function headingsWithoutContent(items: Element[], levels: number[]): Set<Element> {
  const empty = new Set<Element>();
  for (let index = 0; index < items.length; index++) {
    const level = levels[index]!;
    if (level < 2) continue;
    // An index, not `items.slice(index + 1)`: a copy of the rest per heading was quadratic.
    let hasContent = false;
    for (let nextIndex = index + 1; nextIndex < items.length; nextIndex++) {
      const nextLevel = levels[nextIndex]!;
      if (nextLevel === 0) {
        hasContent = true;
        break;
      }
      if (nextLevel <= level) break;
    }
    if (!hasContent) empty.add(items[index]!);
  }
  return empty;
}

/**
 * How many children of each parent hold text that is not whitespace, read once per parent and kept
 * right as headings are detached (`detachHeading`): a parent's empty headings then ask it in
 * constant time. Reading the parent's whole text for each of them grew with the square of a page
 * of 16,000 headings after its text (16 s), and of headings that hold no text (39 s).
 */
type TextChildren = Map<ParentNode, number>;

function textChildrenOf(parent: ParentNode, counts: TextChildren): number {
  let count = counts.get(parent);
  if (count === undefined) {
    count = 0;
    for (const child of parent.children) if (hasCollapsedText(child)) count++;
    counts.set(parent, count);
  }
  return count;
}

/**
 * True when `ancestor` holds text outside `node`: `collapsedText(ancestor)` is then longer than
 * `collapsedText(node)`, and equal to it otherwise (collapsing keeps every character that is not
 * whitespace). Read level by level: past the first level with none, the child on the path holds
 * text exactly when `node` does.
 */
function hasTextBeside(node: Element, ancestor: ParentNode, counts: TextChildren): boolean {
  const own = hasCollapsedText(node) ? 1 : 0;
  for (let current: AnyNode = node; current !== ancestor && current.parent; current = current.parent) {
    if (textChildrenOf(current.parent, counts) > own) return true;
  }
  return false;
}

/** The elements that stand for one section of a document. */
const sectioningTags: ReadonlySet<string> = new Set(['section', 'article']);

/** True when the heading's parent holds text besides the heading (it sits in a flow of content). */
function isInFlow(heading: Element, counts: TextChildren): boolean {
  let parent = heading.parent;
  // Past a permalink wrapper (Starlight's `sl-heading-wrapper`: the heading and its `#id` link).
  while (parent && isTag(parent) && isHeadingWrapper(parent) && parent.children.some((child) => isTag(child) && isInPageLink(child))) {
    parent = parent.parent;
  }
  // Past a `section` or `article` that holds only the heading: a section its author left empty
  // (Sphinx), an entry with no description (Erlang's data types, `article > h4` each). The levels
  // below `inner` are known to hold no other text.
  let inner: Element = heading;
  while (parent && isTag(parent) && sectioningTags.has(parent.name) && !hasTextBeside(inner, parent, counts)) {
    inner = parent;
    parent = parent.parent;
  }
  return !!parent && isTag(parent) && hasTextBeside(inner, parent, counts);
}

/**
 * Detaches `heading`, first taking it out of the counts: its parent loses a child with text, and
 * a parent left with none is no longer one for its own parent. Each parent is read at most once
 * more (text only goes).
 */
function detachHeading(heading: Element, counts: TextChildren): void {
  if (counts.size > 0 && hasCollapsedText(heading)) {
    for (let node: AnyNode = heading; node.parent; node = node.parent) {
      const left = textChildrenOf(node.parent, counts) - 1;
      counts.set(node.parent, left);
      if (left > 0) break;
    }
  }
  detach(heading);
}

/**
 * Headings left with nothing under them go: their section was chrome, or they label a widget whose
 * body the page fills in later. A heading whose section was already empty in the page and that
 * sits in a flow of content (a "LICENSE: MIT" line, a group of signatures) stays. `isUnchanged`:
 * the cleanup neither detached a node nor cut a text since `emptyBefore` was found (the headings
 * empty now are those, not found again).
 */
function removeOrphanHeadings(container: Element, emptyBefore: Set<Element>, isUnchanged: boolean, stats: Map<Element, TextStats>): void {
  const counts: TextChildren = new Map();
  for (const heading of isUnchanged ? emptyBefore : emptySectionHeadings(container)) {
    if (emptyBefore.has(heading) && isInFlow(heading, counts)) continue;
    discountStats(heading, stats, container);
    detachHeading(heading, counts);
  }
}

/**
 * Cleans `container` in place. One measurement serves the rules: each rule that detaches subtracts
 * what it removed from the ancestors (`discountStats`), so the stats of the elements left stay what a new
 * `measureText` would give. Only a removed chrome section measures again (its rule reads the stats
 * from before its removals, and few pages have one).
 */
export function cleanContent(container: Element, options: CleanupOptions): void {
  documentSectionBlocks = new WeakMap();
  listOfSectionsLevels = new WeakMap();
  // The rules change the tree only by detaching (and `removeCreditTails` by cutting texts): one
  // walk of the content's elements serves them all until something is detached.
  shareElements(container);
  try {
    const detachedBefore = detachedCount();
    const emptyBefore = emptySectionHeadings(container);
    let stats = options.stats ?? measureText(container);
    if (removeChromeSections(container, stats)) stats = measureText(container);
    removeChromeTexts(container, stats);
    removeIconLinkRows(container, stats);
    removeClutter(container, options, stats);
    removeLinkRuns(container, stats);
    removePictureLabels(container, stats);
    removeRepeatedCaptions(container, stats);
    const isCut = removeCreditTails(container, stats);
    removeOrphanHeadings(container, emptyBefore, !isCut && detachedCount() === detachedBefore, stats);
    options.isStatsKept = options.stats !== undefined && stats === options.stats && !isCut;
  } finally {
    shareElements(undefined);
  }
}

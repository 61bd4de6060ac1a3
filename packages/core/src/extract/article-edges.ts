/**
 * Trims the edges of a chosen article: what a CMS template puts around the story inside the same
 * container as the story. Structural rules only (position against the title and the last prose
 * paragraph, link density, repeated sibling shape), no class names:
 *
 * - before the title `h1`: text that is an escaped tag (a tracking pixel the page printed as text)
 *   and blocks of links with no prose (category and tag lists, breadcrumbs); inside the title's
 *   own header, short labels beside it (a category or kicker: a few words, no sentence);
 * - after the last prose paragraph: runs of teasers (three or more blocks of one shape, each a
 *   linked headline or thumbnail with at most a one-line blurb) with the heading that introduces
 *   them, an address block (short lines with a postcode and a phone number, no sentence), a
 *   link that goes nowhere (`href="#"`, `javascript:`: a "back to top" or "print" button), and a
 *   short, wholly bold or italic line that ends the text right after its last paragraph;
 * - at either end of the text: a paragraph centred by its own style and wholly bold or italic, a
 *   sentence (an editor's note before the first paragraph, an author's bio after the last one).
 *
 * Also (`related-links.ts`, `dateline-name.ts`, `gallery-widget.ts`, `taxonomy-line.ts`, `share-actions.ts`): a byline
 * under the title (a linked name, or a name line right before the dateline), a list of other
 * stories' headlines after the text, a picture gallery whose captions the widget prints twice, a
 * line of `rel="tag"` / `rel="category"` links at an edge of the text, and a bar of share and
 * print buttons (`share-actions.ts`: links that pass an address on or go nowhere) with its label.
 *
 * Anywhere: an author box, the short block around a `rel="author"` link (name, photo, position),
 * a promoted headline: a paragraph that is one link to another page, between two prose
 * paragraphs or after the last one, and a group of teasers with no prose in it (three or more
 * same-shaped cards, each a headline or thumbnail that all leads to one other page: a carousel or
 * a "read also" block between paragraphs) with the heading right before it.
 *
 * Apart from an author box and a group of teasers, lists, tables, code and headings between the
 * title and the last paragraph are never touched.
 */
import { type AnyNode, type Element, type ParentNode, isTag, isText } from 'domhandler';
import { getAttributeValue } from 'domutils';
import { trimClosingBox, trimRepeatedRows, trimTitleDateline, trimTitledDiscussion, trimTrailingHeading } from './article-tail.js';
import {
  collapsedText,
  descendantElements,
  detach as detachNode,
  detachAll,
  firstElement,
  headingTags,
  isInline,
  isWhitespaceCode,
  isWithin,
} from './dom-tools.js';
import { nameBesideDateline } from './dateline-name.js';
import { trimGalleryWidgets } from './gallery-widget.js';
import { trimRelatedLinkLists, trimTitleByline } from './related-links.js';
import { trimShareBars } from './share-actions.js';
import { trimTaxonomyLines } from './taxonomy-line.js';
import { isTitleField } from './title-fields.js';
import { type TextStats, linkDensity } from './text-stats.js';

/**
 * Nodes `trimArticleEdges` detached in its current call: the caller keeps using the stats it
 * passed only when this stays 0 (the rules read stale ancestor stats after a removal, so they do
 * not discount as they go). The trim is synchronous, so one counter serves every call.
 */
let detachedCount = 0;

function detach(node: AnyNode): void {
  detachedCount++;
  detachNode(node);
}

/** Detaches many nodes at once (one pass over each parent's children, not a splice per node). */
function detachEach(nodes: readonly AnyNode[]): void {
  detachedCount += nodes.length;
  detachAll(nodes);
}

/** The flow's elements in document order (`descendantElements(flow)`), as the rules read them. */
type FlowElements = () => Element[];

/**
 * The flow's elements for one trim, walked again only after a rule detached something: most
 * articles lose nothing to the trim, and five rules walked the whole flow each (a quarter of the
 * element walks of a page's transform). The list is read, never changed, by the rules.
 */
function flowElementsOf(flow: Element): FlowElements {
  let elements: Element[] | undefined;
  let walkedAt = -1;
  return () => {
    if (elements === undefined || walkedAt !== detachedCount) {
      elements = descendantElements(flow);
      walkedAt = detachedCount;
    }
    return elements;
  };
}

/** Text that is nothing but one or more HTML tags, printed as text. */
const escapedMarkupPattern = /^(?:<\/?[a-z][a-z0-9-]*(?:\s[^<>]*)?\/?>\s*)+$/i;
/** A block before the title is a link list when at least this share of its text is links. */
const leadingLinkDensity = 0.5;

/** A prose paragraph: this much text, few links, a sentence end. */
const proseMinimumText = 80;
const proseMaximumLinkDensity = 0.25;
const sentenceEndPattern = /[.!?。！？]["'”’)]?(?:\s|$)/;

/** A teaser run has at least this many items of one shape... */
const teaserMinimumItems = 3;
/** ...each at most this long (weighted characters: a headline and a one-line blurb)... */
const teaserMaximumText = 250;
/** ...and they make up at least this share of their container's element children. */
const teaserRunShare = 0.8;
/** In a group, a teaser with a linked headline and a linked thumbnail may be this long (a blurb of a paragraph). */
const longTeaserMaximumText = 700;

/** An address block: at least this many short lines... */
const addressMinimumLines = 3;
/** ...none longer than this... */
const addressMaximumLine = 80;
/** A postcode beside a place name ("OR 97000", "12345 Berlin")... */
const postcodeLinePattern = /(?:^|\s)\d{4,5}\s+\p{L}|\p{L}\s+\d{4,5}(?:\s|$)/u;
/** ...and a phone number (seven digits or more in a run of digits and separators). */
const phoneLinePattern = /\+?\(?\d[\d\s()./-]{6,}\d/;
const phoneMinimumDigits = 7;

/** A label beside the title in its header (a category, a kicker): at most this long... */
const labelMaximumText = 40;
/** ...and at most this many words. */
const labelMaximumWords = 4;

/** An author box (the name linked with `rel="author"`, a photo, a one-line position) is at most this long. */
const authorBoxMaximumText = 200;

/** A link that leads nowhere: a script button or a jump to the top of the page. */
const deadHrefPattern = /^\s*(?:#(?:top)?|javascript:.*)?\s*$/i;
/** An `href` to a named place of the page itself (`#del_lock-1`), not the bare `#` or `#top` of a control. */
const inPageTargetPattern = /^\s*#(?!top\s*$)[^\s#]/i;

/** True when all of the block's text sits in links that lead nowhere. */
function isDeadLinkBlock(element: Element, stats: TextStats | undefined): boolean {
  if (!stats || stats.text === 0 || stats.linkText < stats.text) return false;
  const links = element.name === 'a' ? [element] : descendantElements(element, (child) => child.name === 'a');
  return links.length > 0 && links.every((link) => link.attribs.href !== undefined && deadHrefPattern.test(link.attribs.href));
}

/** How many wrappers deep the end of the text is followed. */
const maximumDepth = 12;

/** The level where the article's blocks sit side by side: down through single wrappers. */
function flowOf(container: Element): Element {
  let flow = container;
  for (;;) {
    const meaningful = flow.children.filter((child) => isTag(child) || (isText(child) && child.data.trim() !== ''));
    const [only] = meaningful;
    if (meaningful.length !== 1 || !only || !isTag(only) || isInline(only) || headingTags.has(only.name)) return flow;
    flow = only;
  }
}

/** A paragraph of prose: a `p` (or a `div` of inline content) with enough text, few links, a sentence end. */
function isProseParagraph(element: Element, stats: TextStats | undefined): boolean {
  if (element.name !== 'p' && element.name !== 'div') return false;
  // Only inline content below (the element is its subtree's only block): a wrapper is not a paragraph.
  if (stats?.blocks !== 1) return false;
  if (stats.text < proseMinimumText || linkDensity(stats) >= proseMaximumLinkDensity) return false;
  // The text as written: a sentence end is followed by a whitespace run (one space once collapsed)
  // or by the end (trailing whitespace trimmed), so the answer is the collapsed text's, without
  // collapsing every paragraph.
  if (sentenceEndsAt !== detachedCount) {
    sentenceEnds.clear();
    sentenceEndsAt = detachedCount;
  }
  let hasEnd = sentenceEnds.get(element);
  if (hasEnd === undefined) sentenceEnds.set(element, (hasEnd = hasSentenceEnd(element)));
  return hasEnd;
}

/**
 * `hasSentenceEnd` of each paragraph asked in the current `trimArticleEdges`, while it detached
 * nothing more (`sentenceEndsAt`): a dozen of its rules ask it of the same paragraphs, whose text
 * does not change unless a node is detached. Cleared at each call's start and end.
 */
const sentenceEnds = new Map<Element, boolean>();
let sentenceEndsAt = -1;

/** An end mark of `sentenceEndPattern`: `.!?。！？`. */
function isEndMark(code: number): boolean {
  return code === 0x2e || code === 0x21 || code === 0x3f || code === 0x3002 || code === 0xff01 || code === 0xff1f;
}

/** A closing mark `sentenceEndPattern` allows after the end mark: `"'”’)`. */
function isClosingMark(code: number): boolean {
  return code === 0x22 || code === 0x27 || code === 0x29 || code === 0x201d || code === 0x2019;
}

/**
 * `sentenceEndPattern.test(joinedText(element))`, read from the text nodes where they are: the
 * paragraph's text is not joined into a new string, and the walk stops at the first sentence end
 * (three rules ask it of every paragraph of a page).
 */
function hasSentenceEnd(element: Element): boolean {
  // 0: no sentence end pending; 1: after an end mark; 2: after an end mark and a closing mark.
  let state = 0;
  const stack: AnyNode[] = [element];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (isText(current)) {
      const text = current.data;
      for (let index = 0; index < text.length; index++) {
        const code = text.charCodeAt(index);
        if (state !== 0 && isWhitespaceCode(code)) return true;
        state = state === 1 && isClosingMark(code) ? 2 : isEndMark(code) ? 1 : 0;
      }
    } else if (isTag(current) && current.name === 'br') {
      if (state !== 0) return true; // a line break joins as a space
    } else if ('children' in current) {
      const children = (current as ParentNode).children;
      for (let index = children.length - 1; index >= 0; index--) stack.push(children[index]!);
    }
  }
  return state !== 0;
}

/** The prose paragraphs under `root` and every element that holds one, found in one pass. */
function proseHolders(root: Element, stats: Map<Element, TextStats>, elements: FlowElements): Set<Element> {
  const holders = new Set<Element>();
  for (const element of elements()) {
    if (!isProseParagraph(element, stats.get(element))) continue;
    for (let node: Element | null = element; node && !holders.has(node); node = node.parent as Element | null) {
      holders.add(node);
      if (node === root) break;
    }
  }
  return holders;
}

/** The shape of a teaser item: tag and class. */
const shapeOf = (element: Element): string => `${element.name} ${element.attribs.class ?? ''}`;
/** The structure of a teaser item: its tag and its children's tags. */
const structureOf = (element: Element): string =>
  `${element.name}>${element.children
    .filter(isTag)
    .map((child) => child.name)
    .join(' ')}`;

/**
 * A heading that links to a place in this page (its permalink, Sphinx's link back to the
 * contents) titles a section of the page: it is not a teaser's headline.
 */
function isSectionTitle(heading: Element): boolean {
  return firstElement(heading, (child) => child.name === 'a' && /^#./.test(child.attribs.href ?? '')) !== undefined;
}

/**
 * A box opened by a heading with no link in it (past empty anchors: `<div><a name></a><h2>Types and
 * Values</h2>…`) is a section of the document, titled by its author, however short: a teaser's
 * headline links to the story it announces. gtk-doc closes each reference page with three or more
 * such short sections ("Types and Values", "Property Details", "See Also"), which read as a run of
 * same-shaped teasers after the last prose paragraph.
 */
function opensWithPlainHeading(element: Element, stats: Map<Element, TextStats>): boolean {
  if (element.name !== 'div' && element.name !== 'section') return false;
  const first = element.children.find((child): child is Element => isTag(child) && child.children.length > 0);
  if (!first || !headingTags.has(first.name)) return false;
  const headingStats = stats.get(first);
  return !!headingStats && headingStats.text > 0 && headingStats.linkText === 0;
}

/** A heading whose whole text is a link to another page: a teaser's headline. */
function isLinkedHeadline(heading: Element, stats: Map<Element, TextStats>): boolean {
  const headingStats = stats.get(heading);
  return !!headingStats && headingStats.text > 0 && headingStats.linkText === headingStats.text && !isSectionTitle(heading);
}

/**
 * One teaser: short, holds a link, and is a headline or a thumbnail rather than a sentence. In a
 * group of teasers (`isLong`) an item may carry a longer blurb when it has both a linked headline
 * and a linked thumbnail ("next story" boxes: headline, picture, first paragraph, "read more").
 */
function isTeaserItem(element: Element, stats: Map<Element, TextStats>, isLong = false): boolean {
  const itemStats = stats.get(element);
  if (!itemStats || itemStats.linkText === 0) return false;
  if (opensWithPlainHeading(element, stats)) return false;
  if (itemStats.text > (isLong ? longTeaserMaximumText : teaserMaximumText)) return false;
  const inner = descendantElements(element);
  // Loops, not `some` with an arrow made per call, which V8 compiled again on later pages (issue 14, tenth pass).
  let hasHeading = false;
  let hasThumbnail = false;
  for (const child of inner) {
    if (!hasHeading && headingTags.has(child.name) && !isSectionTitle(child)) hasHeading = true;
    if (child.name !== 'a') continue;
    if (!hasThumbnail && (stats.get(child)?.images ?? 0) > 0) hasThumbnail = true;
    // A link to a named place of this page (an entry's permalink, a reference to a type defined
    // above) makes the item an entry of this page: a teaser opens another one.
    if (inPageTargetPattern.test(getAttributeValue(child, 'href') ?? '')) return false;
  }
  if (itemStats.text > teaserMaximumText) {
    if (!hasThumbnail) return false;
    for (const child of inner) if (headingTags.has(child.name) && isLinkedHeadline(child, stats)) return true;
    return false;
  }
  // A plain list item holding a link and a few words is a list of links (content), not a teaser.
  return hasHeading || hasThumbnail;
}

/** True when most element children of `element` are teasers of one shape. */
function isTeaserGroup(element: Element, stats: Map<Element, TextStats>): boolean {
  const items = element.children.filter(isTag);
  if (items.length < teaserMinimumItems) return false;
  const shapes = new Map<string, number>();
  for (const item of items) {
    if (isTeaserItem(item, stats, true)) shapes.set(shapeOf(item), (shapes.get(shapeOf(item)) ?? 0) + 1);
  }
  const largest = Math.max(0, ...shapes.values());
  if (largest >= teaserMinimumItems && largest >= teaserRunShare * items.length) return true;
  // A list of teasers: `ul > li > div.card` and the like.
  return items.length === 1 && isTeaserGroup(items[0]!, stats);
}

/**
 * True when every link of `item` leads to one other page: a teaser's headline, picture and "read
 * more" all open its story. An entry of a reference page (`impl BitXor<bool> for bool`) links
 * each of its names somewhere else.
 */
function leadsToOneStory(item: Element): boolean {
  let target: string | undefined;
  for (const link of descendantElements(item, (child) => child.name === 'a')) {
    const href = getAttributeValue(link, 'href');
    if (href === undefined || deadHrefPattern.test(href) || /^\s*#/.test(href)) return false;
    if (target !== undefined && href !== target) return false;
    target = href;
  }
  return target !== undefined;
}

/**
 * True when the text of `item` outside its links and headings holds a sentence end: an entry of a
 * reference page describes its linked name ("Creates a new `GtkButton` widget."); a teaser's words
 * are its headline, a kicker and its link.
 */
function hasLooseSentence(item: Element): boolean {
  const parts: string[] = [];
  const stack: AnyNode[] = [];
  for (const child of item.children) stack.push(child);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isText(node)) parts.push(node.data);
    else if (isTag(node) && node.name !== 'a' && !headingTags.has(node.name)) for (const child of node.children) stack.push(child);
  }
  return sentenceEndPattern.test(`${parts.join(' ').trim()} `);
}

/** True when a link of `item` holds a picture: a teaser's thumbnail, which a reference entry does not have. */
function hasLinkedPicture(item: Element, stats: Map<Element, TextStats>): boolean {
  return firstElement(item, (child) => child.name === 'a' && (stats.get(child)?.images ?? 0) > 0) !== undefined;
}

/**
 * A group of teasers inside the text: at least three same-shaped teasers making up most of the
 * group's children that carry text or media (a carousel's decorative empty `div`s between its cards
 * do not count), each leading to one other page and either linking a picture or holding no
 * sentence outside its links and headings, and no prose paragraph anywhere in it: a carousel of
 * other stories, a "read also" block between two paragraphs.
 */
function isInlineTeaserGroup(element: Element, stats: Map<Element, TextStats>, holders: Set<Element>): boolean {
  // A paragraph (only inline content below), or a block without links, holds no cards: most elements stop here.
  const elementStats = stats.get(element);
  if (!elementStats || elementStats.linkText === 0 || elementStats.blocks <= teaserMinimumItems || holders.has(element)) return false;
  const items: Element[] = [];
  for (const child of element.children) {
    if (!isTag(child)) continue;
    const childStats = stats.get(child);
    if (childStats && (childStats.text > 0 || childStats.media > 0)) items.push(child);
  }
  if (items.length < teaserMinimumItems) return false;
  const shapes = new Map<string, number>();
  for (const item of items) {
    if (isTeaserItem(item, stats, true) && leadsToOneStory(item) && (hasLinkedPicture(item, stats) || !hasLooseSentence(item)))
      shapes.set(shapeOf(item), (shapes.get(shapeOf(item)) ?? 0) + 1);
  }
  let largest = 0;
  for (const count of shapes.values()) if (count > largest) largest = count;
  return largest >= teaserMinimumItems && largest >= teaserRunShare * items.length;
}

/**
 * The block a teaser group fills: the group, or the outermost wrapper above it (below the flow)
 * whose text is all the group's.
 */
function groupBlockOf(group: Element, flow: Element, stats: Map<Element, TextStats>): Element {
  const text = stats.get(group)?.text ?? 0;
  let block = group;
  for (let node = group.parent; node && isTag(node) && node !== flow && stats.get(node)?.text === text; node = node.parent) block = node;
  return block;
}

/**
 * Removes groups of teasers anywhere in the flow (the outermost group of a nest), each with the
 * wrapper it fills and the heading right before that wrapper when nothing follows it in its parent
 * (a carousel titled "More on ...").
 */
function trimInlineTeaserGroups(flow: Element, stats: Map<Element, TextStats>, holders: Set<Element>, elements: FlowElements): void {
  const groups: Element[] = [];
  for (const element of elements()) {
    if (groups.length > 0 && isWithin(element, groups[groups.length - 1]!)) continue;
    if (isInlineTeaserGroup(element, stats, holders)) groups.push(element);
  }
  const removed: Element[] = [];
  for (const group of groups) {
    const block = groupBlockOf(group, flow, stats);
    removed.push(block);
    const previous = neighbourOf(block, 'prev', stats);
    if (previous && headingTags.has(previous.name) && neighbourOf(block, 'next', stats) === null) removed.push(previous);
  }
  detachEach([...new Set(removed)]);
}

/** Lines of a block: text between `br`s and child blocks. */
function linesOf(element: Element): string[] {
  const lines: string[] = [''];
  for (const child of element.children) addLines(child, lines);
  const result: string[] = [];
  for (const line of lines) {
    const collapsed = line.replace(/\s+/g, ' ').trim();
    if (collapsed !== '') result.push(collapsed);
  }
  return result;
}

/** `linesOf`'s walk: a module function, not a closure made per call (V8 compiled those again on later pages). */
function addLines(node: AnyNode, lines: string[]): void {
  if (isText(node)) lines[lines.length - 1] += node.data;
  else if (isTag(node)) {
    const breaks = node.name === 'br' || !isInline(node);
    if (breaks) lines.push('');
    for (const child of node.children) addLines(child, lines);
    if (breaks) lines.push('');
  }
}

/** An address block: `address`, or short lines with a postcode line and a phone line, no sentence. */
function isAddressBlock(element: Element, stats: TextStats | undefined): boolean {
  if (element.name === 'address') return true;
  if (!stats || stats.text === 0 || stats.text > addressMinimumLines * addressMaximumLine * 2) return false;
  if (headingTags.has(element.name) || element.name === 'table' || element.name === 'pre') return false;
  const lines = linesOf(element);
  if (lines.length < addressMinimumLines || lines.some((line) => line.length > addressMaximumLine)) return false;
  if (lines.some((line) => sentenceEndPattern.test(`${line} `) && !/\d\.\s*$/.test(line))) return false;
  const hasPhone = lines.some((line) => {
    const phone = line.match(phoneLinePattern)?.[0];
    return phone !== undefined && phone.replace(/\D/g, '').length >= phoneMinimumDigits;
  });
  return hasPhone && lines.some((line) => postcodeLinePattern.test(line));
}

/** The flow-level block holding `node`, if any. */
function blockOf(flow: Element, node: Element): AnyNode | undefined {
  let current: AnyNode = node;
  while (current.parent && current.parent !== flow) current = current.parent;
  return current.parent === flow ? current : undefined;
}

function trimBeforeTitle(flow: Element, title: Element, stats: Map<Element, TextStats>, holders: Set<Element>): void {
  const titleBlock = blockOf(flow, title);
  if (!titleBlock) return;
  const before = flow.children.slice(0, flow.children.indexOf(titleBlock as (typeof flow.children)[number]));
  for (const node of before) {
    if (isText(node)) {
      if (escapedMarkupPattern.test(node.data.trim())) detach(node);
    } else if (isTag(node)) {
      const nodeStats = stats.get(node);
      if (!nodeStats || nodeStats.text === 0) continue; // an image or a figure above the title stays
      if (escapedMarkupPattern.test(collapsedText(node))) detach(node);
      else if (linkDensity(nodeStats) >= leadingLinkDensity && !holders.has(node)) detach(node);
    }
  }
}

/** A short label with no sentence, image or heading: a category or kicker printed beside the title. */
function isTitleLabel(element: Element, stats: TextStats | undefined): boolean {
  if (!stats || stats.text === 0 || stats.text > labelMaximumText || stats.media > 0) return false;
  if (headingTags.has(element.name) || firstElement(element, (child) => headingTags.has(child.name)) !== undefined) return false;
  const text = collapsedText(element);
  return text.split(' ').length <= labelMaximumWords && !sentenceEndPattern.test(`${text} `);
}

/**
 * Removes the labels that share the title's header: the siblings before the title and before each
 * of its wrappers up to the flow (`div.info > span.category` beside `h1`). Only when no prose comes
 * before the title, so a heading found in the middle of the text keeps what precedes it.
 */
function trimTitleLabels(flow: Element, title: Element, stats: Map<Element, TextStats>, holders: Set<Element>): void {
  const titleBlock = blockOf(flow, title);
  if (!titleBlock) return;
  const blocks = flow.children.filter(isTag);
  if (blocks.slice(0, blocks.indexOf(titleBlock as Element)).some((block) => holders.has(block))) return;
  for (let node: Element = title; node !== flow && node.parent && isTag(node.parent); node = node.parent) {
    const siblings = node.parent.children;
    for (const sibling of siblings.slice(0, siblings.indexOf(node))) {
      if (isTag(sibling) && !holders.has(sibling) && isTitleLabel(sibling, stats.get(sibling)) && !isTitleField(sibling)) detach(sibling);
    }
  }
}

/**
 * Removes author boxes: around each `rel="author"` link, the largest block that is still short and
 * holds no prose paragraph (name, photo, position, "follow" buttons).
 */
const authorRelPattern = /(?:^|\s)author(?:\s|$)/i;
const isAuthorLink = (element: Element): boolean => element.name === 'a' && authorRelPattern.test(element.attribs.rel ?? '');

function trimAuthorBoxes(flow: Element, stats: Map<Element, TextStats>, holders: Set<Element>, elements: FlowElements): void {
  const authorLinks = elements().filter(isAuthorLink);
  const boxes = new Set<Element>();
  for (const link of authorLinks) {
    let box: Element | undefined;
    for (let node: Element = link; node !== flow && !holders.has(node); node = node.parent as Element) {
      if ((stats.get(node)?.text ?? Infinity) > authorBoxMaximumText) break;
      box = node;
      if (!node.parent || !isTag(node.parent)) break;
    }
    if (box) boxes.add(box);
  }
  detachEach([...boxes]);
}

/**
 * True when most element children of `element` that hold text are cards of one structure (the same
 * tags below, whatever their classes: a CMS classes each story's card with its own id,
 * `post-264244`), each a teaser with a linked picture. The picture sets a row of stories apart from
 * a reference page's entries, which also pair a linked name with a line of text.
 */
function isPictureTeaserGroup(element: Element, stats: Map<Element, TextStats>): boolean {
  const elementStats = stats.get(element);
  if (!elementStats || elementStats.images < teaserMinimumItems) return false;
  let items = 0;
  const structures = new Map<string, number>();
  for (const item of element.children) {
    if (!isTag(item) || (stats.get(item)?.text ?? 0) === 0) continue;
    items++;
    if (!hasLinkedPicture(item, stats) || !isTeaserItem(item, stats, true)) continue;
    const structure = structureOf(item);
    structures.set(structure, (structures.get(structure) ?? 0) + 1);
  }
  let largest = 0;
  for (const count of structures.values()) if (count > largest) largest = count;
  return largest >= teaserMinimumItems && largest >= teaserRunShare * items;
}

/** A box after the text is its teaser group when the group holds at least this share of the box's text. */
const teaserBoxShare = 0.8;

/**
 * True when `block` is a group of teasers, or a box around one: down a chain of wrappers, each
 * holding most of the text of the one above, to a teaser group (a related-stories box: its title
 * bar, empty ad slots and the row of stories).
 */
function holdsTeaserGroup(block: Element, stats: Map<Element, TextStats>, picturesOnly = false): boolean {
  const text = stats.get(block)?.text ?? 0;
  let node: Element | undefined = block;
  for (let depth = 0; node && depth < maximumDepth; depth++) {
    if ((depth === 0 && !picturesOnly && isTeaserGroup(node, stats)) || isPictureTeaserGroup(node, stats)) return true;
    let largest: Element | undefined;
    let largestText = 0;
    for (const child of node.children) {
      if (!isTag(child)) continue;
      const childText = stats.get(child)?.text ?? 0;
      if (childText > largestText) {
        largest = child;
        largestText = childText;
      }
    }
    node = text > 0 && largestText >= teaserBoxShare * text ? largest : undefined;
  }
  return false;
}

function trimAfterProse(flow: Element, stats: Map<Element, TextStats>, holders: Set<Element>, depth = 0, proseBefore = false): void {
  const blocks = flow.children.filter(isTag);
  let firstProse = -1;
  let lastProse = -1;
  // A group of teasers whose blurbs are sentences ("next story" boxes) does not continue the text,
  // also when the text came before the wrapper that holds the group (`proseBefore`: the article's
  // paragraphs, then a wrapper of extras whose related-stories box has a one-sentence kicker per story).
  for (let index = 0; index < blocks.length; index++) {
    const block = blocks[index]!;
    if (!holders.has(block) || (lastProse >= 0 && isTeaserGroup(block, stats)) || (proseBefore && holdsTeaserGroup(block, stats, true))) continue;
    lastProse = index;
    if (firstProse < 0) firstProse = index;
  }
  if (lastProse < 0 && !proseBefore) return;
  // The text may end inside a wrapper: its own tail is trimmed too, level by level.
  const last = blocks[lastProse];
  if (last && depth < maximumDepth && !isProseParagraph(last, stats.get(last)))
    trimAfterProse(last, stats, holders, depth + 1, proseBefore || firstProse < lastProse);
  const tail = blocks.slice(lastProse + 1);
  const removed = new Set<Element>();
  // Runs of same-shaped teasers directly in the flow.
  for (let start = 0; start < tail.length; ) {
    let end = start;
    while (end < tail.length && shapeOf(tail[end]!) === shapeOf(tail[start]!) && isTeaserItem(tail[end]!, stats)) end++;
    if (end - start >= teaserMinimumItems) for (let index = start; index < end; index++) removed.add(tail[index]!);
    start = Math.max(end, start + 1);
  }
  for (const block of tail) {
    if (removed.has(block)) continue;
    const blockStats = stats.get(block);
    if (holdsTeaserGroup(block, stats) || isAddressBlock(block, blockStats) || isDeadLinkBlock(block, blockStats)) {
      removed.add(block);
    }
  }
  if (removed.size === 0) return;
  // A heading whose section holds only removed blocks introduced them. Read by index up to the
  // first block kept: copies of the rest of the tail per heading grew with the square of a tail
  // of 16,000 headings (10 s).
  for (let index = 0; index < tail.length; index++) {
    const block = tail[index]!;
    if (!headingTags.has(block.name)) continue;
    let end = index + 1;
    while (end < tail.length && !(headingTags.has(tail[end]!.name) && tail[end]!.name <= block.name) && removed.has(tail[end]!)) end++;
    const isSectionEnd = end === tail.length || (headingTags.has(tail[end]!.name) && tail[end]!.name <= block.name);
    if (end > index + 1 && isSectionEnd) removed.add(block);
  }
  detachEach([...removed]);
}

/** A promo line is a link to another page of at least this many words (a headline, not "More")... */
const promoMinimumWords = 4;
/** ...and at most this long (weighted characters). */
const promoMaximumText = 200;

/**
 * The element sibling next to `element` in `direction`, past whitespace and empty blocks (`<p>&nbsp;</p>`
 * spacers); null at the edge, undefined next to loose text.
 */
function neighbourOf(element: Element, direction: 'prev' | 'next', stats: Map<Element, TextStats>): Element | null | undefined {
  const isBlank = (node: AnyNode): boolean =>
    isText(node) ? node.data.trim() === '' : isTag(node) && !isInline(node) && stats.get(node)?.text === 0 && stats.get(node)?.media === 0;
  let node = element[direction];
  while (node && isBlank(node)) node = node[direction];
  if (!node) return null;
  return isTag(node) ? node : undefined;
}

/** A paragraph (or `div`) that is one link to another page and nothing else: a promoted headline. */
function isPromoLine(element: Element, stats: TextStats | undefined): boolean {
  if ((element.name !== 'p' && element.name !== 'div') || !stats || stats.blocks !== 1 || stats.media > 0) return false;
  if (stats.text === 0 || stats.text > promoMaximumText || stats.linkText < stats.text) return false;
  const links = descendantElements(element).filter((child) => child.name === 'a');
  if (links.length !== 1) return false;
  // Attributes read through domutils' one keyed read, which has met every shape of attribute object
  // (page metadata reads it too): a read of its own here met new shapes after TurboFan compiled this
  // rule's caller and deoptimized it at every crawl.
  const href = getAttributeValue(links[0]!, 'href') ?? '';
  if (deadHrefPattern.test(href) || /^\s*#/.test(href)) return false;
  return collapsedText(element).split(' ').length >= promoMinimumWords;
}

/**
 * Removes promoted headlines inside the text ("Read also" lines without the words): a paragraph
 * that is one link to another page, right after a prose paragraph and followed by another one or
 * by nothing. A link the text introduces ("Details:", a list of sources) sits after a line that is
 * not prose and stays.
 */
function trimPromoLines(stats: Map<Element, TextStats>, elements: FlowElements): void {
  const lines: Element[] = [];
  for (const element of elements()) if (isPromoLine(element, stats.get(element))) lines.push(element);
  for (const line of lines) {
    const previous = neighbourOf(line, 'prev', stats);
    const next = neighbourOf(line, 'next', stats);
    if (!previous || !isProseParagraph(previous, stats.get(previous))) continue;
    if (next === undefined || (next !== null && !isProseParagraph(next, stats.get(next)))) continue;
    detach(line);
  }
}

/** A closing note is at most this long (weighted characters). */
const closingNoteMaximumText = 250;
const emphasisTags: ReadonlySet<string> = new Set(['strong', 'b', 'em', 'i']);

/** True when every piece of text in the block sits inside bold or italic. */
function isWhollyEmphasized(element: Element): boolean {
  const walk = (node: AnyNode): boolean => {
    if (isText(node)) return node.data.trim() === '';
    if (!isTag(node)) return true;
    if (emphasisTags.has(node.name)) return true;
    return node.children.every(walk);
  };
  return element.children.every(walk);
}

/** True when nothing with text or media comes after `element` in the flow (a bold line that introduces a table is not at the end). */
function endsFlow(element: Element, flow: Element, stats: Map<Element, TextStats>): boolean {
  for (let node: Element = element; node !== flow; node = node.parent as Element) {
    if (neighbourOf(node, 'next', stats) !== null || !node.parent || !isTag(node.parent)) return false;
  }
  return true;
}

/**
 * Removes a closing note: the one block after the last prose paragraph, when it is a short
 * sentence, wholly bold or italic ("Subscribe to our weekly ...", "Watch our channel!", an author's bio
 * line). A bold line that ends a notice after its list of dates or its address stays: it does
 * not follow a paragraph of prose.
 */
function trimClosingNote(flow: Element, stats: Map<Element, TextStats>, elements: FlowElements): void {
  // The last prose paragraph, looked for from the end.
  const flowElements = elements();
  let last: Element | undefined;
  for (let index = flowElements.length - 1; index >= 0 && !last; index--) {
    const element = flowElements[index]!;
    if (isProseParagraph(element, stats.get(element))) last = element;
  }
  if (!last) return;
  const note = neighbourOf(last, 'next', stats);
  if (!note || !endsFlow(note, flow, stats)) return;
  const noteStats = stats.get(note);
  if (!noteStats || noteStats.text === 0 || noteStats.text > closingNoteMaximumText || noteStats.media > 0 || noteStats.blocks !== 1) return;
  // A name alone (a letter's signature, "Jon Rego Clayton") belongs to the text: a note is a sentence.
  if (isWhollyEmphasized(note) && sentenceEndPattern.test(`${collapsedText(note)} `)) detach(note);
}

/** A centred note may be this long (weighted characters): an editor's note or an author's bio of a few lines. */
const centredNoteMaximumText = 600;
const centredStylePattern = /(?:^|;)\s*text-align\s*:\s*center/i;

/** A block of inline content, centred by its own style and wholly bold or italic: a note set apart from the text. */
function isCentredNote(element: Element, stats: TextStats | undefined): boolean {
  if ((element.name !== 'p' && element.name !== 'div') || !stats || stats.blocks !== 1 || stats.media > 0) return false;
  if (stats.text === 0 || stats.text > centredNoteMaximumText) return false;
  // The style read as `isPromoLine` reads a link's href (domutils' keyed read, not a read of its own).
  if (!centredStylePattern.test(getAttributeValue(element, 'style') ?? '') || !isWhollyEmphasized(element)) return false;
  // A centred bold label ("Online", "By cheque") heads what follows: a note is a sentence.
  return sentenceEndPattern.test(`${collapsedText(element)} `);
}

/**
 * Removes a centred note at either end of the text: a paragraph centred by its own style and
 * wholly bold or italic, before the first prose paragraph ("Submit your letter via this form")
 * or as the last block with text ("X is the founder of ..."). The story's own paragraphs are not
 * centred; an emphasised line inside the text is not at an end.
 */
function trimCentredNotes(stats: Map<Element, TextStats>, elements: FlowElements): void {
  const notes: Element[] = [];
  const last = centredNotesBeforeProse(stats, elements, notes);
  if (!last) return;
  // At the end, right after the last paragraph of prose: a centred line under a picture is its caption.
  const previous = neighbourOf(last, 'prev', stats);
  if (previous && isProseParagraph(previous, stats.get(previous)) && isCentredNote(last, stats.get(last))) notes.push(last);
  detachEach(notes);
}

/**
 * Adds to `notes` the centred notes before the first paragraph of prose; returns the last block
 * with text, or undefined when no paragraph of prose was met. The blocks before the first paragraph
 * are judged as they are met, in the one loop, and nothing follows the loop here: V8 keeps code it
 * compiled on stack replacement for a long loop when a later deoptimization happens outside that
 * loop, so a second loop over the blocks, or the end rule after the loop, deoptimized the same code
 * again on every long page (21, then 85 times over postgresql-doc-15's pages).
 */
function centredNotesBeforeProse(stats: Map<Element, TextStats>, elements: FlowElements, notes: Element[]): Element | undefined {
  let first: Element | undefined;
  let last: Element | undefined;
  for (const element of elements()) {
    const elementStats = stats.get(element);
    if (elementStats?.blocks !== 1 || (elementStats.text === 0 && elementStats.media === 0) || isInline(element)) continue;
    last = element;
    if (first) continue;
    // A centred note long enough to read as prose ("This post may contain affiliate links. Please
    // see my disclosure page.") is not the text's first paragraph.
    if (isCentredNote(element, elementStats)) notes.push(element);
    else if (isProseParagraph(element, elementStats)) first = element;
  }
  return first && last;
}

/**
 * Removes template leftovers before the title and after the last paragraph of `container`. Returns
 * true when it removed anything (`stats` are then stale for the ancestors of what it removed).
 */
export function trimArticleEdges(container: Element, title: Element | undefined, stats: Map<Element, TextStats>): boolean {
  detachedCount = 0;
  sentenceEnds.clear();
  try {
    return trimEdges(container, title, stats);
  } finally {
    sentenceEnds.clear();
  }
}

function trimEdges(container: Element, title: Element | undefined, stats: Map<Element, TextStats>): boolean {
  const flow = flowOf(container);
  const elements = flowElementsOf(flow);
  const holders = proseHolders(flow, stats, elements);
  if (title && title !== flow && isWithin(title, flow)) {
    trimBeforeTitle(flow, title, stats, holders);
    trimTitleLabels(flow, title, stats, holders);
    const discussion = trimTitledDiscussion(flow, title, stats, holders, elements(), (element) => isProseParagraph(element, stats.get(element)));
    detachEach(discussion);
    const dateline = trimTitleDateline(title, stats, elements());
    detachEach([...dateline, ...dateline.flatMap((line) => nameBesideDateline(line, stats))]);
    detachEach(trimTitleByline(title, stats, elements(), (element) => isProseParagraph(element, stats.get(element))));
  }
  trimAuthorBoxes(flow, stats, holders, elements);
  detachEach(trimRepeatedRows(stats, elements(), (element) => isProseParagraph(element, stats.get(element))));
  detachEach(trimGalleryWidgets(flow, stats, elements(), (element) => isProseParagraph(element, stats.get(element))));
  detachEach(trimClosingBox(flow, stats, (element) => isProseParagraph(element, stats.get(element)), elements()));
  detachEach(trimTaxonomyLines(flow, stats, elements(), (element) => isProseParagraph(element, stats.get(element))));
  detachEach(trimShareBars(flow, stats, elements()));
  trimAfterProse(flow, stats, holders);
  trimInlineTeaserGroups(flow, stats, holders, elements);
  detachEach(trimRelatedLinkLists(stats, elements(), (element) => isProseParagraph(element, stats.get(element))));
  detachEach(trimTrailingHeading(flow, (element) => isProseParagraph(element, stats.get(element)), elements()));
  trimPromoLines(stats, elements);
  trimClosingNote(flow, stats, elements);
  trimCentredNotes(stats, elements);
  return detachedCount > 0;
}

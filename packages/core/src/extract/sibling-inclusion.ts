/**
 * Joins the content root with the siblings that continue it: siblings that score close to it,
 * prose paragraphs (bare, or a `p` alone in its wrappers: a lead outside the body's container),
 * and the headings, figures, tables, code blocks and lists (or a `div` of nothing else) that sit
 * between joined parts, or headings just before one (an article split by an ad slot, a heading in
 * front of its section).
 * Teaser lists never join, however well their summaries score.
 */
import { type Element, isTag } from 'domhandler';
import { firstElement, hasCollapsedText, hasOwnText, headingTags, isInline, sectionHeadingLevel, sectionPeersNeeded } from './dom-tools.js';
import { isTeaserList } from './root-expansion.js';
import { type TextStats, linkDensity } from './text-stats.js';

/** Siblings joined when they carry structure and lie between joined parts. */
const structuralTags: ReadonlySet<string> = new Set([...headingTags, 'figure', 'table', 'pre', 'ul', 'ol', 'dl', 'blockquote', 'img', 'picture', 'p', 'hr']);

const sentenceEndPattern = /[.!?。！？]["'”’)]?(?:\s|$)/;

/** A `p`, or a `div` that holds only inline content (a paragraph in all but name). */
function isParagraph(element: Element): boolean {
  return element.name === 'p' || (element.name === 'div' && element.children.every(isInline));
}

/**
 * The paragraph a block is, or wraps alone: the block itself, or, through `div`s that hold one
 * element and no loose text, the one `p` at the bottom (`div.lead > p`, a lead paragraph outside
 * the body's container). A wrapped `div` of inline text is not one: that is how a caption or a
 * credit line is written beside an image the cleanup took. Otherwise undefined.
 */
function wrappedParagraph(block: Element): Element | undefined {
  if (isParagraph(block)) return block;
  let element = block;
  while (element.name !== 'p') {
    if (element.name !== 'div' || hasOwnText(element)) return undefined;
    let only: Element | undefined;
    for (const child of element.children) {
      if (!isTag(child)) continue;
      if (only) return undefined;
      only = child;
    }
    if (!only) return undefined;
    element = only;
  }
  return element;
}

/**
 * `mayBeWrapped`: whether a paragraph wrapped alone may count; before a root that holds the
 * title `h1` it may not (a lead follows the title; a box before it is a notice, as a docs theme's
 * "this is the stable version" banner).
 */
function isProse(sibling: Element, stats: TextStats | undefined, text: () => string, mayBeWrapped: () => boolean): boolean {
  if (!stats) return false;
  // The wrappers hold nothing but the paragraph, so the sibling's stats are the paragraph's.
  const paragraph = wrappedParagraph(sibling);
  if (!paragraph || (paragraph !== sibling && !mayBeWrapped())) return false;
  const density = linkDensity(stats);
  if (stats.text > 80 && density < 0.25) return true;
  // A short line is prose only as a bare paragraph: wrapped alone, it is a box of its own (a
  // "log in to comment" note under the article).
  return paragraph === sibling && stats.text > 0 && stats.text <= 80 && density === 0 && sentenceEndPattern.test(text());
}

/**
 * A structural block, or a `div` of nothing but structural blocks with text (`div > dl + dl`, an
 * event's date and address between its title and its text).
 */
function isStructure(block: Element): boolean {
  if (structuralTags.has(block.name)) return true;
  if (block.name !== 'div' || hasOwnText(block)) return false;
  let count = 0;
  for (const child of block.children) {
    if (!isTag(child)) continue;
    if (!structuralTags.has(child.name) || !hasCollapsedText(child)) return false;
    count++;
  }
  return count > 0;
}

/** Blocks of a written document's flow (what a markdown renderer writes). */
const flowTags: ReadonlySet<string> = new Set([...structuralTags, 'div', 'details', 'section', 'a', 'br']);
/** A flow with at least this many section headings is a sectioned document... */
const sectionedFlowHeadings = 2;
/** ...when at least this share of its blocks are flow blocks (no navbars, sidebars, forms). */
const sectionedFlowShare = 0.9;

/**
 * True when the parent is one flat, sectioned document: section headings (h2-h6) and flow blocks
 * side by side, as a README or a docs page renders with no wrapper per part. All of it is content.
 */
function isSectionedFlow(siblings: Element[]): boolean {
  const sectionHeadings = siblings.filter((sibling) => headingTags.has(sibling.name) && sibling.name !== 'h1').length;
  if (sectionHeadings < sectionedFlowHeadings) return false;
  return siblings.filter((sibling) => flowTags.has(sibling.name)).length >= sectionedFlowShare * siblings.length;
}

/**
 * The root's peer sections: `section`s opened by a heading of the root's level, when there are
 * enough of them to be the sections of one document (Sphinx writes every section so; two suffice
 * nested in their parent heading's section, as docutils nests them). A section
 * whose whole body is a list of links ("Policies Introduced by CMake 3.25", "Previous CVEs") is a
 * part of that document like any other.
 */
function peerSections(root: Element, siblings: Element[]): Set<Element> {
  const level = sectionHeadingLevel(root);
  if (level === 0) return new Set();
  const peers = siblings.filter((sibling) => sectionHeadingLevel(sibling) === level);
  const parent = root.parent;
  return new Set(parent && isTag(parent) && peers.length >= sectionPeersNeeded(parent, level) ? peers : []);
}

/**
 * The nodes to keep, in document order: `root` alone or with joined siblings.
 * `textOf` gives an element's collapsed text (only called for short paragraphs).
 */
export function includeSiblings(root: Element, scores: Map<Element, number>, stats: Map<Element, TextStats>, textOf: (element: Element) => string): Element[] {
  const parent = root.parent;
  if (!parent || !isTag(parent) || parent.name === 'html') return [root];
  const rootScore = scores.get(root) ?? 0;
  const threshold = Math.max(10, rootScore * 0.2);
  const rootClass = root.attribs.class ?? '';
  const siblings = parent.children.filter(isTag);
  if (isSectionedFlow(siblings)) return siblings;
  const peers = peerSections(root, siblings);
  const rootIndex = siblings.indexOf(root);
  let rootHoldsTitle: boolean | undefined;
  const holdsTitle = (): boolean => (rootHoldsTitle ??= firstElement(root, (element) => element.name === 'h1') !== undefined);
  const joined = siblings.map((sibling, index) => {
    if (sibling === root || peers.has(sibling)) return true;
    if (isTeaserList(sibling)) return false;
    const bonus = rootClass !== '' && sibling.attribs.class === rootClass ? rootScore * 0.2 : 0;
    const score = scores.get(sibling);
    if (score !== undefined && score + bonus >= threshold) return true;
    return isProse(
      sibling,
      stats.get(sibling),
      () => textOf(sibling),
      () => index > rootIndex || !holdsTitle(),
    );
  });
  // Structure between joined parts, and headings right before a joined part, come along.
  const first = joined.indexOf(true);
  const last = joined.lastIndexOf(true);
  for (let index = first + 1; index < last; index++) {
    const sibling = siblings[index]!;
    if (!joined[index] && isStructure(sibling) && linkDensity(stats.get(sibling)) < 0.5) joined[index] = true;
  }
  for (let index = siblings.length - 2; index >= 0; index--) {
    if (!joined[index] && joined[index + 1] && headingTags.has(siblings[index]!.name)) joined[index] = true;
  }
  return siblings.filter((_, index) => joined[index]);
}

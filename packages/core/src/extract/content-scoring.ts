/**
 * Readability-class content scoring: every paragraph-like block (an element with text of its own)
 * scores by its length, commas and link share; the score flows to its ancestors with decay; each
 * candidate ancestor starts from a tag and class/id/role/itemprop prior and is scaled by its link
 * density. The best candidate, possibly lifted to an ancestor that unites several strong
 * candidates, then to ancestors whose other children continue it (root-expansion.ts), is the
 * content root.
 */
import { type Element, type ParentNode, isTag, isText } from 'domhandler';
import {
  articleBodyHintPattern,
  contentItemprops,
  contentRoles,
  negativeScoreHintPattern,
  positiveScoreHintPattern,
  tagBaseScores,
} from './boilerplate-patterns.js';
import { descendantElements, documentSectionPeers, hasHeaderCells, hintText, sectionHeadingLevel, sectionPeersNeeded } from './dom-tools.js';
import { flatDocumentOf } from './flat-document.js';
import { titledDocumentOf } from './titled-document.js';
import { expandRoot } from './root-expansion.js';
import { sectionBlockLevel, sectionsHoldParent } from './section-blocks.js';
import { type OwnText, type TextStats, linkDensity, measureProse } from './text-stats.js';

/** A block scores only with at least this much text of its own (weighted characters). */
const minimumParagraphLength = 25;
/** How many ancestors receive a paragraph's score. */
const ancestorLevels = 5;
/** How many top candidates are compared when looking for a uniting ancestor. */
const topCandidateCount = 5;
/** Tags whose own text never scores as a paragraph. */
const unscoredTags: ReadonlySet<string> = new Set(['h1', 'a', 'th', 'dt', 'caption', 'figcaption', 'label', 'button']);

export interface ContentScores {
  /** Candidate scores after link-density scaling. */
  scores: Map<Element, number>;
  /** Weighted characters of prose (paragraph text, headings) under each element. */
  prose: Map<Element, number>;
  /** The chosen root, or undefined when no block scored. */
  root: Element | undefined;
  /** Blocks after the content's end that the root climbed over (root-expansion.ts): to be cut. */
  tail: Element[];
}

/**
 * Prior of a candidate from its class/id hints, role and itemprop. `withoutListWord`: the word
 * "list" is not held against it (a list of sections, `content-cleanup.ts`).
 */
export function hintWeight(element: Element, withoutListWord = false): number {
  let weight = 0;
  const hints = hintText(element);
  if (hints) {
    if (negativeScoreHintPattern.test(withoutListWord ? hints.replace(/list/g, ' ') : hints)) weight -= 25;
    if (positiveScoreHintPattern.test(hints)) weight += 25;
    if (articleBodyHintPattern.test(hints)) weight += 25;
  }
  const role = element.attribs.role;
  if (role && contentRoles.has(role)) weight += 25;
  const itemprop = element.attribs.itemprop?.toLowerCase();
  if (itemprop && contentItemprops.has(itemprop)) weight += 50;
  return weight;
}

function paragraphScore(own: OwnText): number {
  const density = own.length > 0 ? own.linkLength / own.length : 0;
  return (1 + own.commas + Math.min(3, Math.floor(own.length / 100))) * (1 - density);
}

/** Adds a paragraph's score to its ancestors' in `raw` (each first given its tag's and hints' prior). */
function scoreParagraph(element: Element, own: OwnText, raw: Map<Element, number>): void {
  if (unscoredTags.has(element.name)) return;
  if (own.length < minimumParagraphLength) return;
  const score = paragraphScore(own);
  let ancestor = element.parent;
  for (let level = 0; level < ancestorLevels && ancestor && isTag(ancestor); level++) {
    if (ancestor.name === 'body' || ancestor.name === 'html') break;
    const divider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
    const before = raw.get(ancestor) ?? (tagBaseScores[ancestor.name] ?? 0) + hintWeight(ancestor);
    raw.set(ancestor, before + score / divider);
    ancestor = ancestor.parent;
  }
}

/**
 * Scores every candidate under `body` and picks the content root. `elements`: the caller's
 * `descendantElements(body)`, when it has them already.
 */
export function scoreContent(body: ParentNode, stats: Map<Element, TextStats>, elements: Element[] = descendantElements(body)): ContentScores {
  const raw = new Map<Element, number>();
  // The prose measure hands over each block's own text, in document order: scored from it, not measured again.
  const prose = measureProse(body, stats, elements, scoreParagraph, raw);
  const scores = new Map<Element, number>();
  for (const [element, score] of raw) scores.set(element, score * (1 - linkDensity(stats.get(element))));
  const chosen = chooseRoot(scores);
  const tail: Element[] = [];
  return { scores, prose, root: chosen && flatDocumentOf(titledDocumentOf(documentOfSections(expandRoot(chosen, prose, stats, tail), stats))), tail };
}

/**
 * A root inside one of a document's sections (`section`s opened by a heading of one level, enough
 * of them in one parent) is lifted to the parent that holds them all: a release-notes page whose
 * longest section's list outscores the rest ("4.3.0 RC1" of a changelog) is the whole changelog.
 * Section `div`s count as well, when enough of them hold most of their parent (`isSectionDivOfDocument`).
 * The root itself is one of the sections it may be lifted from: a gi-docgen interface page's
 * "Interface structure" (`div.toggle-wrapper > h4 + div.docblock` of code and a table of members)
 * outscores the description and the member sections beside it and was the whole extract.
 */
function documentOfSections(root: Element, stats: Map<Element, TextStats>): Element {
  let lifted = root;
  for (let node: ParentNode | null = root; node && isTag(node) && node.name !== 'body'; node = node.parent) {
    const parent = node.parent;
    if (!parent || !isTag(parent) || parent.name === 'body') continue;
    if (isSectionDivOfDocument(node, parent) || isWrappedSectionOfDocument(node, parent, stats)) {
      lifted = parent;
      continue;
    }
    const level = sectionHeadingLevel(node);
    if (level === 0) continue;
    const peers = parent.children.filter((child) => isTag(child) && sectionHeadingLevel(child) === level).length;
    if (peers >= sectionPeersNeeded(parent, level)) lifted = parent;
  }
  return lifted;
}

/**
 * A `div` opened by a heading among at least three such peers that hold at least half of their
 * parent's text: one section of the document the parent is (asciidoc's `div.sect1` in `#content`:
 * git(1)'s ENVIRONMENT VARIABLES, githooks' HOOKS outscore the rest of their manual page).
 */
function isSectionDivOfDocument(node: Element, parent: Element): boolean {
  if (node.name !== 'div') return false;
  const level = sectionBlockLevel(node);
  if (level === 0) return false;
  const peers = parent.children.filter((child) => isTag(child) && child.name === 'div' && sectionBlockLevel(child) === level).length;
  return peers >= documentSectionPeers && sectionsHoldParent(parent, level);
}

/**
 * A box whose one child with text is a section `div` (gi-docgen writes a class page's
 * "Description" as `summary > div.toggle-wrapper > h4 + div.docblock`, the box that shows it
 * unfolded), among section `div`s of that level that hold their parent (its "Constructors",
 * "Instance methods", "Properties", each `div.toggle-wrapper > h4 + div.docblock` of name links
 * and one-line descriptions): the description is one section of the page's document, and the
 * member sections continue it. The wrapped section is opened by a heading below the page title's
 * level: an article opened by its own title (`h1`) in the box that holds its text does not pull in
 * a row of "More on this" boxes after it.
 */
function isWrappedSectionOfDocument(node: Element, parent: Element, stats: Map<Element, TextStats>): boolean {
  if (sectionBlockLevel(node) > 0) return false;
  let wrapped: Element | undefined;
  for (const child of node.children) {
    if (!isTag(child) || (stats.get(child)?.text ?? 0) === 0) continue;
    if (wrapped) return false;
    wrapped = child;
  }
  if (wrapped?.name !== 'div') return false;
  const level = sectionBlockLevel(wrapped);
  if (level < 2) return false;
  const peers = parent.children.filter((child) => isTag(child) && child.name === 'div' && sectionBlockLevel(child) === level).length;
  return peers >= documentSectionPeers && sectionsHoldParent(parent, level);
}

function ancestorsOf(element: Element): Element[] {
  const result: Element[] = [];
  for (let node = element.parent; node && isTag(node); node = node.parent) result.push(node);
  return result;
}

const isTop = (element: Element): boolean => element.name === 'body' || element.name === 'html';

const tablePartTags: ReadonlySet<string> = new Set(['thead', 'tbody', 'tfoot', 'tr', 'td', 'th']);

/**
 * The data table (one with header cells) that `element` is a part of: a page whose text is mostly
 * one long table (Sphinx's list of deprecated APIs) has its content in the table, header row
 * included, not in the row group that holds most cells. A layout table has no header cells.
 */
function tableOf(element: Element): Element | undefined {
  if (!tablePartTags.has(element.name)) return undefined;
  let table: ParentNode | null = element.parent;
  while (table && isTag(table) && table.name !== 'table') table = table.parent;
  if (!table || !isTag(table)) return undefined;
  return hasHeaderCells(table) ? table : undefined;
}

const byScoreDescending = (a: [Element, number], b: [Element, number]): number => b[1] - a[1];

function chooseRoot(scores: Map<Element, number>): Element | undefined {
  const ranked = [...scores].sort(byScoreDescending).slice(0, topCandidateCount);
  const first = ranked[0];
  if (!first) return undefined;
  let [root, rootScore] = first;
  // An ancestor shared by at least three strong candidates unites them.
  const strong = ranked
    .slice(1)
    .filter(([, score]) => score / rootScore >= 0.75)
    .map(([element]) => ancestorsOf(element));
  if (strong.length >= 3) {
    for (const ancestor of ancestorsOf(root)) {
      if (isTop(ancestor)) break;
      if (strong.filter((ancestors) => ancestors.includes(ancestor)).length >= 3) {
        root = ancestor;
        rootScore = scores.get(ancestor) ?? rootScore;
        break;
      }
    }
  }
  root = tableOf(root) ?? root;
  // An only child gives way to its parent, so that sibling joining sees the real neighbours.
  for (let parent = root.parent; parent && isTag(parent) && !isTop(parent); parent = parent.parent) {
    if (parent.children.filter((child) => isTag(child) || (isText(child) && child.data.trim() !== '')).length !== 1) break;
    root = parent;
  }
  return root;
}

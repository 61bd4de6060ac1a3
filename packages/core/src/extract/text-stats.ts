/**
 * Per-element text measurements, gathered in one bottom-up pass: how much text an element holds,
 * how much of it sits in links, and counts of the structures the scoring and cleanup rules ask
 * about. Lengths are "weighted characters": whitespace runs count once, and CJK characters count
 * as several (one ideograph carries about as much as a short English word).
 */
import { type AnyNode, type Element, type ParentNode, type Text, isTag, isText } from 'domhandler';
import { descendantElements, inlineTags } from './dom-tools.js';

export interface TextStats {
  /** Weighted characters of text in the subtree. */
  text: number;
  /** Weighted characters of text inside `<a>` elements. */
  linkText: number;
  /** Commas (Latin, Arabic, CJK) in the subtree. */
  commas: number;
  /** `img` and `picture` elements. */
  images: number;
  /** Elements worth keeping without text: images, figures, tables, code blocks, formulas, embeds. */
  media: number;
  /** Block (non-inline) elements in the subtree, the element itself included. */
  blocks: number;
  /**
   * Weighted characters and commas of the element's own text nodes (its children, not deeper):
   * what `ownText` reads, kept so that it does not measure them again. Not sums: `addStats` and
   * `discountStats` leave them, which keeps them right while only elements are removed.
   */
  directText: number;
  directCommas: number;
}

/** Commas (Latin, Arabic, CJK and their variants), checked without a set lookup per character. */
function isComma(code: number): boolean {
  if (code === 0x2c) return true;
  if (code < 0x60c) return false;
  return (
    code === 0x60c ||
    code === 0x3001 ||
    code === 0xff0c ||
    code === 0xfe50 ||
    code === 0xfe10 ||
    code === 0xfe11 ||
    code === 0x2e41 ||
    code === 0x2e34 ||
    code === 0x2e32
  );
}

function isSpace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  return code === 0xa0 || code === 0x200b || code === 0x3000 || code === 0xfeff;
}

/** Extra weight of one character: CJK ideographs and kana count 3, Hangul syllables 2. */
function extraWeight(code: number): number {
  if (code < 0x3040) return 0;
  if (code <= 0x30ff || (code >= 0x3400 && code <= 0x9fff) || (code >= 0xf900 && code <= 0xfaff)) return 2;
  return code >= 0xac00 && code <= 0xd7af ? 1 : 0;
}

/** The commas of the text `measureRun` measured last (returned beside the length, not in an object per text). */
let runCommas = 0;

/**
 * One pass over a text: whitespace runs count as one character (none at the ends), CJK
 * characters weigh more, and commas are counted (left in `runCommas`). ASCII takes a short path
 * (most text is ASCII). Returns the weighted length.
 */
function measureRun(text: string): number {
  let length = 0;
  let commas = 0;
  let pendingSpace = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) {
      if (code === 32 || (code >= 9 && code <= 13)) {
        pendingSpace = length > 0;
        continue;
      }
      if (pendingSpace) {
        length += 1;
        pendingSpace = false;
      }
      length += 1;
      if (code === 0x2c) commas += 1;
      continue;
    }
    if (isSpace(code)) {
      pendingSpace = length > 0;
      continue;
    }
    if (pendingSpace) {
      length += 1;
      pendingSpace = false;
    }
    length += 1 + extraWeight(code);
    if (isComma(code)) commas += 1;
  }
  runCommas = commas;
  return length;
}

/**
 * A text node's weighted length (its commas in `runCommas`), computed again on every pass: with
 * the ASCII path that is cheaper than keeping it (a WeakMap lookup per node per pass cost more,
 * and its entries were garbage to trace).
 */
function measureNode(node: Text): number {
  return measureRun(node.data);
}

export const emptyTextStats = (): TextStats => ({ text: 0, linkText: 0, commas: 0, images: 0, media: 0, blocks: 0, directText: 0, directCommas: 0 });

/** What an element adds to the counts of its subtree (and its ancestors'), its blocks included. */
function countElement(name: string, stats: TextStats): void {
  switch (name) {
    case 'img':
    case 'picture':
      stats.images += 1;
      stats.media += 1;
      break;
    case 'iframe':
    case 'video':
    case 'figure':
    case 'table':
    case 'pre':
    case 'math':
      stats.media += 1;
      break;
  }
  if (!inlineTags.has(name)) stats.blocks += 1;
}

/**
 * True for an `a` that links: not a named anchor (`<a id>` or `<a name>` without `href`), which
 * marks a place and whose text is the text around it (DocBook writes every section title inside
 * one: `<h2><a id="_setup">5.1. Setup</a></h2>`; read as link text, each title was a link-only
 * block and went).
 */
function isLink(element: Element): boolean {
  if (element.name !== 'a') return false;
  const { attribs } = element;
  return attribs.href !== undefined || (attribs.id === undefined && attribs.name === undefined);
}

/** Adds one text node's measure to `stats`, those of its parent: its direct text too. */
function addText(node: Text, stats: TextStats, inLink: boolean): void {
  const length = measureNode(node);
  if (length === 0) return;
  stats.text += length;
  if (inLink) stats.linkText += length;
  stats.commas += runCommas;
  stats.directText += length;
  stats.directCommas += runCommas;
}

/**
 * Stats for every element under `root` (and `root` itself when it is an element). Call again after
 * the tree changed: the map is a snapshot.
 */
export function measureText(root: ParentNode): Map<Element, TextStats> {
  const result = new Map<Element, TextStats>();
  // Post-order without recursion (broken pages nest thousands of unclosed tags), the stack kept in
  // parallel arrays so that a pass allocates nothing per element but its stats.
  const elements: Element[] = [];
  const statsOf: TextStats[] = [];
  const nextChild: number[] = [];
  const inLinks: boolean[] = [];
  let depth = 0;
  const top = emptyTextStats();
  // Opening an element is written out at its two places, not a closure made per call, which V8
  // compiled again on later pages (issue 14, tenth pass).
  const roots: readonly AnyNode[] = isTag(root) ? [root] : root.children;
  for (const node of roots) {
    if (isText(node)) {
      addText(node, top, false);
      continue;
    }
    if (!isTag(node)) continue;
    elements[0] = node;
    statsOf[0] = emptyTextStats();
    nextChild[0] = 0;
    inLinks[0] = isLink(node);
    depth = 1;
    while (depth > 0) {
      const level = depth - 1;
      const element = elements[level]!;
      const index = nextChild[level]!;
      if (index < element.children.length) {
        nextChild[level] = index + 1;
        const child = element.children[index]!;
        if (isText(child)) addText(child, statsOf[level]!, inLinks[level]!);
        else if (isTag(child)) {
          elements[depth] = child;
          statsOf[depth] = emptyTextStats();
          nextChild[depth] = 0;
          inLinks[depth] = inLinks[level]! || isLink(child);
          depth++;
        }
        continue;
      }
      const stats = statsOf[level]!;
      countElement(element.name, stats);
      result.set(element, stats);
      depth = level;
      addStats(level > 0 ? statsOf[level - 1]! : top, stats);
    }
  }
  return result;
}

/**
 * Weighted characters of text under `root`: what `measureText(root).get(root).text` gives, without
 * the per-element stats (one pass over the text nodes, nothing allocated per element).
 */
export function measureTotalText(root: ParentNode): number {
  let total = 0;
  const lists: AnyNode[][] = [root.children];
  const next: number[] = [0];
  let depth = 1;
  while (depth > 0) {
    const level = depth - 1;
    const list = lists[level]!;
    const index = next[level]!;
    if (index >= list.length) {
      depth = level;
      continue;
    }
    next[level] = index + 1;
    const node = list[index]!;
    if (isText(node)) total += measureNode(node);
    else if (isTag(node) && node.children.length > 0) {
      lists[depth] = node.children;
      next[depth] = 0;
      depth++;
    }
  }
  return total;
}

/**
 * Subtracts a removed element's stats from its ancestors up to `root`, so that `stats` stay what
 * `measureText(root)` would give for the elements left (call before `detach`; stats are sums).
 */
export function discountStats(element: Element, stats: Map<Element, TextStats>, root: ParentNode): void {
  const removed = stats.get(element);
  if (!removed) return;
  for (let node = element.parent; node && isTag(node); node = node.parent) {
    const ancestor = stats.get(node);
    if (ancestor) addStats(ancestor, removed, -1);
    if (node === root) break;
  }
}

/** Adds `other` into `stats`, field by field (`sign` -1 subtracts). */
export function addStats(stats: TextStats, other: TextStats, sign = 1): void {
  stats.text += sign * other.text;
  stats.linkText += sign * other.linkText;
  stats.commas += sign * other.commas;
  stats.images += sign * other.images;
  stats.media += sign * other.media;
  stats.blocks += sign * other.blocks;
}

/** Share of the text that sits in links, 0 when there is no text. */
export function linkDensity(stats: TextStats | undefined): number {
  return stats && stats.text > 0 ? stats.linkText / stats.text : 0;
}

/** Text directly in an element or in its inline descendants (not in nested blocks). */
export interface OwnText {
  length: number;
  linkLength: number;
  commas: number;
}

export function ownText(element: Element, stats: Map<Element, TextStats>): OwnText {
  const measured = stats.get(element);
  const own: OwnText = { length: measured?.directText ?? 0, linkLength: 0, commas: measured?.directCommas ?? 0 };
  for (const child of element.children) {
    if (isText(child)) {
      if (measured) continue; // in its direct text
      own.length += measureNode(child);
      own.commas += runCommas;
    } else if (isTag(child) && inlineTags.has(child.name)) {
      const childStats = stats.get(child);
      if (!childStats || childStats.blocks > 0) continue; // an inline wrapper around blocks is a block
      own.length += childStats.text;
      own.linkLength += isLink(child) ? childStats.text : childStats.linkText;
      own.commas += childStats.commas;
    }
  }
  return own;
}

/** A block's own text counts as prose from this many weighted characters... */
const minimumProseLength = 25;
/** ...or however short in these (headings, cells, items, code). */
const shortProseTags: ReadonlySet<string> = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'td', 'th', 'li', 'dd', 'dt', 'pre', 'figcaption', 'caption']);

/**
 * Weighted characters of prose under each element: the own text of blocks that is mostly not
 * links and long enough to be a sentence (or sits in a heading, cell, item or code block).
 * `elements`: the caller's `descendantElements(root)`, when it has them already. `visit` is called
 * with every block, its own text and `context`, in document order, for a caller that needs the own
 * text too (a module function and its state as `context`, not a closure made per page, which V8
 * would compile again on later pages).
 */
export function measureProse<Context>(
  root: ParentNode,
  stats: Map<Element, TextStats>,
  elements = descendantElements(root),
  visit?: (element: Element, own: OwnText, context: Context) => void,
  context?: Context,
): Map<Element, number> {
  const prose = new Map<Element, number>();
  for (const element of elements) {
    if (inlineTags.has(element.name)) continue;
    const own = ownText(element, stats);
    visit?.(element, own, context as Context);
    if (own.length === 0 || own.linkLength >= own.length * 0.5) continue;
    if (own.length < minimumProseLength && !shortProseTags.has(element.name)) continue;
    prose.set(element, own.length);
  }
  for (let index = elements.length - 1; index >= 0; index--) {
    const element = elements[index]!;
    const own = prose.get(element);
    if (own !== undefined && element.parent && isTag(element.parent)) {
      prose.set(element.parent, (prose.get(element.parent) ?? 0) + own);
    }
  }
  return prose;
}

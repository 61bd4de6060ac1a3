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
  /** Sentence ends (`. `, `! `, `? `, `。` ...) in the subtree. */
  sentences: number;
  paragraphs: number;
  images: number;
  listItems: number;
  headings: number;
  /** Form controls and embeds (`input`, `iframe`, `embed`, `object`, `video`). */
  widgets: number;
}

/** What one run of text contributes: weighted length, commas and sentence ends. */
interface TextMeasure {
  length: number;
  commas: number;
  sentences: number;
}

const commaCodes: ReadonlySet<number> = new Set([
  0x2c, 0x60c, 0xfe50, 0xfe10, 0xfe11, 0x2e41, 0x2e34, 0x2e32, 0xff0c, 0x3001,
]);
const fullStopCodes: ReadonlySet<number> = new Set([0x3002, 0xff01, 0xff1f]);

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x200b || code === 0x3000 || code === 0xfeff;
}

/** Extra weight of one character: CJK ideographs and kana count 3, Hangul syllables 2. */
function extraWeight(code: number): number {
  if ((code >= 0x3040 && code <= 0x30ff) || (code >= 0x3400 && code <= 0x9fff) || (code >= 0xf900 && code <= 0xfaff)) {
    return 2;
  }
  return code >= 0xac00 && code <= 0xd7af ? 1 : 0;
}

/**
 * One pass over a text: whitespace runs count as one character (none at the ends), CJK
 * characters weigh more, and commas and sentence ends are counted.
 */
function measureRun(text: string): TextMeasure {
  const result: TextMeasure = { length: 0, commas: 0, sentences: 0 };
  let pendingSpace = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (isSpace(code)) {
      pendingSpace = result.length > 0;
      continue;
    }
    if (pendingSpace) {
      result.length += 1;
      pendingSpace = false;
    }
    result.length += 1 + extraWeight(code);
    if (commaCodes.has(code)) result.commas += 1;
    else if (fullStopCodes.has(code)) result.sentences += 1;
    else if (code === 0x2e || code === 0x21 || code === 0x3f) {
      const next = text.charCodeAt(index + 1);
      if (Number.isNaN(next) || isSpace(next)) result.sentences += 1;
    }
  }
  return result;
}

/** Measures of text nodes, kept while the nodes live: the passes of one extraction share them. */
const measuredNodes = new WeakMap<Text, TextMeasure>();

function measureNode(node: Text): TextMeasure {
  let measure = measuredNodes.get(node);
  if (!measure) {
    measure = measureRun(node.data);
    measuredNodes.set(node, measure);
  }
  return measure;
}

/** Weighted length of a piece of text (see `measureRun`). */
export function weightedLength(text: string): number {
  return measureRun(text).length;
}

export function countCommas(text: string): number {
  return measureRun(text).commas;
}

const emptyStats = (): TextStats => ({
  text: 0, linkText: 0, commas: 0, sentences: 0, paragraphs: 0, images: 0, listItems: 0, headings: 0, widgets: 0,
});

const countedTags: Record<string, keyof TextStats> = {
  p: 'paragraphs', img: 'images', picture: 'images', li: 'listItems', h1: 'headings', h2: 'headings',
  h3: 'headings', h4: 'headings', h5: 'headings', h6: 'headings', input: 'widgets', iframe: 'widgets',
  embed: 'widgets', object: 'widgets', video: 'widgets', select: 'widgets', textarea: 'widgets',
};

/**
 * Stats for every element under `root` (and `root` itself when it is an element). Call again after
 * the tree changed: the map is a snapshot.
 */
export function measureText(root: ParentNode): Map<Element, TextStats> {
  const result = new Map<Element, TextStats>();
  const visit = (node: AnyNode, stats: TextStats, inLink: boolean): void => {
    if (isText(node)) {
      const run = measureNode(node);
      if (run.length === 0) return;
      stats.text += run.length;
      if (inLink) stats.linkText += run.length;
      stats.commas += run.commas;
      stats.sentences += run.sentences;
      return;
    }
    if (!isTag(node)) return;
    const own = emptyStats();
    const isLink = inLink || node.name === 'a';
    for (const child of node.children) visit(child, own, isLink);
    const counted = countedTags[node.name];
    if (counted) own[counted] += 1;
    result.set(node, own);
    addStats(stats, own);
  };
  const top = emptyStats();
  if (isTag(root)) visit(root, top, false);
  else for (const child of root.children) visit(child, top, false);
  return result;
}

/** Adds `other` into `stats`, field by field (`sign` -1 subtracts). */
export function addStats(stats: TextStats, other: TextStats, sign = 1): void {
  stats.text += sign * other.text;
  stats.linkText += sign * other.linkText;
  stats.commas += sign * other.commas;
  stats.sentences += sign * other.sentences;
  stats.paragraphs += sign * other.paragraphs;
  stats.images += sign * other.images;
  stats.listItems += sign * other.listItems;
  stats.headings += sign * other.headings;
  stats.widgets += sign * other.widgets;
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
  const own: OwnText = { length: 0, linkLength: 0, commas: 0 };
  for (const child of element.children) {
    if (isText(child)) {
      const run = measureNode(child);
      own.length += run.length;
      own.commas += run.commas;
    } else if (isTag(child) && inlineTags.has(child.name)) {
      const childStats = stats.get(child);
      if (!childStats) continue;
      own.length += childStats.text;
      own.linkLength += child.name === 'a' ? childStats.text : childStats.linkText;
      own.commas += childStats.commas;
    }
  }
  return own;
}

/** A block's own text counts as prose from this many weighted characters... */
export const minimumProseLength = 25;
/** ...or however short in these (headings, cells, items, code). */
const shortProseTags: ReadonlySet<string> = new Set([
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'td', 'th', 'li', 'dd', 'dt', 'pre', 'figcaption', 'caption',
]);

/**
 * Weighted characters of prose under each element: the own text of blocks that is mostly not
 * links and long enough to be a sentence (or sits in a heading, cell, item or code block).
 */
export function measureProse(root: ParentNode, stats: Map<Element, TextStats>): Map<Element, number> {
  const prose = new Map<Element, number>();
  for (const element of descendantElements(root)) {
    if (inlineTags.has(element.name)) continue;
    const own = ownText(element, stats);
    if (own.length === 0 || own.linkLength >= own.length * 0.5) continue;
    if (own.length < minimumProseLength && !shortProseTags.has(element.name)) continue;
    for (let node: ParentNode | null = element; node && isTag(node); node = node.parent) {
      prose.set(node, (prose.get(node) ?? 0) + own.length);
    }
  }
  return prose;
}

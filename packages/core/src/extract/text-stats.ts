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
}

/** What one run of text contributes: weighted length and commas. */
interface TextMeasure {
  length: number;
  commas: number;
}

const commaCodes: ReadonlySet<number> = new Set([
  0x2c, 0x60c, 0xfe50, 0xfe10, 0xfe11, 0x2e41, 0x2e34, 0x2e32, 0xff0c, 0x3001,
]);

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
 * characters weigh more, and commas are counted.
 */
function measureRun(text: string): TextMeasure {
  const result: TextMeasure = { length: 0, commas: 0 };
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



const emptyStats = (): TextStats => ({ text: 0, linkText: 0, commas: 0, images: 0, media: 0, blocks: 0 });

/** What an element adds to the counts of its subtree (and its ancestors'). */
const countedTags: Record<string, readonly (keyof TextStats)[]> = {
  img: ['images', 'media'], picture: ['images', 'media'], iframe: ['media'], video: ['media'], figure: ['media'],
  table: ['media'], pre: ['media'], math: ['media'],
};

/**
 * Stats for every element under `root` (and `root` itself when it is an element). Call again after
 * the tree changed: the map is a snapshot.
 */
export function measureText(root: ParentNode): Map<Element, TextStats> {
  const result = new Map<Element, TextStats>();
  // Post-order without recursion: broken pages nest thousands of unclosed tags.
  interface Frame {
    element: Element;
    stats: TextStats;
    parentStats: TextStats;
    inLink: boolean;
    next: number;
  }
  const stack: Frame[] = [];
  const enter = (node: AnyNode, parentStats: TextStats, inLink: boolean): void => {
    if (isText(node)) {
      const run = measureNode(node);
      if (run.length === 0) return;
      parentStats.text += run.length;
      if (inLink) parentStats.linkText += run.length;
      parentStats.commas += run.commas;
    } else if (isTag(node)) {
      stack.push({ element: node, stats: emptyStats(), parentStats, inLink: inLink || node.name === 'a', next: 0 });
    }
  };
  const top = emptyStats();
  for (const node of isTag(root) ? [root] : root.children) {
    enter(node, top, false);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const child = frame.element.children[frame.next++];
      if (child) {
        enter(child, frame.stats, frame.inLink);
        continue;
      }
      stack.pop();
      for (const key of countedTags[frame.element.name] ?? []) frame.stats[key] += 1;
      if (!inlineTags.has(frame.element.name)) frame.stats.blocks += 1;
      result.set(frame.element, frame.stats);
      addStats(frame.parentStats, frame.stats);
    }
  }
  return result;
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
  const own: OwnText = { length: 0, linkLength: 0, commas: 0 };
  for (const child of element.children) {
    if (isText(child)) {
      const run = measureNode(child);
      own.length += run.length;
      own.commas += run.commas;
    } else if (isTag(child) && inlineTags.has(child.name)) {
      const childStats = stats.get(child);
      if (!childStats || childStats.blocks > 0) continue; // an inline wrapper around blocks is a block
      own.length += childStats.text;
      own.linkLength += child.name === 'a' ? childStats.text : childStats.linkText;
      own.commas += childStats.commas;
    }
  }
  return own;
}

/** A block's own text counts as prose from this many weighted characters... */
const minimumProseLength = 25;
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
  const elements = descendantElements(root);
  for (const element of elements) {
    if (inlineTags.has(element.name)) continue;
    const own = ownText(element, stats);
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

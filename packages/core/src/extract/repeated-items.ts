/**
 * A block made of repeated items: at least three sibling containers of one shape (the same tag and
 * class attribute, compared as written, so opaque names still match each other; or the same tag
 * and sequence of child tags, for items that each carry a name of their own), each with parts of
 * its own (a name, a date, a text) and short, holding most of the block's text. A comment thread
 * or a list of entries under an article has this shape; an article's own text is paragraphs, not
 * such items.
 * Root expansion (root-expansion.ts) does not take such a block after the content as its
 * continuation.
 */
import { type Element, isTag } from 'domhandler';
import type { TextStats } from './text-stats.js';

/** At least this many items of one shape... */
const minimumItems = 3;
/** ...holding at least this share of the block's text. */
const minimumItemShare = 0.6;
/** An item has at least this many child elements (its parts). */
const minimumItemParts = 2;
/** Items longer than this on average (weighted characters) are sections of a text, not entries. */
const maximumMeanItemText = 2000;
/** How deep under the block the items are looked for. */
const searchDepth = 4;
/** Containers that can be an item: a paragraph is the article's own text, never an item. */
const itemTags: ReadonlySet<string> = new Set(['div', 'li', 'article', 'section']);

const headingTags: ReadonlySet<string> = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** The two shapes an item is grouped by: its tag and class, its tag and its children's tags. */
function shapesOf(element: Element, parts: Element[]): string[] {
  return [`class ${element.name} ${element.attribs.class ?? ''}`, `parts ${element.name} ${parts.map((part) => part.name).join(' ')}`];
}

function itemsText(parent: Element, stats: Map<Element, TextStats>): number {
  const groups = new Map<string, { count: number; text: number }>();
  for (const child of parent.children) {
    if (!isTag(child) || !itemTags.has(child.name)) continue;
    const parts = child.children.filter(isTag);
    if (parts.length < minimumItemParts) continue;
    // A list item with parts is as often a docs list's entry (a name and its description, a point
    // and its sub-list) as another story: only one titled by a heading of its own is an entry.
    if (child.name === 'li' && !parts.some((part) => headingTags.has(part.name))) continue;
    for (const shape of shapesOf(child, parts)) {
      const group = groups.get(shape) ?? { count: 0, text: 0 };
      group.count++;
      group.text += stats.get(child)?.text ?? 0;
      groups.set(shape, group);
    }
  }
  let best = 0;
  for (const { count, text } of groups.values()) {
    if (count >= minimumItems && text <= maximumMeanItemText * count && text > best) best = text;
  }
  return best;
}

/** True when `block` (or a container within a few levels of it) is mostly repeated items. */
export function isRepeatedItems(block: Element, stats: Map<Element, TextStats>): boolean {
  const total = stats.get(block)?.text ?? 0;
  if (total === 0) return false;
  let level: Element[] = [block];
  for (let depth = 0; depth < searchDepth && level.length > 0; depth++) {
    const next: Element[] = [];
    for (const element of level) {
      if (itemsText(element, stats) >= minimumItemShare * total) return true;
      for (const child of element.children) if (isTag(child)) next.push(child);
    }
    level = next;
  }
  return false;
}

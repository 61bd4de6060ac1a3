/**
 * A picture gallery a CMS prints inside the text, found by repetition: the widget shows each
 * caption in its strip and again in its viewer ("Image 1 of 1", "Caption", "Close", "Back to
 * Gallery" around the copies). The smallest block that holds every copy of a repeated caption
 * goes when it holds a picture, is not the text's flow, and holds little besides the copies (no
 * paragraph of its own, less text than the copies). The text does not print its own paragraphs
 * twice; a pull quote that repeats a paragraph has the whole text around the two copies.
 */
import type { Element } from 'domhandler';
import { isTag } from 'domhandler';
import { collapsedText, isInline, isWithin } from './dom-tools.js';
import type { TextStats } from './text-stats.js';

/** A repeated block is at least this long (weighted characters): a caption, not a label. */
const copyMinimumText = 80;
/** Besides the copies, the widget holds at most this much text (its buttons and counters)... */
const widgetMaximumOwnText = 300;

/** The smallest element that holds all of `elements`. */
function commonAncestor(elements: Element[]): Element | undefined {
  let ancestor: Element | undefined = elements[0];
  for (const element of elements.slice(1)) {
    while (ancestor && !isWithin(element, ancestor)) ancestor = ancestor.parent && isTag(ancestor.parent) ? ancestor.parent : undefined;
  }
  return ancestor;
}

/**
 * The gallery widgets inside `flow` (see the module comment). `order`: the flow's elements in
 * document order; `isProse`: a paragraph of prose.
 */
export function trimGalleryWidgets(flow: Element, stats: Map<Element, TextStats>, order: Element[], isProse: (element: Element) => boolean): Element[] {
  // A widget holds a picture, so a flow without one holds no widget (most docs pages): no text is built.
  if (stats.get(flow)?.images === 0) return [];
  const copies = new Map<string, Element[]>();
  const leaves: Element[] = [];
  for (const element of order) {
    const elementStats = stats.get(element);
    if (elementStats?.blocks !== 1 || isInline(element) || elementStats.text < copyMinimumText) continue;
    leaves.push(element);
    const text = collapsedText(element);
    const found = copies.get(text);
    if (found) found.push(element);
    else copies.set(text, [element]);
  }
  const repeated = new Set<Element>();
  for (const group of copies.values()) if (group.length > 1) for (const element of group) repeated.add(element);
  if (repeated.size === 0) return [];
  const removed: Element[] = [];
  for (const group of copies.values()) {
    if (group.length < 2) continue;
    const widget = commonAncestor(group);
    if (!widget || widget === flow || !isWithin(widget, flow) || removed.some((other) => isWithin(widget, other))) continue;
    const widgetStats = stats.get(widget);
    if (!widgetStats || widgetStats.images === 0) continue;
    let copiedText = 0;
    let isPlain = true;
    for (const leaf of leaves) {
      if (!isWithin(leaf, widget)) continue;
      if (repeated.has(leaf)) copiedText += stats.get(leaf)!.text;
      else if (isProse(leaf)) isPlain = false;
    }
    const ownText = widgetStats.text - copiedText;
    if (isPlain && ownText <= widgetMaximumOwnText && ownText < copiedText) removed.push(widget);
  }
  return removed;
}

/**
 * A bar of share and page actions inside the article, found by what its links do rather than by
 * class names (which an unseen site does not share): a share button passes a page's address to
 * another site in its query (`sharer.php?u=https%3A…`, `intent/tweet?url=…`), a mail button opens
 * a message with no recipient (`mailto:?subject=…`), and a print or "send" button is a link that
 * goes nowhere (no `href`, `#`, `javascript:`).
 *
 * A block is such a bar when it holds two or more of these action links, no link to a page, no
 * heading, table, code or quote, and little text outside its links (a "Share" word, a date, a
 * share count). The outermost such block goes, with a short label right before it that holds no
 * link and ends with a colon or an exclamation mark ("Sharing is caring!", "Jaa artikkeli:"); a
 * credit or a signature line before a bar stays. Seen between the sections of a travel story (a date,
 * "Share", "› Versenden", "› Drucken" after each picture), above and below a recipe blog's post
 * (its label stayed when the cleanup took the bar), and around news posts.
 */
import { type Element, type ParentNode, isTag, isText } from 'domhandler';
import { adjacentElement, collapsedText, headingTags } from './dom-tools.js';
import type { TextStats } from './text-stats.js';

/** A link that leads nowhere: a script button or a jump to the top of the page. */
const deadHrefPattern = /^\s*(?:#(?:top)?|javascript:.*)?\s*$/i;
/** A link whose query passes an address on (a share button), or a mail with no recipient. */
const shareHrefPattern = /^\s*(?:(?:https?:)?\/\/[^?#]*\?[^#]*=\s*(?:https?(?::|%3a)|www\.)|mailto:\s*\?)/i;
/** A bar holds at most this much text outside its links (weighted characters): a label, a date, a count. */
const barMaximumOwnText = 40;
/** ...and at most this much text in all. */
const barMaximumText = 160;
/** A bar holds at least this many action links. */
const barMinimumActions = 2;
/** The label before a bar is at most this long (weighted characters)... */
const labelMaximumText = 30;
/** ...and at most this many words. */
const labelMaximumWords = 4;
/** ...and ends like a call or an introduction. */
const labelEndPattern = /[:!：！]$/u;
/** Blocks a bar of buttons never holds. */
const contentTags: ReadonlySet<string> = new Set([...headingTags, 'table', 'pre', 'code', 'blockquote', 'dl', 'figure']);

/** What a link does: 'action' (share, mail, print), 'page' (leads to a page), or 'none' (an anchor, an empty control). */
function linkKind(link: Element, stats: Map<Element, TextStats>): 'action' | 'page' | 'none' {
  const href = link.attribs.href;
  if (href === undefined) {
    // A named anchor (`<a name>`) marks a place; a control with no address and a label is a button.
    if (link.attribs.name !== undefined) return 'none';
    return (stats.get(link)?.text ?? 0) > 0 ? 'action' : 'none';
  }
  if (deadHrefPattern.test(href) || shareHrefPattern.test(href)) return 'action';
  // An icon with no text or picture in the page (a share icon drawn by the stylesheet) reads as nothing.
  const linkStats = stats.get(link);
  return linkStats && linkStats.text === 0 && linkStats.images === 0 && linkStats.media === 0 ? 'none' : 'page';
}

interface Counts {
  actions: number;
  pages: number;
  blocked: boolean;
}

/**
 * The share bars of `flow` and their labels (see the module comment), given its elements in
 * document order; the caller detaches them. One pass from the leaves up counts each element's
 * action and page links, then each outermost bar is taken once.
 */
export function trimShareBars(flow: Element, stats: Map<Element, TextStats>, order: Element[]): Element[] {
  if (!order.some((element) => element.name === 'a' && linkKind(element, stats) === 'action')) return [];
  const counts = new Map<Element, Counts>();
  // Per parent: whether it holds words beside its links (read once, however many links it holds).
  const wordy = new Map<ParentNode, boolean>();
  for (let index = order.length - 1; index >= 0; index--) {
    const element = order[index]!;
    const own: Counts = { actions: 0, pages: 0, blocked: contentTags.has(element.name) };
    if (element.name === 'a') {
      // A button stands alone in its item; a link in a line of words ("tap here to open the map")
      // is the text's own, and its block is no bar.
      let kind = linkKind(element, stats);
      if (kind === 'action' && hasWordsBeside(element, wordy)) kind = 'page';
      if (kind === 'action') own.actions = 1;
      else if (kind === 'page') own.pages = 1;
    }
    for (const child of element.children) {
      if (!isTag(child)) continue;
      const inner = counts.get(child);
      if (!inner) continue;
      own.actions += inner.actions;
      own.pages += inner.pages;
      own.blocked ||= inner.blocked;
    }
    counts.set(element, own);
  }
  const isBar = (element: Element): boolean => {
    const count = counts.get(element);
    if (!count || count.blocked || count.pages > 0 || count.actions < barMinimumActions) return false;
    const elementStats = stats.get(element);
    if (!elementStats || elementStats.text > barMaximumText) return false;
    return elementStats.text - elementStats.linkText <= barMaximumOwnText;
  };
  const taken: Element[] = [];
  for (const element of order) {
    if (element === flow || !isBar(element)) continue;
    const parent = element.parent;
    if (parent && isTag(parent) && parent !== flow && isBar(parent)) continue;
    taken.push(element);
    const label = adjacentElement(element, 'prev');
    if (label && isLabel(label, counts, stats)) taken.push(label);
  }
  return taken;
}

/** What may stand beside a button in its parent: separators and whitespace. */
const separatorPattern = /^[\s|·•,;/–—›»>-]*$/u;

/** True when the parent of `link` holds words of its own beside it (`known`: the answer per parent). */
function hasWordsBeside(link: Element, known: Map<ParentNode, boolean>): boolean {
  const parent = link.parent;
  if (!parent) return false;
  let answer = known.get(parent);
  if (answer === undefined) {
    answer = parent.children.some((child) => isText(child) && !separatorPattern.test(child.data));
    known.set(parent, answer);
  }
  return answer;
}

/** True when `element` is a short label with no link and no media ("Sharing is caring!"). */
function isLabel(element: Element, counts: Map<Element, Counts>, stats: Map<Element, TextStats>): boolean {
  const count = counts.get(element);
  const elementStats = stats.get(element);
  if (!count || !elementStats || count.actions + count.pages > 0 || elementStats.media > 0 || elementStats.images > 0) return false;
  if (elementStats.text === 0 || elementStats.text > labelMaximumText) return false;
  // The title is no label, nor is a table or a quote; a small heading is ("Share this:").
  if (element.name === 'h1' || (count.blocked && !headingTags.has(element.name))) return false;
  // A label introduces what follows ("Teilen:", "Sharing is caring!"); a credit or a signature
  // line before a bar ("Agencies", "- Nadja Podbregar") is the text's own.
  const text = collapsedText(element);
  return labelEndPattern.test(text) && text.split(' ').length <= labelMaximumWords;
}

/**
 * Two template leftovers at the edges of an article, found by shape and position only:
 *
 * - a list of other stories after the text: a `ul`/`ol` whose every item is one link to another
 *   page of one site, each a headline (four words or more, no picture), after the last paragraph
 *   of prose and right after a paragraph that ends as a sentence ends ("27 Oddest Medical Case
 *   Reports", "10 Strangest Medical Cases" under a news story). A list the text introduces (a
 *   line ending with a colon, a heading: "Sources") or a list in the middle of the text stays;
 * - a byline under the title: among the first lines after the title, before the first paragraph
 *   of prose or another heading and outside lists, a short label (four words at most, no
 *   sentence, no colon) that holds a link of at most three words ("written by [Regan]", "By [Ann
 *   Lee]"; not a field label: "Source code: [Lib/x.py]"). A dateline (a date beside the name) is
 *   `trimTitleDateline`'s.
 */
import type { AnyNode, Element } from 'domhandler';
import { isTag, isText } from 'domhandler';
import { collapsedText, descendantElements, headingLevel, isInline, isWithin } from './dom-tools.js';
import type { TextStats } from './text-stats.js';

/** A related list has at least this many items... */
const relatedMinimumItems = 2;
/** ...each a headline of at least this many words... */
const relatedMinimumWords = 4;
/** ...and at most this long (weighted characters). */
const relatedMaximumText = 200;
const sentenceEnd = /[.!?。！？]["'”’)]?(?:\s|$)/;
/** A text that ends as a sentence ends (not on a colon). */
const sentenceClose = /[.!?。！？]["'”’)]?$/;
/** A link that stays on the page or leads nowhere. */
const localHrefPattern = /^\s*(?:#.*|javascript:.*)?\s*$/i;

/** The host a link leads to ('' for a link relative to the page's own site). */
function hostOf(href: string): string {
  const match = /^\s*(?:[a-z][a-z0-9+.-]*:)?\/\/([^/?#]+)/i.exec(href);
  return match ? match[1]!.toLowerCase().replace(/^www\./, '') : '';
}

/** The element before `element` among its siblings, past whitespace and blocks with neither text nor media. */
function previousBlock(element: Element, stats: Map<Element, TextStats>): Element | undefined {
  let node: AnyNode | null = element.prev;
  for (; node; node = node.prev) {
    if (isText(node)) {
      if (node.data.trim() !== '') return undefined;
      continue;
    }
    if (!isTag(node)) continue;
    const nodeStats = stats.get(node);
    if (!isInline(node) && nodeStats?.text === 0 && nodeStats.media === 0) continue;
    return node;
  }
  return undefined;
}

/** The host of a list item that is one link and nothing else, a headline; undefined otherwise. */
function headlineHost(item: Element, stats: Map<Element, TextStats>): string | undefined {
  const itemStats = stats.get(item);
  if (item.name !== 'li' || !itemStats || itemStats.text === 0 || itemStats.text > relatedMaximumText) return undefined;
  if (itemStats.linkText < itemStats.text || itemStats.media > 0) return undefined;
  const links = descendantElements(item, (child) => child.name === 'a');
  const href = links.length === 1 ? links[0]!.attribs.href : undefined;
  if (href === undefined || localHrefPattern.test(href)) return undefined;
  if (collapsedText(item).split(' ').length < relatedMinimumWords) return undefined;
  return hostOf(href);
}

/** True when `list` is a list of headlines linking to one site. */
function isHeadlineList(list: Element, stats: Map<Element, TextStats>): boolean {
  if (list.name !== 'ul' && list.name !== 'ol') return false;
  const items = list.children.filter(isTag);
  if (items.length < relatedMinimumItems) return false;
  const hosts = new Set<string | undefined>();
  for (const item of items) hosts.add(headlineHost(item, stats));
  return hosts.size === 1 && !hosts.has(undefined);
}

/**
 * The lists of other stories after the text (see the module comment). `order`: the flow's elements
 * in document order; `isProse`: a paragraph of prose.
 */
export function trimRelatedLinkLists(stats: Map<Element, TextStats>, order: Element[], isProse: (element: Element) => boolean): Element[] {
  let lastProse = -1;
  for (let index = order.length - 1; index >= 0 && lastProse < 0; index--) if (isProse(order[index]!)) lastProse = index;
  if (lastProse < 0) return [];
  const removed: Element[] = [];
  for (let index = lastProse + 1; index < order.length; index++) {
    const list = order[index]!;
    if (!isHeadlineList(list, stats)) continue;
    // The text's own sentence comes right before it: a list the text introduces follows a line
    // that ends with a colon, or a heading ("Sources").
    const previous = previousBlock(list, stats);
    if (!previous || (previous.name !== 'p' && previous.name !== 'div') || stats.get(previous)?.blocks !== 1) continue;
    if (!isProse(previous) && !sentenceClose.test(collapsedText(previous))) continue;
    removed.push(list);
  }
  return removed;
}

/** A byline is at most this long (weighted characters)... */
const bylineMaximumText = 40;
/** ...and this many words... */
const bylineMaximumWords = 4;
/** ...with a link (the name) of at most this many words... */
const bylineNameMaximumWords = 3;
/** ...among this many lines of text after the title. */
const bylineWindow = 3;

/** True when `element` sits in a list item. */
function isInList(element: Element): boolean {
  for (let node = element.parent; node && isTag(node); node = node.parent) if (node.name === 'li') return true;
  return false;
}

/**
 * The byline under the title (see the module comment). `order`: the flow's elements in document
 * order; `isProse`: a paragraph of prose.
 */
export function trimTitleByline(title: Element, stats: Map<Element, TextStats>, order: Element[], isProse: (element: Element) => boolean): Element[] {
  const start = order.indexOf(title);
  if (start < 0) return [];
  let seen = 0;
  for (let index = start + 1; index < order.length && seen < bylineWindow; index++) {
    const element = order[index]!;
    const elementStats = stats.get(element);
    if (isWithin(element, title)) continue;
    // A byline sits between the title and the text: a heading or a paragraph ends the search.
    if (headingLevel(element) > 0) return [];
    if (!elementStats || elementStats.text === 0 || elementStats.blocks !== 1 || isInline(element)) continue;
    if (isProse(element)) return [];
    seen++;
    // A list item ("[numpy] (1.20 or later)") is an entry of the text's list.
    if (elementStats.text > bylineMaximumText || elementStats.media > 0 || element.name === 'li' || isInList(element)) continue;
    if (elementStats.linkText === 0 || elementStats.linkText === elementStats.text) continue;
    const text = collapsedText(element);
    // A field label ("Source code: Lib/http/server.py") names what its link is: a byline has no colon.
    if (text.split(' ').length > bylineMaximumWords || sentenceEnd.test(`${text} `) || text.includes(':')) continue;
    const links = descendantElements(element, (child) => child.name === 'a');
    if (links.length !== 1 || localHrefPattern.test(links[0]!.attribs.href ?? '')) continue;
    if (collapsedText(links[0]!).split(' ').length <= bylineNameMaximumWords) return [element];
  }
  return [];
}

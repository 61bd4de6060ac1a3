/**
 * The discussion under an article, found by structure rather than by class names (which an unseen
 * site does not share): a CMS titles its comment section with the article's own title ("3 comments
 * on “Title”", "Noch keine Kommentare zu Title", "Keine Kommentare for “Title”"). The article's
 * sections do not repeat its whole title in a heading, so a later heading that quotes the title
 * with more words around it opens the discussion, in any language:
 *
 * - after the last prose paragraph, the largest block around such a heading that holds no prose
 *   and little text besides the heading (an empty discussion: "no comments yet", "add a comment");
 * - anywhere after the title, a heading that quotes the title between quote marks, with what
 *   follows it at its level (the thread: comments are prose too, so it may come before the last
 *   prose paragraph).
 */
import type { AnyNode, Element } from 'domhandler';
import { isTag, isText } from 'domhandler';
import { chainText, collapsedText, descendantElements, firstElement, hasOwnText, headingLevel, isInline, isWithin } from './dom-tools.js';
import { linksToOwnSection } from './section-anchor.js';
import { type TextStats, linkDensity } from './text-stats.js';

/** A title shorter than this (weighted characters) is too common to be recognised when repeated. */
const titleMinimumText = 15;
/** ...or of fewer words than this (a project's name: "Projects using bundle-require"). */
const titleMinimumWords = 3;
/** The heading says more than the title: at least this many characters more. */
const echoMinimumExtra = 4;
/** An empty discussion holds at most this many characters besides its heading. */
const emptyDiscussionMaximumText = 200;

const openingQuotes = '"\'“”„‚«»‘’「『';
const closingQuotes = '"\'“”«»‘’」』';

/** True when `text` holds the title between quote marks. */
function quotesTitle(text: string, title: string): boolean {
  for (let index = text.indexOf(title); index >= 0; index = text.indexOf(title, index + 1)) {
    const before = text[index - 1];
    const after = text[index + title.length];
    if (before !== undefined && after !== undefined && openingQuotes.includes(before) && closingQuotes.includes(after)) return true;
  }
  return false;
}

/**
 * Removes a discussion titled with the article's title (see the module comment). `order`: the
 * flow's elements in document order; `isProse`: a prose paragraph; `holders`: the prose
 * paragraphs and every element holding one. Returns the nodes it detached.
 */
export function trimTitledDiscussion(
  flow: Element,
  title: Element,
  stats: Map<Element, TextStats>,
  holders: Set<Element>,
  order: Element[],
  isProse: (element: Element) => boolean,
): Element[] {
  const titleText = collapsedText(title);
  if (titleText.length < titleMinimumText || titleText.split(' ').length < titleMinimumWords) return [];
  const titleIndex = order.indexOf(title);
  const lastProse = order.findLastIndex(isProse);
  const removed: Element[] = [];
  for (let index = Math.max(titleIndex, 0) + 1; index < order.length; index++) {
    const heading = order[index]!;
    if (headingLevel(heading) < 2 || isWithin(heading, title) || removed.some((box) => isWithin(heading, box))) continue;
    const text = collapsedText(heading);
    if (text.length < titleText.length + echoMinimumExtra || !text.includes(titleText)) continue;
    if (index > lastProse) {
      let box = heading;
      while (box.parent && isTag(box.parent) && box.parent !== flow && !holders.has(box.parent) && !isWithin(title, box.parent)) box = box.parent;
      if ((stats.get(box)?.text ?? Infinity) <= (stats.get(heading)?.text ?? 0) + emptyDiscussionMaximumText) removed.push(box);
    } else if (quotesTitle(text, titleText)) {
      // The thread: the heading's block and what follows it at the heading's level.
      const parent = heading.parent;
      if (!parent || !isTag(parent)) continue;
      const siblings = parent.children.filter(isTag);
      const tail = siblings.slice(siblings.indexOf(heading));
      if (tail.some((sibling) => isWithin(title, sibling))) continue;
      for (const sibling of tail) removed.push(sibling);
    }
  }
  return removed;
}

/** A closing box holds at most this many weighted characters... */
const closingBoxMaximumText = 600;
/** ...and comes after at least this many prose paragraphs of the text... */
const closingBoxMinimumProse = 2;
/** ...and at least this many times its own text in the flow's blocks before it. */
const closingBoxTextShare = 4;
/** Blocks after the box with at least this share of their text in links do not end the text. */
const trailingLinkDensity = 0.5;
/** ...and so do blocks shorter than this (weighted characters). */
const trailingScrapText = 25;
const boxTags: ReadonlySet<string> = new Set(['div', 'section', 'aside']);

/** The first element under `element` that holds text of its own, with the element itself. */
function firstTextHolder(element: Element): Element | undefined {
  const stack: AnyNode[] = [element];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isText(node)) {
      if (node.data.trim() !== '') return node.parent && isTag(node.parent) ? node.parent : undefined;
    } else if (isTag(node)) {
      for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
    }
  }
  return undefined;
}

/** The heading `element`'s text opens with, if it opens with one. */
function openingHeading(element: Element): Element | undefined {
  // The texts of the wrappers on the way up, each read once (a chain of 512 `b` and `div` read
  // the subtree under it at each `b`).
  const texts = new Map<Element, string>();
  for (let node = firstTextHolder(element); node && node !== element; node = node.parent && isTag(node.parent) ? node.parent : undefined) {
    if (headingLevel(node) >= 2 || isBoldLine(node, element, texts)) return node;
  }
  return undefined;
}

const boldTags: ReadonlySet<string> = new Set(['strong', 'b']);
/** A bold line titles a box when it is at most this long (characters): a title, not a bold sentence. */
const boldLineMaximumText = 80;

/**
 * A heading written as a bold line: `strong` or `b` that is the whole text of a block of its own
 * inside `box`, and short (`<div><strong>Apoya el periodismo incómodo</strong></div>`, a centred
 * `<p><strong>– • –</strong></p>` over a disclaimer): a box's title typed in an editor that
 * offers no heading element.
 */
function isBoldLine(node: Element, box: Element, texts: Map<Element, string>): boolean {
  if (!boldTags.has(node.name)) return false;
  let block = node.parent;
  while (block && isTag(block) && block !== box && isInline(block)) block = block.parent;
  if (!block || !isTag(block) || block === box) return false;
  const text = chainText(node, texts);
  return text.length <= boldLineMaximumText && chainText(block, texts) === text;
}

/**
 * Removes a closing box: the flow's last block with text, when it is a wrapper of its own that
 * holds a few lines after the text's paragraphs and either
 *
 * - opens with a heading ("Subscribe to our newsletter!", "Support our journalism"), or with a
 *   short bold line standing as one (`isBoldLine`); a text whose sections are wrappers opening
 *   with a heading (`section > h2`) ends with such a section, so a box is shaped unlike the blocks
 *   beside it (before it, or the link-only ones after it); or
 * - is a card: a square picture (a portrait: declared width and height within a fifth of each
 *   other) beside the lines, with no other picture (the author's photo and bio). A photo with its
 *   caption is wider than high.
 */
export function trimClosingBox(flow: Element, stats: Map<Element, TextStats>, isProse: (element: Element) => boolean, order: Element[]): Element[] {
  const blocks = flow.children.filter(isTag);
  // Blocks of links (a tag list, share buttons) and scraps (a "Reply" label) after the box are
  // left to the other rules.
  const withText = blocks.filter((block) => (stats.get(block)?.text ?? 0) > 0);
  const isTrailing = (block: Element): boolean => linkDensity(stats.get(block)) >= trailingLinkDensity || (stats.get(block)?.text ?? 0) < trailingScrapText;
  while (withText.length > 0 && isTrailing(withText.at(-1)!)) withText.pop();
  const box = withText.at(-1);
  if (!box || !boxTags.has(box.name) || withText.length < 2) return [];
  const boxStats = stats.get(box);
  if (!boxStats || boxStats.text > closingBoxMaximumText) return [];
  const heading = openingHeading(box);
  const isHeadedBox =
    heading !== undefined &&
    // A heading with a permalink to its own section opens one of the document's sections.
    !linksToOwnSection(heading, box) &&
    !blocks.some((block) => block !== box && block.name === box.name && openingHeading(block) !== undefined);
  if (!isHeadedBox && !isPortraitCard(box)) return [];
  const proseBefore = order.filter((element) => isProse(element) && !isWithin(element, box)).length;
  const otherText = withText.slice(0, -1).reduce((sum, block) => sum + (stats.get(block)?.text ?? 0), 0);
  return proseBefore >= closingBoxMinimumProse && otherText >= closingBoxTextShare * boxStats.text ? [box] : [];
}

/** A portrait's declared width and height are within this ratio of each other. */
const portraitMaximumRatio = 1.25;

/** True when `box` holds one picture, square by its declared size, outside a `figure`. */
function isPortraitCard(box: Element): boolean {
  const images = descendantElements(box, (element) => element.name === 'img' || element.name === 'figure' || element.name === 'picture');
  if (images.length !== 1 || images[0]!.name !== 'img') return false;
  const width = Number.parseFloat(images[0]!.attribs.width ?? '');
  const height = Number.parseFloat(images[0]!.attribs.height ?? '');
  if (!(width > 0 && height > 0)) return false;
  return Math.max(width, height) / Math.min(width, height) <= portraitMaximumRatio;
}

/** A dateline is at most this long (weighted characters)... */
const datelineMaximumText = 120;
/** ...and is among this many blocks of text after the title. */
const datelineWindow = 3;
/** A year, a numeric date or a time of day. */
const datePattern = /(?:^|\D)(?:1[89]|20)\d\d(?:\D|$)|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|(?:^|\D)\d{1,2}:\d\d(?:\D|$)/;

/**
 * Removes a dateline under the title: among the first few blocks of text after it, a short line
 * that holds a date (a year, a numeric date, a time of day) and does not end as a sentence ends
 * ("von Anja Muster am 14. Mai 2014, 15:40 Uhr", "opublikowano: 7 kwietnia 2021"). The byline a
 * CMS prints beside the title: class names mark it on known sites, its place and shape on others.
 * A line that holds a `time` element is a dateline even when it ends on a dot ("1:35 a.m.").
 */
export function trimTitleDateline(title: Element, stats: Map<Element, TextStats>, order: Element[]): Element[] {
  const start = order.indexOf(title);
  if (start < 0) return [];
  let seen = 0;
  // Whether a parent's inline children stand as lines: judged once per parent (linear on a wide parent).
  const linesIn = new Map<Element, boolean>();
  for (let index = start + 1; index < order.length && seen < datelineWindow; index++) {
    const element = order[index]!;
    const elementStats = stats.get(element);
    if (isWithin(element, title) || !elementStats || elementStats.text === 0) continue;
    // A block of inline content, or an inline element standing as a line between blocks.
    if (isInline(element) ? !isLineAmongBlocks(element, linesIn) : elementStats.blocks !== 1) continue;
    seen++;
    if (elementStats.text > datelineMaximumText || headingLevel(element) > 0 || elementStats.media > 0 || isPictureCaption(element, stats)) continue;
    const text = collapsedText(element);
    // A line that marks its date as a `time` may end on a dot ("Updated: Nov. 20, 2019 1:35 a.m.").
    if (datePattern.test(text) && (!/[.!?。！？]["'”’)]?$/.test(text) || holdsTime(element))) return [element];
  }
  return [];
}

const isTimeElement = (element: Element): boolean => element.name === 'time';

/** True when the line holds a `time` element: the page marks its date as a date. */
function holdsTime(element: Element): boolean {
  return element.name === 'time' || firstElement(element, isTimeElement) !== undefined;
}

/**
 * True when the inline element stands as a line of its own: its parent is a block with no loose
 * text, and holds a block beside it (`header > h1 + p + span.byline`).
 */
function isLineAmongBlocks(element: Element, linesIn: Map<Element, boolean>): boolean {
  const parent = element.parent;
  if (!parent || !isTag(parent) || isInline(parent)) return false;
  let isLines = linesIn.get(parent);
  if (isLines === undefined) {
    isLines = !hasOwnText(parent) && parent.children.some(isBlockElement);
    linesIn.set(parent, isLines);
  }
  return isLines;
}

const isBlockElement = (node: AnyNode): boolean => isTag(node) && !isInline(node);

/**
 * True when the line comes right after a picture in its parent (an image, or a wrapper or link that
 * holds pictures and no text): the picture's caption, even with a year in it ("Kyiv, 2014"), not
 * the page's dateline.
 */
function isPictureCaption(element: Element, stats: Map<Element, TextStats>): boolean {
  let previous = element.prev;
  while (previous && !isTag(previous)) previous = previous.prev;
  if (!previous) return false;
  if (previous.name === 'img' || previous.name === 'picture') return true;
  const previousStats = stats.get(previous);
  return previousStats !== undefined && previousStats.media > 0 && previousStats.text === 0;
}

/** A repeated row holds at least this many weighted characters (not a lone icon label)... */
const repeatedRowMinimumText = 10;
/** ...and at most this many (a row of buttons, not a sentence). */
const repeatedRowMaximumText = 80;
/** A row holds at least this many elements with text of their own. */
const repeatedRowMinimumItems = 3;
const rowTags: ReadonlySet<string> = new Set(['div']);
/** What a row of buttons does not hold: code, a table, a list, a form field, a picture caption. */
const rowExcludedTags: ReadonlySet<string> = new Set([
  'pre',
  'code',
  'kbd',
  'samp',
  'table',
  'ul',
  'ol',
  'dl',
  'li',
  'figcaption',
  'input',
  'select',
  'textarea',
]);

const sentenceEnd = /[.!?。！？]["'”’)]?(?:\s|$)/;

/**
 * Removes a row the template prints twice around the text: a short wrapper of a few items (three
 * or more elements with text), with no sentence and no heading ("Link Mail Whatsapp Beitrag teilen"), found again word for word
 * further down with prose between the copies. The article does not repeat its own lines.
 */
export function trimRepeatedRows(stats: Map<Element, TextStats>, order: Element[], isProse: (element: Element) => boolean): Element[] {
  const copies = new Map<string, Element[]>();
  for (const element of order) {
    if (!rowTags.has(element.name)) continue;
    const elementStats = stats.get(element);
    if (!elementStats || elementStats.text < repeatedRowMinimumText || elementStats.text > repeatedRowMaximumText) continue;
    const text = collapsedText(element);
    const found = copies.get(text);
    // The copies are in document order and none lies inside another, so an element inside one of
    // them is inside the last (a later copy would lie inside that one too): one walk up, not one per copy.
    if (found && isWithin(element, found.at(-1)!)) continue;
    if (sentenceEnd.test(text) || descendantElements(element, (child) => headingLevel(child) > 0).length > 0) continue;
    // A row of several items (buttons), not one label repeated per entry ("Added in: v14.2.0").
    if (descendantElements(element, hasOwnText).length < repeatedRowMinimumItems) continue;
    if (firstElement(element, (child) => rowExcludedTags.has(child.name)) !== undefined) continue;
    if (found) found.push(element);
    else copies.set(text, [element]);
  }
  const groups = [...copies.values()].filter((group) => group.length >= 2);
  if (groups.length === 0) return [];
  // Each group reads the stretch of the flow between its first and last copy: positions from one
  // map and prose from one finder, not an indexOf and a slice of the flow per group (quadratic in
  // the groups when many rows are each printed twice far apart).
  const position = new Map<Element, number>();
  for (let index = 0; index < order.length; index++) position.set(order[index]!, index);
  const nextProse = proseFinder(order, isProse);
  const removed: Element[] = [];
  for (const group of groups) {
    const head = group[0]!;
    const first = position.get(head)!;
    const last = position.get(group.at(-1)!)!;
    // The first copy's own elements follow it in document order: prose after them, before the last copy.
    let after = first + 1;
    while (after < last && isWithin(order[after]!, head)) after++;
    if (nextProse(after) < last) for (const element of group) removed.push(element);
  }
  return removed;
}

/**
 * A function giving the first position at or after `from` whose element of `order` is prose
 * (`order.length` when none): each element is asked once, and a run of elements known not to be
 * prose is jumped over in one step (the jumps are shortened as they are walked).
 */
function proseFinder(order: readonly Element[], isProse: (element: Element) => boolean): (from: number) => number {
  // jump[i] > i: no prose from i up to jump[i]; jump[i] === i: not asked yet, or prose (`asked`).
  const jump = Int32Array.from({ length: order.length + 1 }, (_, index) => index);
  const asked = new Uint8Array(order.length);
  return (from) => {
    let at = from;
    while (at < order.length) {
      if (jump[at]! !== at) at = jump[at]!;
      else if (asked[at] === 1) break;
      else {
        asked[at] = 1;
        if (isProse(order[at]!)) break;
        jump[at] = at + 1;
        at++;
      }
    }
    for (let node = from; node < at; ) {
      const next = jump[node]!;
      jump[node] = at;
      node = next;
    }
    return at;
  };
}

/** A trailing heading comes after at least this many prose paragraphs of the text... */
const trailingHeadingMinimumProse = 2;
/** ...and is a label of at most this many words, not a sentence (a closing line set as a heading stays). */
const trailingHeadingMaximumWords = 4;

/** True when no text follows `element` inside `flow` (pictures and empty links may). */
function endsTheText(element: Element, flow: Element): boolean {
  for (let node: Element = element; node !== flow; ) {
    for (let next = node.next; next; next = next.next) {
      if (isText(next) ? next.data.trim() !== '' : isTag(next) && collapsedText(next) !== '') return false;
    }
    if (!node.parent || !isTag(node.parent)) return false;
    node = node.parent;
  }
  return true;
}

/**
 * Removes a heading with nothing under it: the flow's last heading (`h2`-`h6`), a label of a few
 * words, when no text follows it, prose comes before it, it is the only text of its wrapper and
 * no other heading of the text has its rank. A template's section title ("News", "Empfehlungen")
 * whose list of teasers is empty in the page (loaded by a script) titles nothing of the text.
 */
export function trimTrailingHeading(flow: Element, isProse: (element: Element) => boolean, order: Element[]): Element[] {
  let heading: Element | undefined;
  for (let index = order.length - 1; index >= 0; index--) {
    if (headingLevel(order[index]!) >= 2) {
      heading = order[index]!;
      break;
    }
  }
  if (!heading || !endsTheText(heading, flow)) return [];
  const text = collapsedText(heading);
  if (text === '' || text.split(' ').length > trailingHeadingMaximumWords || sentenceEnd.test(text)) return [];
  // The title of a template section whose items were left out (or loaded later) is wrapped with its
  // empty list, and is the text's only heading of its rank. A documentation page's last section
  // ("LICENSE: MIT") is one of a run of peers and says what it has to say in the heading itself.
  const wrapper = heading.parent;
  if (!wrapper || !isTag(wrapper) || wrapper === flow || collapsedText(wrapper) !== text) return [];
  if (order.some((element) => element !== heading && element.name === heading!.name)) return [];
  const proseBefore = order.filter((element) => isProse(element) && !isWithin(element, heading)).length;
  return proseBefore >= trailingHeadingMinimumProse ? [heading] : [];
}

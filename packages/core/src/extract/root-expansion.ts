/**
 * Lifts a chosen content root to the ancestors whose other children continue it: an article whose
 * parts sit in sibling containers (split by an ad slot or an embedded link box), or a table of
 * signatures beside the letter it signs. Each step may bring a little clutter along in proportion
 * to the prose it adds; climbing stops at the first ancestor that brings more (a teaser list, a
 * link block, a site footer, a comment thread: `repeated-items.ts`).
 *
 * The content ends at the first block after it that has text and does not continue it (a "more on
 * this" link box, an aside), and under `body` at the latest at the body's last block (the site
 * footer's place). What comes after that end is the page's, not the article's (a comment thread,
 * a contact line, the site's own blurb) when it holds little prose next to the content: it neither
 * pulls the root up nor holds it back, and when the root climbs over it, it is handed back as the
 * content's tail, to be cut. An article cut in two by a link box keeps its second half, which
 * holds more prose.
 */
import { type AnyNode, type Element, isTag, isText } from 'domhandler';
import { collapsedText, descendantElements, headingTags } from './dom-tools.js';
import { mainLandmarkBound } from './main-landmark.js';
import { isRepeatedItems } from './repeated-items.js';
import { sectionBlockLevel } from './section-blocks.js';
import { type TextStats, linkDensity } from './text-stats.js';

/** A sibling shorter than this (weighted characters) is clutter, not a continuation. */
const minimumContinuationLength = 25;

/**
 * An ancestor replaces the root only when it adds at least this much prose (a byline or a
 * teaser does not)...
 */
const minimumAddedProse = 300;
/** ...and at least this share of the prose the root already has. */
const minimumAddedProseShare = 0.1;
/** Clutter (text of siblings that do not continue the content) tolerated at each step... */
const clutterSlack = 100;
/**
 * ...or, for a root of much prose, this share of it: a few short blocks beside a long text (an API
 * class's type signature and "Type Parameters"/"See Also" notes beside its description) do not stop
 * the climb to the sections that continue it (Javadoc's member summary and details).
 */
const clutterSlackShare = 0.02;
/** ...plus this much per character of prose the step adds. */
const clutterPerProse = 0.25;
/** A sibling continues the content when at most this share of its text is in links... */
const continuingMaximumLinkDensity = 0.35;
/** ...and at least this share of its text is prose. */
const continuingMinimumProse = 0.6;

/** Lists with at least this many items are checked for teasers... */
const teaserListMinimumItems = 3;
/** ...and are teaser lists when this share of their items open with a link (headline + summary). */
const teaserItemShare = 0.6;

/** True when the first text inside `node` belongs to a link. */
function opensWithLink(node: Element): boolean {
  const stack: AnyNode[] = [...node.children].reverse();
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (isText(current)) {
      if (current.data.trim() !== '') return false;
    } else if (isTag(current)) {
      if (current.name === 'a') return collapsedText(current) !== '';
      for (let index = current.children.length - 1; index >= 0; index--) stack.push(current.children[index]!);
    }
  }
  return false;
}

// A module function, not an arrow made per call (see `holdsCode` in content-cleanup.ts).
const isListItemOrArticle = (element: Element): boolean => element.name === 'li' || element.name === 'article';

/** A list of teasers (each item a linked headline with a summary): related stories, tickers. */
export function isTeaserList(element: Element): boolean {
  const items = descendantElements(element, isListItemOrArticle);
  if (items.length < teaserListMinimumItems) return false;
  return items.filter(opensWithLink).length >= teaserItemShare * items.length;
}

/** What follows the content's end is its tail when it holds less than this share of the root's prose. */
const maximumTailProseShare = 0.25;

/** Blocks of a document's own flow: a list of links or a table there is part of the document. */
const flowBlockTags: ReadonlySet<string> = new Set([...headingTags, 'p', 'ul', 'ol', 'dl', 'table', 'pre', 'blockquote', 'figure', 'hr', 'img', 'picture']);
/** Tags that say a block is not the main content (ARIA's complementary, navigation, contentinfo). */
const asideTags: ReadonlySet<string> = new Set(['aside', 'nav', 'footer']);

/**
 * True when `block`, after the content and not continuing it, ends the content: an `aside`, `nav`
 * or `footer`, or a box that is neither a block of a document's flow nor a section opened by its
 * heading (a docs page's "See also" list or section goes on to the next section).
 */
function endsContent(block: Element): boolean {
  if (asideTags.has(block.name)) return true;
  return !flowBlockTags.has(block.name) && sectionBlockLevel(block) === 0;
}

/** The last child of `parent` with text enough to continue content (the site footer's place under `body`). */
function lastTextBlock(parent: Element, stats: Map<Element, TextStats>): Element | undefined {
  for (let index = parent.children.length - 1; index >= 0; index--) {
    const child = parent.children[index]!;
    if (isTag(child) && (stats.get(child)?.text ?? 0) >= minimumContinuationLength) return child;
  }
  return undefined;
}

/**
 * The highest ancestor of `root` (up to `body`, and not past the page's main landmark) that only
 * adds content; `root` itself if none. `tail` receives the blocks after the content's end that the
 * chosen ancestor holds (see the module comment), for the caller to cut.
 */
export function expandRoot(root: Element, prose: Map<Element, number>, stats: Map<Element, TextStats>, tail: Element[] = []): Element {
  let best = root;
  let current = root;
  let addedProse = 0;
  let clutter = 0;
  // Tails of the levels climbed since `best`: cut only if the root climbs over them.
  let pendingTail: Element[] = [];
  // Not past the page's main landmark: what lies outside it is not the main content.
  const bound = mainLandmarkBound(root);
  for (let parent = root.parent; parent && isTag(parent) && parent.name !== 'html'; parent = parent.parent) {
    if (current === bound) return best;
    let isAfter = false;
    let end: Element | undefined;
    const footer = parent.name === 'body' ? lastTextBlock(parent, stats) : undefined;
    let tailProse = 0;
    let tailClutter = 0;
    const levelTail: Element[] = [];
    for (const sibling of parent.children) {
      if (sibling === current) isAfter = true;
      if (sibling === current || !isTag(sibling)) continue;
      // The site footer links to the site's own pages (imprint, privacy); a closing photo does not.
      if (sibling === footer && isAfter && endsContent(sibling) && (stats.get(sibling)?.linkText ?? 0) > 0) end ??= sibling;
      if (end) levelTail.push(sibling);
      const siblingStats = stats.get(sibling);
      const text = siblingStats?.text ?? 0;
      const siblingProse = prose.get(sibling) ?? 0;
      const isContinuation =
        text >= minimumContinuationLength &&
        linkDensity(siblingStats) <= continuingMaximumLinkDensity &&
        siblingProse >= continuingMinimumProse * text &&
        !isTeaserList(sibling) &&
        // A comment thread or list of entries after the content is not more of it.
        !(isAfter && isRepeatedItems(sibling, stats));
      if (end) {
        if (isContinuation) tailProse += siblingProse;
        else tailClutter += text;
      } else if (isContinuation) addedProse += siblingProse;
      else clutter += text;
      if (isAfter && !end && !isContinuation && text >= minimumContinuationLength && endsContent(sibling)) {
        end = sibling;
        levelTail.push(sibling);
      }
    }
    if (tailProse < maximumTailProseShare * (prose.get(best) ?? 0)) for (const sibling of levelTail) pendingTail.push(sibling);
    else {
      addedProse += tailProse;
      clutter += tailClutter;
    }
    if (clutter > Math.max(clutterSlack, clutterSlackShare * (prose.get(best) ?? 0)) + clutterPerProse * addedProse) break;
    if (addedProse >= Math.max(minimumAddedProse, minimumAddedProseShare * (prose.get(best) ?? 0))) {
      best = parent;
      addedProse = 0;
      clutter = 0;
      for (const sibling of pendingTail) tail.push(sibling);
      pendingTail = [];
    }
    current = parent;
  }
  return best;
}

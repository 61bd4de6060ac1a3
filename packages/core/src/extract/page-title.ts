/**
 * Finds the page's title heading: the `h1` whose words best match the document title
 * (`og:title`, `twitter:title`, `<title>`), else the only `h1` with a real text, else, on a page
 * with no `h1`, the one block of plain text that says the title (a title block); on such a page a
 * title block that says more of the title's words than the best heading wins over it. The
 * extractor puts it back on top of the content when the content root does not already hold it.
 */
import type { Document, Element, ParentNode } from 'domhandler';
import { isTag } from 'domhandler';
import { getAttributeValue } from 'domutils';
import { collapsedText, descendantElements, firstElement, headingLevel, headingTags, inlineTags } from './dom-tools.js';

const tokenPattern = /[\p{L}\p{N}]+/gu;
/** Share of a heading's words that must occur in the document title. */
const minimumOverlap = 0.6;
const titleMetaNames: ReadonlySet<string> = new Set(['og:title', 'twitter:title', 'title', 'dc.title']);

// Predicates as module functions, not arrows made per call (see `holdsCode` in content-cleanup.ts).
const isMeta = (element: Element): boolean => element.name === 'meta';
const isTitledH1 = (element: Element): boolean => element.name === 'h1' && collapsedText(element) !== '';

/** The headings with text of the highest level the page has. */
function topHeadings(elements: Element[]): Element[] {
  const headings = elements.filter((element) => headingTags.has(element.name) && collapsedText(element) !== '');
  // A loop, not `Math.min(...levels)`: a spread of 100,000 headings overflows the stack.
  let top = Number.POSITIVE_INFINITY;
  for (const heading of headings) top = Math.min(top, headingLevel(heading));
  return headings.filter((heading) => headingLevel(heading) === top);
}

/** The title strings a page declares in its head, most specific first. */
export function declaredTitles(document: Document): string[] {
  const titles: string[] = [];
  for (const meta of descendantElements(document, isMeta)) {
    const key = (getAttributeValue(meta, 'property') ?? getAttributeValue(meta, 'name') ?? '').toLowerCase();
    const content = getAttributeValue(meta, 'content');
    if (titleMetaNames.has(key) && content) titles.push(content);
  }
  const title = firstElement(document, (element) => element.name === 'title');
  if (title) titles.push(collapsedText(title));
  return titles.filter((text) => text.trim() !== '');
}

/** The words of `text`, lowercased: runs of letters and digits (punctuation and case aside). */
export function tokens(text: string): string[] {
  return text.toLowerCase().match(tokenPattern) ?? [];
}

/** Words of `heading` that occur in the title, or 0 when too few of them do. */
export function matchedWords(heading: string[], title: Set<string>): number {
  const matched = heading.filter((token) => title.has(token)).length;
  return heading.length > 0 && matched / heading.length >= minimumOverlap ? matched : 0;
}

/**
 * The `h1` under `root` that titles the page, if one does. Among headings whose words mostly occur
 * in the declared title, the one matching most words wins (a logo `h1` with the site name matches
 * fewer words than the article's own). `elements`: those under `root` in document order, when the
 * caller has the list already.
 */
export function findTitleHeading(root: ParentNode, titles: string[], elements = descendantElements(root)): Element | undefined {
  const h1s = elements.filter(isTitledH1);
  // A page with no h1 is titled by a heading of its highest level, when its words match: makeinfo
  // titles a node "15.3.3.11 Light Properties" in an h4, under no h1.
  const headings = h1s.length > 0 ? h1s : topHeadings(elements);
  const titleTokens = new Set(titles.flatMap(tokens));
  let best: Element | undefined;
  let bestMatched = 0;
  for (const heading of headings) {
    const matched = matchedWords(tokens(collapsedText(heading)), titleTokens);
    if (matched > bestMatched) {
      best = heading;
      bestMatched = matched;
    }
  }
  if (h1s.length === 0) {
    // A title block that says more of the title than the best heading is the title: the heading is
    // then one of many that share a word or two with it (Doxygen's `h2` "SDL_config_h_", a member
    // of "SDL_config_android.h File Reference", whose title is a `div`).
    const block = titleBlock(elements, titleTokens);
    if (block && tokens(collapsedText(block)).length > bestMatched) return block;
  }
  if (best || h1s.length === 0) return best;
  const [only] = headings;
  return headings.length === 1 && only && collapsedText(only).length >= 10 ? only : undefined;
}

/** Tags a title block is written in: a division or a paragraph of its own. */
const titleBlockTags: ReadonlySet<string> = new Set(['div', 'p']);
/** Share of the declared title's words a title block says (the rest name the site). */
const titleBlockCoverage = 0.5;

/**
 * The block that titles a page with no `h1` in a `div` of text, when exactly one does: every word
 * of it occurs in the declared title, and it says at least half of the title's words. Doxygen
 * writes its title so (`<div class="header"><div class="headertitle"><div class="title">SDL_Rect
 * Struct Reference</div></div></div>` under "SDL: SDL_Rect Struct Reference"), as does a page
 * builder that styles a `div` as the headline. More than one such block (a title repeated in a
 * breadcrumb's last item and in the headline) names none: which is the title is not known.
 */
function titleBlock(elements: Element[], titleTokens: Set<string>): Element | undefined {
  if (titleTokens.size === 0) return undefined;
  // The elements holding a block or a link, marked from the last up (children come after their
  // parent in document order): a block holding no block is read once, so the reads add up to the
  // page's text. And those in a link, marked from the first down: said by a link, a title names
  // another page (a breadcrumb's, a menu's).
  const holdsBlockOrLink = new Set<Element>();
  const linked = new Set<Element>();
  for (const element of elements) {
    const parent = element.parent;
    if (element.name === 'a' || (parent && isTag(parent) && linked.has(parent))) linked.add(element);
  }
  for (let index = elements.length - 1; index >= 0; index--) {
    const element = elements[index]!;
    if ((!inlineTags.has(element.name) || element.name === 'a' || holdsBlockOrLink.has(element)) && element.parent && isTag(element.parent))
      holdsBlockOrLink.add(element.parent);
  }
  // A block longer than twice the title's words (with a space each) cannot say only them: its text
  // is not split into words (a page's paragraphs would be, each time the page is read).
  let longest = 0;
  for (const token of titleTokens) longest += token.length + 1;
  let found: Element | undefined;
  for (const element of elements) {
    if (!titleBlockTags.has(element.name) || holdsBlockOrLink.has(element) || linked.has(element)) continue;
    const text = collapsedText(element);
    if (text.length > 2 * longest) continue;
    const words = tokens(text);
    if (words.length === 0 || !words.every((word) => titleTokens.has(word))) continue;
    if (new Set(words).size < titleBlockCoverage * titleTokens.size) continue;
    if (found) return undefined;
    found = element;
  }
  return found;
}

const isTitledHeading = (element: Element): boolean => headingTags.has(element.name) && collapsedText(element) !== '';
/** What parts a title into the page's name and the site's: "Data Types - The Rust Programming Language". */
export const titleSeparator = /\s+(?:[-|\u2013\u2014\u00b7\u00bb]|::)\s+/u;

/**
 * True when `content` opens with a heading of its own that names the page, the declared title's
 * leading part, and `title`, a heading found before the content, names only a trailing part, the
 * site's: mdBook's menu bar `h1` "The Rust Programming Language" above a chapter that opens with
 * its `h2` "Data Types" ("Data Types - The Rust Programming Language"), a blog's logo `h1` above a
 * post titled in an `h2`. Put on top, it would title the page with the site's name. A title that
 * names the site first ("Site | Page") is not read: which part is the page's is then not known.
 */
export function opensWithOwnTitle(content: Element, title: Element, titles: string[]): boolean {
  const declared = titles.map((text) => text.split(titleSeparator)).find((parts) => parts.length > 1);
  if (!declared) return false;
  const own = firstElement(content, isTitledHeading);
  if (!own) return false;
  const ownText = collapsedText(own);
  if (!collapsedText(content).startsWith(ownText)) return false;
  const [lead, ...rest] = declared.map((part) => new Set(tokens(part)));
  const outside = tokens(collapsedText(title));
  if (matchedWords(tokens(ownText), lead!) === 0 || matchedWords(outside, lead!) > 0) return false;
  return rest.some((part) => matchedWords(outside, part) > 0);
}

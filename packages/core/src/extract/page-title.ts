/**
 * Finds the page's title heading: the `h1` whose words best match the document title
 * (`og:title`, `twitter:title`, `<title>`), else the only `h1` with a real text. The extractor puts
 * it back on top of the content when the content root does not already hold it.
 */
import type { Document, Element, ParentNode } from 'domhandler';
import { getAttributeValue } from 'domutils';
import { collapsedText, descendantElements, firstElement, headingLevel, headingTags } from './dom-tools.js';

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
  const top = Math.min(...headings.map(headingLevel));
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

function tokens(text: string): string[] {
  return text.toLowerCase().match(tokenPattern) ?? [];
}

/** Words of `heading` that occur in the title, or 0 when too few of them do. */
function matchedWords(heading: string[], title: Set<string>): number {
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
  if (best) return best;
  if (h1s.length === 0) return undefined;
  const [only] = headings;
  return headings.length === 1 && only && collapsedText(only).length >= 10 ? only : undefined;
}

const isTitledHeading = (element: Element): boolean => headingTags.has(element.name) && collapsedText(element) !== '';
/** What parts a title into the page's name and the site's: "Data Types - The Rust Programming Language". */
const titleSeparator = /\s+(?:[-|\u2013\u2014\u00b7\u00bb]|::)\s+/u;

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

import { type Element, isTag, isText } from 'domhandler';
import { escapeInline } from './escape.js';
import type { MarkdownConverter } from './markdown-converter.js';
import { textOf } from './skip-rules.js';
import { markdownDestination } from './url-resolver.js';
import { collapseWhitespace } from './whitespace.js';

/** Texts of heading permalinks (`<a href="#x">#</a>`, Sphinx's `¶`). */
const PERMALINK_TEXT = new Set(['#', '¶', '§', '🔗', '#️⃣', '∞', 'link', 'permalink', 'anchor']);
const PERMALINK_CLASS =
  /(?:^|\s)(?:anchor|anchorjs-link|hash-link|headerlink|header-anchor|heading-anchor|anchor-link|heading-link|permalink|direct-link|deep-link)(?:\s|$)/i;
/** "Skip to content", "Skip to main content", "Skip navigation". */
const SKIP_LINK_TEXT = /^skip (?:to |navigation|nav\b|links?\b)/i;

/**
 * `<a href>`: an inline link with an absolute URL. Dropped when it has no text and no image,
 * when it is a heading permalink, or a "Skip to content" link. Inside a heading, links to an
 * anchor on the same page keep only their text. `<a>` without href (or with `javascript:`) is
 * plain text. Blocks inside the link text are joined with spaces.
 */
export function renderLink(element: Element, converter: MarkdownConverter): void {
  const href = element.attribs.href ?? '';
  if (isOwnHeadingLink(element, href)) return;
  const url = converter.linkDepth > 0 ? undefined : converter.settings.resolveUrl(href);
  if (url === undefined) {
    converter.walkChildren(element);
    return;
  }
  const writer = converter.writer;
  const mark = writer.mark();
  converter.linkDepth++;
  converter.inlineOnly++;
  converter.walkChildren(element);
  converter.linkDepth--;
  converter.inlineOnly--;
  const text = writer.textSince(mark);
  const isOnPage = href.includes('#');
  if (
    text === '' ||
    (isOnPage && isPermalink(text, element)) ||
    (converter.headingDepth > 0 && (isSymbolAnchorInHeading(text, href, element) || isBracketedControlInHeading(text, element))) ||
    (converter.headingDepth === 0 && isWordControlBesideHeading(text, href, element)) ||
    (text.length < 40 && SKIP_LINK_TEXT.test(text))
  ) {
    writer.dropSince(mark);
    return;
  }
  if (converter.headingDepth > 0 && href.trimStart().startsWith('#')) return;
  writer.wrapSince(mark, '[', `](${markdownDestination(url)})`);
}

const headingNames: ReadonlySet<string> = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/**
 * A heading's permalink known by where it points, whatever its class and text: a link to `#id`
 * inside the heading whose id that is, or right after it among its siblings (a wrapper of the
 * heading and its link, as Starlight writes it), when the heading has text besides. Its text ("Section titled ...", a zero-width
 * space) is the widget's, not the heading's.
 */
function isOwnHeadingLink(element: Element, href: string): boolean {
  if (!href.startsWith('#') || href.length < 2) return false;
  let id = href.slice(1);
  try {
    id = decodeURIComponent(id);
  } catch {
    // A malformed escape: compared as written.
  }
  for (let node = element.parent; node && isTag(node); node = node.parent) {
    // A heading whose whole text is the link keeps it as its title.
    if (headingNames.has(node.name)) return node.attribs.id === id && textOf(node).trim() !== textOf(element).trim();
  }
  let previous = element.prev;
  while (previous && !isTag(previous)) previous = previous.prev;
  return previous !== null && previous !== undefined && isTag(previous) && headingNames.has(previous.name) && previous.attribs.id === id;
}

/** Letters or digits: a link text without any is a mark ("◆", "→", "⚓"), not words. */
const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/**
 * A heading's permalink known by its shape, whatever its mark: an in-page link (`#id`) inside a
 * heading whose text is a symbol with no letter or digit, when the heading has words besides.
 * Doxygen writes each member's title `<h2><span><a href="#a1f…">◆ </a></span>SDL_OpenURL()</h2>`
 * (its anchor is an `<a id>` before the heading, so the link does not point at the heading's id);
 * the known marks (`#`, `¶`, `§`) are `PERMALINK_TEXT`.
 */
function isSymbolAnchorInHeading(text: string, href: string, element: Element): boolean {
  if (!href.trimStart().startsWith('#') || WORD_CHARACTER.test(text)) return false;
  for (let node = element.parent; node && isTag(node); node = node.parent) {
    // The link's text has no word character, so the heading has words besides it when it has any.
    if (headingNames.has(node.name)) return hasWords(node);
  }
  return false;
}

/** Whether a heading's text has a letter or digit, read once per heading (it may hold thousands of marks). */
const headingHasWords = new WeakMap<Element, boolean>();

function hasWords(heading: Element): boolean {
  let known = headingHasWords.get(heading);
  if (known === undefined) {
    known = WORD_CHARACTER.test(textOf(heading));
    headingHasWords.set(heading, known);
  }
  return known;
}

/** A link text that is one lowercase word in square brackets: `[src]`, `[source]`, `[edit]`. */
const BRACKETED_WORD = /^\[\p{Ll}{2,12}\]$/u;

/**
 * A control written into a heading as a bracketed word, when the heading has words besides it:
 * gi-docgen ends every section heading with `<a class="srclink">[src]</a>` (a link to the line of
 * C source), Node's API docs each class and method heading (`[src]` to the line on GitHub),
 * rustdoc before 1.58 its item headings the same way. The heading is the words before it. One lowercase word only: a
 * type written in brackets is content (rustdoc's slice `[T]` in `impl<T> Deref for [T]`).
 */
function isBracketedControlInHeading(text: string, element: Element): boolean {
  const label = text.replace(/\\/g, '').trim();
  if (!BRACKETED_WORD.test(label)) return false;
  for (let node = element.parent; node && isTag(node); node = node.parent) {
    if (headingNames.has(node.name)) return hasWordsBesideBracketedWords(node);
  }
  return false;
}

/** Whether a heading has a letter or digit outside bracketed words, read once per heading (it may hold thousands of links). */
const headingHasWordsBesideBrackets = new WeakMap<Element, boolean>();
const BRACKETED_WORDS = /\[\p{Ll}{2,12}\]/gu;

function hasWordsBesideBracketedWords(heading: Element): boolean {
  let known = headingHasWordsBesideBrackets.get(heading);
  if (known === undefined) {
    known = WORD_CHARACTER.test(textOf(heading).replace(BRACKETED_WORDS, ''));
    headingHasWordsBesideBrackets.set(heading, known);
  }
  return known;
}

/** A link text that is one lowercase word, bracketed or not: `source`, `[src]`, `edit`. */
const LOWERCASE_WORD = /^\[?\p{Ll}{2,12}\]?$/u;
/** Inline wrappers a control sits in beside a heading (`span.rightside`, `span.mw-editsection`). */
const INLINE_WRAPPERS: ReadonlySet<string> = new Set(['span', 'small']);

/**
 * A control written before a heading rather than in it: a link to another page whose text is one
 * lowercase word, standing (alone or in inline wrappers, at most two, with no other words) right
 * before a heading among its siblings, with only empty elements between. rustdoc since 1.58 writes
 * each item's `source` link so (`<span class="rightside"><a class="srclink">source</a></span>`,
 * then an empty `a.anchor`, then the item's `h3`/`h4`): the control `isBracketedControlInHeading`
 * drops inside a heading (its older `[src]`). A link within the page (`#x`) is not one: a
 * section's own entries are; nor one after a heading (a "See Also" of one link).
 */
function isWordControlBesideHeading(text: string, href: string, element: Element): boolean {
  if (href.trimStart().startsWith('#') || !LOWERCASE_WORD.test(text.replace(/\\/g, '').trim())) return false;
  const letters = letterCount(textOf(element));
  let node: Element = element;
  for (let depth = 0; depth <= 2; depth++) {
    if (isBeforeHeading(node)) return true;
    const parent = node.parent;
    // A wrapper with words besides the link is a line of text ("const: unstable"), not a control's.
    if (!parent || !isTag(parent) || !INLINE_WRAPPERS.has(parent.name) || wrapperLetters(parent) !== letters) return false;
    node = parent;
  }
  return false;
}

const LETTERS = /\p{L}/gu;

function letterCount(text: string): number {
  return text.match(LETTERS)?.length ?? 0;
}

/** A wrapper's letters, read once however many of its links ask (a paragraph-long `span` may hold thousands). */
const lettersOfWrapper = new WeakMap<Element, number>();

function wrapperLetters(wrapper: Element): number {
  let known = lettersOfWrapper.get(wrapper);
  if (known === undefined) {
    known = letterCount(textOf(wrapper));
    lettersOfWrapper.set(wrapper, known);
  }
  return known;
}

/**
 * Whether the next sibling of `node`, past whitespace and empty elements, is a heading. Only before
 * it: a link after a heading may be its section's whole body (PostgreSQL's "See Also" of one link).
 */
function isBeforeHeading(node: Element): boolean {
  let sibling = node.next;
  while (sibling) {
    if (isTag(sibling)) return headingNames.has(sibling.name) || (!hasText(sibling) && isBeforeHeadingPastEmpty(sibling));
    if (!(isText(sibling) && sibling.data.trim() === '')) return false;
    sibling = sibling.next;
  }
  return false;
}

/** `isBeforeHeading` past one empty element (rustdoc's `a.anchor` between its `source` link and the heading). */
function isBeforeHeadingPastEmpty(empty: Element): boolean {
  let sibling = empty.next;
  while (sibling) {
    if (isTag(sibling)) {
      if (headingNames.has(sibling.name)) return true;
      if (hasText(sibling)) return false;
    } else if (!(isText(sibling) && sibling.data.trim() === '')) return false;
    sibling = sibling.next;
  }
  return false;
}

/** Whether an element holds any text but whitespace: stops at the first such text. */
function hasText(element: Element): boolean {
  for (const child of element.children) {
    if (isText(child) ? child.data.trim() !== '' : isTag(child) && hasText(child)) return true;
  }
  return false;
}

function isPermalink(text: string, element: Element): boolean {
  const className = element.attribs.class;
  if (className !== undefined && PERMALINK_CLASS.test(className) && text.length <= 2) return true;
  return PERMALINK_TEXT.has(text.replace(/\\/g, '').trim().toLowerCase());
}

/**
 * `<img>`: `![alt](absolute-src)`. Lazy-loaded images use `data-src`/`srcset` when `src` is missing
 * or a data-URI placeholder; data-URI images become `<Base64-Image-Removed>` unless kept by the
 * options; 1x1 tracking pixels are dropped.
 */
export function renderImage(element: Element, converter: MarkdownConverter): void {
  const attributes = element.attribs;
  const source = imageSource(attributes);
  if (source === undefined || (attributes.width === '1' && attributes.height === '1')) return;
  let destination: string;
  if (source.startsWith('data:')) {
    destination = converter.settings.removeBase64Images ? '<Base64-Image-Removed>' : source;
  } else {
    const url = converter.settings.resolveUrl(source);
    if (url === undefined) return;
    destination = markdownDestination(url);
  }
  const alt = attributes.alt === undefined ? '' : escapeInline(collapseWhitespace(attributes.alt).trim(), true);
  converter.writer.appendRaw(`![${alt}](${destination})`);
}

function imageSource(attributes: Record<string, string>): string | undefined {
  const source = attributes.src?.trim();
  if (source !== undefined && source !== '' && !source.startsWith('data:')) return source;
  const lazy = attributes['data-src'] ?? attributes['data-lazy-src'] ?? attributes['data-original'];
  if (lazy !== undefined && lazy.trim() !== '') return lazy.trim();
  const sourceSet = attributes.srcset ?? attributes['data-srcset'];
  if (sourceSet !== undefined && sourceSet.trim() !== '') return sourceSet.trim().split(/[\s,]+/)[0];
  return source === '' ? undefined : source;
}

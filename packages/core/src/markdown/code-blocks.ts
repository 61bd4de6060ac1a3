import { isTag, isText, type AnyNode, type Element, type ParentNode } from 'domhandler';
import { detectCodeLanguage, languageFromClass } from './code-language.js';
import { backtickFence, codeSpan } from './escape.js';
import type { MarkdownConverter } from './markdown-converter.js';
import { markdownDestination } from './url-resolver.js';
import { lineNumberGutter } from './line-numbers.js';
import { isSkippedElement } from './skip-rules.js';
import { cleanCodeText, collapseWhitespace } from './whitespace.js';

/** Elements that start a new line inside code (highlighters that render one `<div>` per line). */
const LINE_ELEMENTS: ReadonlySet<string> = new Set(['div', 'p', 'tr', 'li', 'table', 'pre']);

export interface CodeText {
  text: string;
  /** A block element ended: a newline is owed unless the next text starts with one. */
  owesNewline: boolean;
  hasLineBreakElement: boolean;
  /** Elements left out: a line-number gutter found by its shape (line-numbers.ts). */
  skipped?: ReadonlySet<Element>;
}

/**
 * `<pre>`: a fenced code block with the language found on the code, the pre or a wrapper. `<br>`
 * is a newline, per-token spans are kept verbatim, copy buttons and line-number gutters are left
 * out, and the fence is longer than any backtick run inside. Inside link or heading text it is a
 * code span; inside a table cell, one code span per line.
 */
export function renderPreformatted(element: Element, converter: MarkdownConverter): void {
  const variants = languageVariants(element);
  if (variants) {
    for (const variant of variants) {
      const text = cleanCodeText(collectCodeText(variant).text);
      if (text !== '') writeCode(text, languageFromClass(variant.attribs.class ?? '', true), converter);
    }
    return;
  }
  const code = cleanCodeText(collectCodeText(element).text);
  if (code === '') return;
  writeCode(code, detectCodeLanguage(element), converter);
}

/**
 * Two or more `code` elements in one `pre` that each name their language are one example in
 * several languages behind a toggle (Node's docs write an ES module example and its CommonJS twin
 * so): each is its own block. Code elements without a language each (one per line) stay one block.
 */
function languageVariants(element: Element): Element[] | undefined {
  const codes = element.children.filter(isCodeElement);
  if (codes.length < 2 || !codes.every(namesLanguage)) return undefined;
  return codes;
}

// Module functions, not arrows made per call, which V8 compiled again on later pages (issue 14, tenth pass).
const isCodeElement = (child: AnyNode): child is Element => isTag(child) && child.name === 'code';
const namesLanguage = (code: Element): boolean => languageFromClass(code.attribs.class ?? '', true) !== '';

/**
 * `<code>`, `<kbd>`, `<samp>`, `<tt>` outside `<pre>`: an inline code span (whitespace collapsed,
 * fenced with enough backticks). A code element holding `<br>` line breaks, or newlines and a
 * language class, is a code block. `<code><a href>name</a></code>` becomes a link around code.
 */
export function renderInlineCode(element: Element, converter: MarkdownConverter): void {
  const collected = collectCodeText(element);
  const raw = collected.text;
  const isBlock =
    converter.inlineOnly === 0 && (collected.hasLineBreakElement || (raw.includes('\n') && languageFromClass(element.attribs.class ?? '', true) !== ''));
  if (isBlock) {
    const code = cleanCodeText(raw);
    if (code !== '') writeCode(code, languageFromClass(element.attribs.class ?? '', true), converter);
    return;
  }
  if (converter.linkDepth === 0 && (writeCodeLinks(element, converter) || writeCodeWithLinks(element, converter))) return;
  const text = collapseWhitespace(raw);
  const trimmed = text.trim();
  const writer = converter.writer;
  if (text.startsWith(' ')) writer.softBoundary();
  if (trimmed !== '') {
    const href = converter.linkDepth === 0 ? onlyLinkOf(element) : undefined;
    const url = href === undefined ? undefined : converter.settings.resolveUrl(href);
    writer.appendRaw(url === undefined ? codeSpan(trimmed) : `[${codeSpan(trimmed)}](${markdownDestination(url)})`);
  }
  if (text.endsWith(' ')) writer.softBoundary();
}

/** A fenced code block of `code` (a code span inside link or heading text, one span per line inside a table cell). */
export function writeCode(code: string, language: string, converter: MarkdownConverter): void {
  const writer = converter.writer;
  if (converter.inlineOnly > 0) {
    writer.softBoundary();
    writer.appendRaw(codeSpan(collapseWhitespace(code).trim()));
    writer.softBoundary();
    return;
  }
  converter.openBlock();
  const lines = code.split('\n');
  if (writer.isCell) {
    for (const line of lines) if (line.trim() !== '') writer.writeLine(codeSpan(line.trim()));
  } else {
    const fence = code.includes('```') ? backtickFence(code, 3) : '```';
    writer.writeLine(fence + language);
    for (const line of lines) writer.writeLine(line);
    writer.writeLine(fence);
  }
  converter.closeBlock();
}

/** Text between the links of a code element that holds a list of them: separators only. */
const LINK_SEPARATOR = /^[\s,;]*$/;

/**
 * A code element holding several links and only separators between them (Javadoc's inherited
 * members, `<code><a>finalize</a>, <a>getClass</a>, ...</code>` under "Methods declared in class
 * Object") is a list of names in code, each a link: written as code links side by side, as one
 * linked name is, rather than one code span that drops every link. False when it is not one.
 */
function writeCodeLinks(element: Element, converter: MarkdownConverter): boolean {
  const links: [string, string][] = [];
  for (const child of element.children) {
    if (isText(child)) {
      if (!LINK_SEPARATOR.test(child.data)) return false;
    } else if (isTag(child)) {
      const href = child.attribs.href;
      if (child.name !== 'a' || href === undefined || !child.children.every(isText)) return false;
      const url = converter.settings.resolveUrl(href);
      const name = collapseWhitespace(collectCodeText(child).text).trim();
      if (url === undefined || name === '') return false;
      links.push([name, url]);
    }
  }
  if (links.length < 2) return false;
  const writer = converter.writer;
  const separator = element.children.find((child) => isText(child) && child.data.trim() !== '');
  const between = separator && isText(separator) ? `${separator.data.trim()} ` : ' ';
  writer.softBoundary();
  writer.appendRaw(links.map(([name, url]) => `[${codeSpan(name)}](${markdownDestination(url)})`).join(between));
  writer.softBoundary();
  return true;
}

/**
 * A code element of text and links (and `wbr` break hints), with words outside the links: a
 * signature whose types are links (Javadoc's summary grids, `<code><a>formatTo</a>(<a>Formatter</a>
 * formatter, int flags)</code>`). A code span cannot hold a link, so it is written in pieces, each
 * link a link around code and the text between a code span, with a space only where the text has
 * one: the reader gets the same characters and every link. False when the element holds anything
 * else, no link (one code span then), one link inside punctuation (an address in `<>`), or only
 * links and separators (`writeCodeLinks`).
 */
function writeCodeWithLinks(element: Element, converter: MarkdownConverter): boolean {
  const pieces: [string, string | undefined][] = [];
  for (const child of element.children) {
    if (isText(child)) {
      pieces.push([child.data, undefined]);
    } else if (isTag(child)) {
      if (child.name === 'wbr') continue;
      const href = child.attribs.href;
      if (child.name !== 'a' || href === undefined || !child.children.every(isText)) return false;
      const url = converter.settings.resolveUrl(href);
      if (url === undefined) return false;
      pieces.push([collectCodeText(child).text, url]);
    } else return false;
  }
  const links = pieces.filter(([, url]) => url !== undefined).length;
  // One link inside punctuation (PostgreSQL's `<code>&lt;<a href="mailto:…">…</a>&gt;</code>`) stays
  // one code span; a linked name that opens the code (`formatTo()`) is written in pieces.
  const opensWithLink = pieces.find(([piece, url]) => url !== undefined || piece.trim() !== '')?.[1] !== undefined;
  const hasWordsOutside = pieces.some(([piece, url]) => url === undefined && WORD_OR_DIGIT.test(piece));
  if (links === 0 || (links === 1 && !opensWithLink && !hasWordsOutside)) return false;
  const writer = converter.writer;
  const text = collapseWhitespace(pieces.map(([piece]) => piece).join(''));
  if (text.startsWith(' ')) writer.softBoundary();
  for (const [index, [piece, url]] of pieces.entries()) {
    const collapsed = collapseWhitespace(piece);
    const trimmed = collapsed.trim();
    if (index > 0 && collapsed.startsWith(' ')) writer.softBoundary();
    if (trimmed !== '') writer.appendRaw(url === undefined ? codeSpan(trimmed) : `[${codeSpan(trimmed)}](${markdownDestination(url)})`);
    if (index < pieces.length - 1 && collapsed.endsWith(' ')) writer.softBoundary();
  }
  if (text.endsWith(' ')) writer.softBoundary();
  return true;
}

const WORD_OR_DIGIT = /[\p{L}\p{N}]/u;

/** The href of a link that is an element's only content, as in `<code><a href>name</a></code>`. */
function onlyLinkOf(element: Element): string | undefined {
  let link: Element | undefined;
  for (const child of element.children) {
    if (isText(child)) {
      if (child.data.trim() !== '') return undefined;
    } else if (isTag(child)) {
      if (link !== undefined || child.name !== 'a') return undefined;
      link = child;
    }
  }
  return link?.attribs.href;
}

/** The text of a code element, lines broken at `br` and line elements, less `skipped` (by default a `pre`'s line-number gutter). */
export function collectCodeText(element: Element, skipped = element.name === 'pre' ? lineNumberGutter(element) : undefined): CodeText {
  const state: CodeText = { text: '', owesNewline: false, hasLineBreakElement: false, skipped: skipped?.size ? skipped : undefined };
  collectInto(element, state);
  return state;
}

function collectInto(parent: ParentNode, state: CodeText): void {
  for (const child of parent.children) {
    if (isText(child)) {
      if (state.owesNewline) {
        if (child.data.charCodeAt(0) !== 0x0a && state.text !== '' && !state.text.endsWith('\n')) state.text += '\n';
        state.owesNewline = false;
      }
      state.text += child.data;
    } else if (isTag(child)) {
      const name = child.name;
      if (name === 'button' || isSkippedElement(child) || state.skipped?.has(child)) continue;
      if (name === 'br') {
        state.text += '\n';
        state.owesNewline = false;
        state.hasLineBreakElement = true;
      } else if (LINE_ELEMENTS.has(name)) {
        if (state.text !== '' && !state.text.endsWith('\n')) state.owesNewline = true;
        collectInto(child, state);
        state.owesNewline = state.text !== '' && !state.text.endsWith('\n');
      } else {
        collectInto(child, state);
      }
    }
  }
}

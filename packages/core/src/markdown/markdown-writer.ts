import { escapeInline, escapeLineStart, escapeTableCell } from './escape.js';

/** A container that prefixes lines: a block quote (`> `) or a list item (`- ` then `  `). */
interface LinePrefix {
  /** Written before the container's first line (the list marker). */
  readonly first: string;
  /** Written before every later line (indentation, or `> `). */
  readonly rest: string;
  readonly isListItem: boolean;
  /** The separation requested when the container opened; it wins over requests made inside it before its first line. */
  readonly separation: 0 | Separation;
  hasLines: boolean;
}

/**
 * Containers (quotes, list items) that indent their lines; deeper ones add no prefix of their own, so
 * their lines sit at this depth (list items keep their marker and become siblings). Every line
 * carries the prefixes of its containers, so a page of 500 nested quotes would otherwise write
 * ~1,000 prefix characters per line: markdown ~60x its HTML. Renderers stop nesting about here
 * too (markdown-it's CommonMark preset: `maxNesting` 20).
 */
const MAX_NESTED_CONTAINERS = 10;

/**
 * Widest indentation the containers may add, in characters: ordered lists with long numbers
 * (`<ol start="999999999">`, 11 characters a level) reach it before the depth limit, so each line
 * costs at most this much more than its text (ten levels of `- ` or `1. ` to `999. ` stay within).
 */
const MAX_PREFIX_WIDTH = 64;

/** Emphasis markers whose closing and reopening can be merged when two elements touch. */
const MERGEABLE_MARKERS: ReadonlySet<string> = new Set(['*', '**', '~~']);

/** Position in the paragraph buffer, taken before an inline element so it can be wrapped later. */
export interface InlineMark {
  readonly index: number;
  readonly generation: number;
}

/** Newlines before the next line: 1 = the next line, 2 = one blank line between. */
export type Separation = 1 | 2;

/**
 * Accumulates markdown lines. Inline content is buffered as a paragraph with browser-like space
 * handling (spaces are held back until a word follows, so no leading/trailing spaces are written);
 * block elements flush it and request a separation, which is written (as at most one blank line)
 * only when a next line actually comes. Container prefixes (quotes, list items) are applied to
 * each line as it is written, so nesting costs no re-indentation pass.
 *
 * In cell mode (a GFM table cell) the lines become one string joined with `<br>`.
 */
export class MarkdownWriter {
  readonly isCell: boolean;
  /** The paragraph being built: text pieces, markup, `' '` separators and `'\n'` hard breaks. */
  readonly inline: string[] = [];
  /** Incremented at each flush, so an inline element can tell that its start was flushed away. */
  generation = 0;
  private readonly lines: string[] = [];
  private readonly prefixes: LinePrefix[] = [];
  /** The width of the `rest` prefixes of the open containers. */
  private prefixWidth = 0;
  private pending: 0 | Separation = 0;
  /** The last inline character is a space (or the line is empty): leading spaces are dropped. */
  private hasSpace = true;
  /** A space is owed before the next inline content. */
  private pendingSpace = false;
  /** Nothing has been written on the current line yet (line-start markers must be escaped). */
  private lineStart = true;

  constructor(isCell = false) {
    this.isCell = isCell;
  }

  // ---- inline content ----

  /** Appends collapsed text (single spaces only), escaping markdown specials as needed. */
  appendText(text: string, inLinkText: boolean): void {
    if (text === '') return;
    let start = 0;
    let end = text.length;
    if (text.charCodeAt(0) === 0x20) {
      start = 1;
      if (!this.hasSpace) this.pendingSpace = true;
    }
    const hasTrailingSpace = end > start && text.charCodeAt(end - 1) === 0x20;
    if (hasTrailingSpace) end--;
    if (end > start) {
      const word = start === 0 && end === text.length ? text : text.slice(start, end);
      let escaped = escapeInline(word, inLinkText);
      if (this.lineStart && !this.isCell) escaped = escapeLineStart(escaped);
      this.pushContent(escaped);
    }
    if (hasTrailingSpace && !this.hasSpace) this.pendingSpace = true;
  }

  /** Appends markup or code as is (no escaping), after any owed space. */
  appendRaw(markdown: string): void {
    if (markdown !== '') this.pushContent(markdown);
  }

  /** Owes a space before the next content (a word boundary, e.g. between inline-rendered blocks). */
  softBoundary(): void {
    if (!this.hasSpace) this.pendingSpace = true;
  }

  /** A hard line break (`<br>`); two in a row end the paragraph. */
  lineBreak(): void {
    this.inline.push('\n');
    this.pendingSpace = false;
    this.hasSpace = true;
    this.lineStart = true;
  }

  /** Suppresses line-start escaping for the current line (heading text follows `# `). */
  continueLine(): void {
    this.lineStart = false;
  }

  /** True when the paragraph buffer holds nothing visible yet. */
  isParagraphEmpty(): boolean {
    for (let index = 0; index < this.inline.length; index++) {
      const piece = this.inline[index]!;
      if (piece !== '' && piece !== ' ' && piece !== '\n') return false;
    }
    return true;
  }

  /** True when the innermost container is a list item that has not received content yet. */
  isAtListItemStart(): boolean {
    const top = this.prefixes[this.prefixes.length - 1];
    return top?.isListItem === true && !top.hasLines && this.isParagraphEmpty();
  }

  mark(): InlineMark {
    return { index: this.inline.length, generation: this.generation };
  }

  /** The visible text added since `mark` (without the separator space before it). */
  textSince(mark: InlineMark): string {
    if (mark.generation !== this.generation) return '';
    let start = mark.index;
    if (this.inline[start] === ' ') start++;
    return this.inline.slice(start).join('');
  }

  /** Removes everything added since `mark` (keeping a separating space), e.g. an empty link. */
  dropSince(mark: InlineMark): void {
    if (mark.generation !== this.generation) return;
    const keep = this.inline[mark.index] === ' ' ? mark.index + 1 : mark.index;
    if (this.inline.length > keep) this.inline.length = keep;
    this.hasSpace = keep === 0 || this.inline[keep - 1] === ' ' || this.inline[keep - 1] === '\n';
    if (this.hasSpace) this.pendingSpace = false;
  }

  /**
   * Wraps what was added since `mark` in `open` ... `close` (emphasis, links, `<sup>`). Separator
   * spaces and line breaks at the edges stay outside, so `<em> a </em>` gives ` *a* `. Does nothing
   * when nothing visible was added or the start was flushed by a block in between. Returns whether
   * it wrapped.
   */
  wrapSince(mark: InlineMark, open: string, close: string): boolean {
    if (mark.generation !== this.generation) return false;
    const inline = this.inline;
    let start = mark.index;
    while (start < inline.length && (inline[start] === ' ' || inline[start] === '\n' || inline[start] === '')) start++;
    let end = inline.length;
    while (end > start && (inline[end - 1] === ' ' || inline[end - 1] === '\n' || inline[end - 1] === '')) end--;
    if (end === start) return false;
    if (end === inline.length) inline.push(close);
    else inline.splice(end, 0, close);
    // `<b>a</b><b>b</b>` gives `**ab**`, not `**a****b**` (which parses as neither).
    if (start === mark.index && start > 0 && inline[start - 1] === open && MERGEABLE_MARKERS.has(open)) {
      inline.splice(start - 1, 1);
    } else {
      inline.splice(start, 0, open);
    }
    return true;
  }

  /** Takes the paragraph buffer as one line of text (line breaks become spaces), emptying it. */
  takeInlineText(): string {
    const text = this.inline.join('');
    this.resetInline();
    return text.includes('\n') ? text.replace(/ *\n */g, ' ').trim() : text.trim();
  }

  // ---- blocks ----

  /** Writes the buffered paragraph, if any. Hard breaks become `\` line ends; double breaks a blank line. */
  flushParagraph(): void {
    if (this.inline.length === 0) return;
    const text = this.inline.join('');
    this.resetInline();
    if (!text.includes('\n')) {
      const line = text.trimEnd();
      if (line !== '') this.writeLine(line);
      return;
    }
    const lines = text.split('\n');
    let blankBefore = false;
    let previous: string | undefined;
    for (const raw of lines) {
      const line = raw.trim();
      if (line === '') {
        if (previous !== undefined) blankBefore = true;
        continue;
      }
      if (previous !== undefined) {
        this.writeLine(blankBefore || this.isCell ? previous : previous + '\\');
        if (blankBefore) this.separate(2);
      }
      previous = line;
      blankBefore = false;
    }
    if (previous !== undefined) this.writeLine(previous);
  }

  /** Asks for at least `separation` before the next line (a block boundary). */
  separate(separation: Separation): void {
    if (separation > this.pending) this.pending = separation;
  }

  /** Replaces the requested separation (between list items of a tight or loose list). */
  setSeparation(separation: Separation): void {
    this.pending = separation;
  }

  /** Writes one line, preceded by the requested separation and the container prefixes. */
  writeLine(text: string): void {
    // A paragraph opening a list item or quote must not push a blank line between marker and the previous line.
    const opening = this.firstContainerWithoutLines();
    if (opening !== undefined) this.pending = opening.separation;
    if (this.pending === 2 && this.lines.length > 0 && !this.isCell) this.lines.push(this.blankLinePrefix());
    this.pending = 0;
    let prefix = '';
    for (const container of this.prefixes) {
      prefix += container.hasLines ? container.rest : container.first;
      container.hasLines = true;
    }
    this.lines.push(prefix === '' ? text : text === '' ? prefix.trimEnd() : prefix + text);
  }

  /** Opens a container; lines written until the matching {@link popPrefix} carry its prefix. */
  pushPrefix(first: string, rest: string, isListItem: boolean): void {
    this.flushParagraph();
    const isTooDeep = this.prefixes.length >= MAX_NESTED_CONTAINERS || this.prefixWidth + rest.length > MAX_PREFIX_WIDTH;
    if (!isTooDeep) this.prefixWidth += rest.length;
    this.prefixes.push({
      first: isTooDeep && !isListItem ? '' : first,
      rest: isTooDeep ? '' : rest,
      isListItem,
      separation: this.pending,
      hasLines: false,
    });
  }

  /** Closes the innermost container; returns whether it received any line. */
  popPrefix(): boolean {
    this.flushParagraph();
    const prefix = this.prefixes.pop();
    if (prefix) this.prefixWidth -= prefix.rest.length;
    return prefix?.hasLines ?? false;
  }

  /** Number of lines written so far (to tell whether a block produced output). */
  get lineCount(): number {
    return this.lines.length;
  }

  /** The finished markdown: lines joined (cells: with `<br>`, `|` escaped), no blank lines at the ends. */
  finish(): string {
    this.flushParagraph();
    if (!this.isCell) return this.lines.join('\n');
    return escapeTableCell(this.lines.join('<br>'));
  }

  private pushContent(content: string): void {
    if (this.pendingSpace) {
      this.inline.push(' ');
      this.pendingSpace = false;
    }
    this.inline.push(content);
    this.hasSpace = false;
    this.lineStart = false;
  }

  private resetInline(): void {
    this.inline.length = 0;
    this.generation++;
    this.hasSpace = true;
    this.pendingSpace = false;
    this.lineStart = true;
  }

  /** Containers without lines are always the innermost ones; returns the outermost of them. */
  private firstContainerWithoutLines(): LinePrefix | undefined {
    const prefixes = this.prefixes;
    if (prefixes.length === 0 || prefixes[prefixes.length - 1]!.hasLines) return undefined;
    let index = prefixes.length - 1;
    while (index > 0 && !prefixes[index - 1]!.hasLines) index--;
    return prefixes[index];
  }

  private blankLinePrefix(): string {
    let prefix = '';
    for (const container of this.prefixes) if (container.hasLines) prefix += container.rest;
    return prefix.trimEnd();
  }
}

import { DomHandler, type Document } from 'domhandler';
import { Parser, Tokenizer as HtmlTokenizer, type Handler, type ParserOptions, type TokenizerCallbacks } from 'htmlparser2';
import { ReferenceDecoder, ReferenceMode } from './character-references.js';
import { tagNames } from './tag-names.js';

/**
 * Most elements the parser keeps open at once. htmlparser2 keeps its open elements in an array it
 * grows and shrinks at the front (`unshift`/`shift`, and `indexOf` for every end tag), so each tag
 * costs time in proportion to the nesting depth, and a page of nested or unclosed tags costs the
 * square of its size: 100,000 nested `<div>`s (500 KB) took 10 s of CPU. Past this depth the
 * deepest open element is closed before the next one opens, so the new element becomes its
 * sibling: browsers stop nesting too (Chromium at 512 levels), the text stays in document order,
 * and `limitDepth` (parse-html.ts) flattens what is still deeper than 512.
 */
export const maxOpenElements = 1024;

/** Elements that change the parser's foreign-content state (SVG and MathML, and the HTML islands inside them). */
const foreignContextNames = new Set(['svg', 'math', 'mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title']);

/** The parts of htmlparser2's Parser (and its Tokenizer) this class steers; they are not in its public typings. */
interface ParserState {
  stack: string[];
  foreignContext: boolean[];
  attribvalue: string;
  getSlice(start: number, endIndex: number): string;
  tokenizer: Tokenizer;
}

/** The parts of htmlparser2's Tokenizer read here. */
interface Tokenizer {
  isSpecial: boolean;
  currentSequence: Uint8Array;
  buffer: string;
  offset: number;
  entityDecoder: ConstructorParameters<typeof ReferenceDecoder>[0];
}

/** The tokenizer's read position, private in htmlparser2's typings: `index` counts from the start of the page, `buffer` starts at `offset`. */
interface TokenizerCursor {
  buffer: string;
  offset: number;
  index: number;
}

const OpenTokenizer = HtmlTokenizer as unknown as new (
  options: { xmlMode?: boolean; decodeEntities?: boolean },
  callbacks: TokenizerCallbacks,
) => TokenizerCursor;

/**
 * htmlparser2's Tokenizer, skipping to the character it waits for (the `<` ending a run of text,
 * the quote ending an attribute value, the `>` ending a comment or declaration) with
 * `String.prototype.indexOf` instead of a loop over one character at a time: V8 searches a
 * one-character needle with vector instructions. Same positions as the loop it replaces (`index`
 * on the character found, or on the buffer's last character when it is not there, since the
 * tokenizer's loop steps past it), so the same tokens.
 */
class SkippingTokenizer extends OpenTokenizer {
  fastForwardTo(code: number): boolean {
    const end = this.buffer.length + this.offset;
    if (this.index + 1 >= end) {
      this.index = end - 1;
      return false;
    }
    const found = this.buffer.indexOf(String.fromCharCode(code), this.index + 1 - this.offset);
    if (found < 0) {
      this.index = end - 1;
      return false;
    }
    this.index = found + this.offset;
    return true;
  }
}

/**
 * An htmlparser2 Parser whose open-element stack never holds more than `maxOpenElements` names.
 *
 * In HTML mode it also decodes character references itself, once per text run and attribute value
 * and only in those holding a `&`, instead of letting the tokenizer do it. A tokenizer that decodes
 * steps through text and attribute values one character at a time through its state machine,
 * looking for `&`; one that does not skips ahead to the next `<` or quote. Parsing cmake-doc's and
 * postgresql-doc-15's pages costs ~7 % less for the same tree (issue 14, twelfth pass; the trees of
 * 22,000 pages compared equal). Text is decoded as the tokenizer would: in
 * normal flow and in `<title>`, never in the other raw-text elements (`<script>`, `<style>`,
 * `<textarea>`, `<xmp>`), with the legacy rules (`&amp` without `;`) for text and the attribute
 * rules (`&copy=` stays as written) for attribute values. A run of text ends only at a `<`, which
 * also ends any character reference, so no reference is split between two runs
 * (`character-references.ts` decodes with the tokenizer's own decoder, quirks included).
 */
export class DepthBoundParser extends Parser {
  private readonly handler: Partial<Handler>;
  private readonly isHtml: boolean;
  /** The most elements open at once so far: the depth of the deepest element that can have children (a void one may sit one deeper). */
  deepest = 0;
  /** Set when this parser decodes references itself (HTML mode with `decodeEntities`). */
  private readonly references: ReferenceDecoder | undefined;

  constructor(handler: Partial<Handler>, options?: ParserOptions) {
    const decodesLate = !options?.xmlMode && options?.decodeEntities !== false;
    const tokenizer = SkippingTokenizer as unknown as typeof HtmlTokenizer;
    super(handler, decodesLate ? { ...options, decodeEntities: false, Tokenizer: tokenizer } : { ...options, Tokenizer: tokenizer });
    this.handler = handler;
    this.isHtml = !options?.xmlMode;
    this.references = decodesLate ? new ReferenceDecoder((this as unknown as ParserState).tokenizer.entityDecoder) : undefined;
  }

  override ontext(start: number, endIndex: number): void {
    if (this.references === undefined) {
      super.ontext(start, endIndex);
      return;
    }
    const state = this as unknown as ParserState;
    const tokenizer = state.tokenizer;
    let data = state.getSlice(start, endIndex);
    if (data.includes('&') && !isRawText(tokenizer)) {
      // A run of text ends at a `<` (the start of a tag, or of a title's end tag), or at the end of the page.
      const next = endIndex < tokenizer.offset + tokenizer.buffer.length ? '<' : undefined;
      data = this.references.decode(data, ReferenceMode.Text, next, tokenizer.isSpecial);
    }
    // What Parser.ontext does with the text.
    this.endIndex = endIndex - 1;
    this.handler.ontext?.(data);
    this.startIndex = endIndex;
  }

  override onattribend(quote: Parameters<Parser['onattribend']>[0], endIndex: number): void {
    const state = this as unknown as ParserState;
    // A value ends at its quote, or (unquoted) at a space or `>`: the decoder treats all of them alike.
    if (this.references !== undefined && state.attribvalue.includes('&')) {
      state.attribvalue = this.references.decode(state.attribvalue, ReferenceMode.Attribute, '"');
    }
    super.onattribend(quote, endIndex);
  }

  override onopentagname(start: number, endIndex: number): void {
    const state = this as unknown as ParserState;
    if (state.stack.length >= maxOpenElements) {
      // The stack's front is the innermost open element.
      const innermost = state.stack.shift()!;
      if (this.isHtml && foreignContextNames.has(innermost)) state.foreignContext.shift();
      this.handler.onclosetag?.(innermost, true);
    }
    super.onopentagname(start, endIndex);
    if (state.stack.length > this.deepest) this.deepest = state.stack.length;
  }
}

/**
 * True inside a raw-text element other than `<title>` (the tokenizer matches the closing tag by a
 * byte sequence, `</title` for title: its third and fourth bytes tell it from `</textarea`).
 */
function isRawText(tokenizer: ParserState['tokenizer']): boolean {
  if (!tokenizer.isSpecial) return false;
  const sequence = tokenizer.currentSequence;
  return !(sequence[2] === 0x74 && sequence[3] === 0x69);
}

/** domhandler's tree builder, naming each element with the one copy of its name in `tagNames` when it has one. */
class TreeBuilder extends DomHandler {
  override onopentag(name: string, attributes: Record<string, string>): void {
    super.onopentag(tagNames.get(name) ?? name, attributes);
  }
}

/** `parseDocument` of htmlparser2 with the depth-bound parser: a domhandler tree of the whole input. */
export function parseBoundedDocument(markup: string, options: ParserOptions & { withStartIndices?: boolean } = {}): Document {
  return parseBounded(markup, options).document;
}

/** {@link parseBoundedDocument}, and the depth of its deepest element (the root's children are at depth 1). */
export function parseBounded(markup: string, options: ParserOptions & { withStartIndices?: boolean } = {}): { document: Document; deepest: number } {
  const handler = new TreeBuilder(undefined, options);
  const parser = new DepthBoundParser(handler, options);
  parser.end(markup);
  return { document: handler.root, deepest: parser.deepest };
}

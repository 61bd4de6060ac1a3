import { DomHandler, type Document } from 'domhandler';
import { Parser, type Handler, type ParserOptions } from 'htmlparser2';

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

/** The parts of htmlparser2's Parser this class steers; they are not in its public typings. */
interface ParserState {
  stack: string[];
  foreignContext: boolean[];
}

/** An htmlparser2 Parser whose open-element stack never holds more than `maxOpenElements` names. */
export class DepthBoundParser extends Parser {
  private readonly handler: Partial<Handler>;
  private readonly isHtml: boolean;

  constructor(handler: Partial<Handler>, options?: ParserOptions) {
    super(handler, options);
    this.handler = handler;
    this.isHtml = !options?.xmlMode;
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
  }
}

/** `parseDocument` of htmlparser2 with the depth-bound parser: a domhandler tree of the whole input. */
export function parseBoundedDocument(markup: string, options: ParserOptions & { withStartIndices?: boolean } = {}): Document {
  const handler = new DomHandler(undefined, options);
  new DepthBoundParser(handler, options).end(markup);
  return handler.root;
}

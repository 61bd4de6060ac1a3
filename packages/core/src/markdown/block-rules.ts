import type { Element } from 'domhandler';
import type { MarkdownConverter } from './markdown-converter.js';

/** A block element with no markup of its own (`p`, `div`, `section`, ...). */
export function renderPlainBlock(element: Element, converter: MarkdownConverter): void {
  converter.renderBlock(element);
}

/**
 * `<h1>`-`<h6>`: an ATX heading on one line (line breaks and blocks inside become spaces, bold
 * markers are left out since headings are bold already). Empty headings are dropped. Inside a
 * table cell: bold text; inside link text: plain text.
 */
export function renderHeading(element: Element, converter: MarkdownConverter): void {
  if (converter.inlineOnly > 0) {
    converter.renderBlock(element);
    return;
  }
  if (converter.writer.isCell) {
    converter.openBlock();
    converter.renderWrapped(element, '**', '**');
    converter.closeBlock();
    return;
  }
  converter.openBlock();
  const writer = converter.writer;
  const isInsideStrong = converter.openMarkers.has('**');
  converter.openMarkers.add('**');
  converter.headingDepth++;
  converter.inlineOnly++;
  writer.continueLine();
  converter.walkChildren(element);
  converter.inlineOnly--;
  converter.headingDepth--;
  if (!isInsideStrong) converter.openMarkers.delete('**');
  let text = writer.takeInlineText();
  if (text !== '') {
    // A closing sequence (` ##` at the end) would be eaten by the parser.
    if (text.endsWith('#')) text = text.replace(/(^|\s)(#+)$/, '$1\\$2');
    writer.writeLine('#'.repeat(Number(element.name[1])) + ' ' + text);
  }
  converter.closeBlock();
}

/** `<blockquote>`: `> ` before every line, nesting included. */
export function renderBlockquote(element: Element, converter: MarkdownConverter): void {
  if (converter.inlineOnly > 0) {
    converter.renderBlock(element);
    return;
  }
  converter.openBlock();
  const outerSeparation = converter.blockSeparation;
  converter.writer.pushPrefix('> ', '> ', false);
  converter.blockSeparation = 2;
  converter.walkChildren(element);
  converter.blockSeparation = outerSeparation;
  converter.writer.popPrefix();
  converter.closeBlock();
}

/** `<hr>`: a thematic break (`---`), always between blank lines (so it cannot read as a setext underline). */
export function renderThematicBreak(_element: Element, converter: MarkdownConverter): void {
  if (converter.inlineOnly > 0 || converter.writer.isCell) {
    converter.openBlock();
    return;
  }
  converter.openBlock(2);
  converter.writer.writeLine('---');
  converter.closeBlock(2);
}

/** `<dt>`: the term of a definition list, in bold on its own line. */
export function renderDefinitionTerm(element: Element, converter: MarkdownConverter): void {
  converter.openBlock();
  converter.renderWrapped(element, '**', '**');
  converter.closeBlock();
}

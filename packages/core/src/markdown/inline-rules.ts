import { isTag, type Element } from 'domhandler';
import type { ElementRule, MarkdownConverter } from './markdown-converter.js';
import { textOf } from './skip-rules.js';
import { collapseWhitespace } from './whitespace.js';

/** Inline element wrapped in markers; nested same-kind elements add no second pair. */
function wrapped(open: string, close: string = open): ElementRule {
  return (element, converter) => converter.renderWrapped(element, open, close);
}

export const renderEmphasis = wrapped('*');
export const renderStrong = wrapped('**');
export const renderStrikethrough = wrapped('~~');
export const renderSuperscript = wrapped('<sup>', '</sup>');
export const renderSubscript = wrapped('<sub>', '</sub>');

/** `<q>`: quotation marks as a browser shows them, single ones when nested. */
export function renderQuotation(element: Element, converter: MarkdownConverter): void {
  if (converter.openMarkers.has('“')) {
    converter.renderWrapped(element, '‘', '’');
    return;
  }
  converter.renderWrapped(element, '“', '”');
}

/** `<br>`: a hard line break; a space inside link and heading text. */
export function renderLineBreak(_element: Element, converter: MarkdownConverter): void {
  if (converter.inlineOnly > 0) converter.writer.softBoundary();
  else converter.writer.lineBreak();
}

/** `<input type=checkbox>` at the start of a list item: a task list marker (`[ ]` or `[x]`). Other inputs: nothing. */
export function renderInput(element: Element, converter: MarkdownConverter): void {
  const attributes = element.attribs;
  if (attributes.type?.toLowerCase() !== 'checkbox' || !converter.writer.isAtListItemStart()) return;
  converter.writer.appendRaw(attributes.checked === undefined ? '[ ]' : '[x]');
  converter.writer.softBoundary();
}

/** `<math>`: its TeX (`alttext` or a TeX annotation) as `$...$`; otherwise its text. */
export function renderMath(element: Element, converter: MarkdownConverter): void {
  const tex = element.attribs.alttext ?? texAnnotationOf(element);
  if (tex === undefined || tex.trim() === '') {
    converter.walkChildren(element);
    return;
  }
  const source = collapseWhitespace(tex).trim();
  if (element.attribs.display === 'block' && converter.inlineOnly === 0 && !converter.writer.isCell) {
    converter.openBlock();
    converter.writer.writeLine(`$$${source}$$`);
    converter.closeBlock();
  } else {
    converter.writer.appendRaw(`$${source}$`);
  }
}

function texAnnotationOf(element: Element): string | undefined {
  for (const child of element.children) {
    if (!isTag(child)) continue;
    if (child.name === 'annotation' && /tex/i.test(child.attribs.encoding ?? '')) return textOf(child);
    const found = texAnnotationOf(child);
    if (found !== undefined) return found;
  }
  return undefined;
}

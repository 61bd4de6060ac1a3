import { Element, isTag } from 'domhandler';
import { isHoverCard, lineCodeRun, linkTargets } from '../html/line-code.js';
import { renderPlainBlock } from './block-rules.js';
import { collectCodeText, writeCode } from './code-blocks.js';
import { languageFromClass } from './code-language.js';
import { lineNumberGutter } from './line-numbers.js';
import type { MarkdownConverter } from './markdown-converter.js';
import { cleanCodeText } from './whitespace.js';

/**
 * `<div>`: a code block when it opens with a run of line divisions that reads as code
 * (`lineCodeRun`: Doxygen's `div.fragment > div.line`), less the line-number gutter of its lines as in a `pre`;
 * what follows the run is converted as usual, less the hover cards of the code's links (`isHoverCard`).
 * Any other division is a plain block.
 */
export function renderDivision(element: Element, converter: MarkdownConverter): void {
  const lines = converter.inlineOnly === 0 ? lineCodeRun(element) : undefined;
  if (lines === undefined) {
    renderPlainBlock(element, converter);
    return;
  }
  // The gutter is read on the run's lines alone: what follows them (Doxygen's hover tooltips, or a
  // division nested thousands deep) is not code, and reading it at every level costs its size each time.
  const gutter = lineNumberGutter(new Element('div', {}, lines));
  const code = cleanCodeText(lines.map((line) => collectCodeText(line, gutter).text).join('\n'));
  if (code !== '') writeCode(code, languageFromClass(element.attribs.class ?? '', true), converter);
  const last = lines[lines.length - 1]!;
  const rest = element.children.slice(element.children.indexOf(last) + 1);
  const links = linkTargets(lines);
  converter.walkNodes(links.size === 0 ? rest : rest.filter((node) => !(isTag(node) && isHoverCard(node, links))));
}

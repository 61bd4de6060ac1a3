/**
 * Hover boxes written inside a heading or a code block (rustdoc writes one into a signature `pre` too): a phrasing element whose class names a tooltip and that
 * holds an element besides its trigger (the box's text), as rustdoc writes its "Notable traits"
 * box into a method's `h4`: `<span class="notable-traits-tooltip">ⓘ<span
 * class="notable-traits-tooltiptext">Notable traits for StepBy<I> impl<I> Iterator for
 * …</span></span>`. The box is shown on hover, never part of the title; read as text, it wrote
 * the trait's whole `impl` into the heading. A tooltip word on a bare word (`<abbr
 * class="tooltip">API</abbr>`) is the word, kept. Only by class names: the cleanup keeps a
 * heading's inline content whole otherwise (`chrome-removal.ts`).
 */
import { type Element, isTag } from 'domhandler';

const tooltipPattern = /tool-?tip/i;

/** The tooltip boxes under `heading` (or a `pre`), outermost only, in document order. */
export function headingTooltips(heading: Element): Element[] {
  const found: Element[] = [];
  const stack: Element[] = heading.children.filter(isTag).reverse();
  while (stack.length > 0) {
    const element = stack.pop()!;
    if (isTooltipBox(element)) {
      found.push(element);
      continue;
    }
    for (let index = element.children.length - 1; index >= 0; index--) {
      const child = element.children[index]!;
      if (isTag(child)) stack.push(child);
    }
  }
  return found;
}

function isTooltipBox(element: Element): boolean {
  const names = element.attribs.class;
  if (names === undefined || !tooltipPattern.test(names)) return false;
  return element.children.some(isTag);
}

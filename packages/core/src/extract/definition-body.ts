/**
 * A paragraph of a definition's description: the `dd` of a definition list holds the definition's
 * text, and each of its paragraphs is that text, whatever it reads. A reference manual closes a
 * function's description with "See also: size, rows, numel" (makeinfo's `@seealso`, Javadoc's
 * "See Also:"), which read alone is the "see also" line a news page links a neighbouring story
 * with; inside a description that has other text, it is the description's last paragraph.
 */
import { type Element, isTag } from 'domhandler';
import { hasCollapsedText } from './dom-tools.js';

/** True when `element` is a `p` directly inside a `dd` that holds other text besides it. */
export function isDefinitionParagraph(element: Element): boolean {
  const parent = element.parent;
  if (element.name !== 'p' || !parent || !isTag(parent) || parent.name !== 'dd') return false;
  return parent.children.some((child) => child !== element && hasCollapsedText(child));
}

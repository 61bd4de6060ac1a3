/**
 * A paragraph of a definition's description: the `dd` of a definition list holds the definition's
 * text, and each of its paragraphs is that text, whatever it reads. A reference manual closes a
 * function's description with "See also: size, rows, numel" (makeinfo's `@seealso`, Javadoc's
 * "See Also:"), which read alone is the "see also" line a news page links a neighbouring story
 * with; inside a description that has other text, it is the description's last paragraph.
 */
import { type Element, isTag } from 'domhandler';
import { isChromeText } from './chrome-text.js';
import { collapsedText, hasCollapsedText } from './dom-tools.js';

/** True when `element` is a `p` directly inside a `dd` that holds other text besides it. */
export function isDefinitionParagraph(element: Element): boolean {
  const parent = element.parent;
  if (element.name !== 'p' || !parent || !isTag(parent) || parent.name !== 'dd') return false;
  return parent.children.some((child) => child !== element && hasCollapsedText(child));
}

/**
 * The term a `dd` describes: the nearest `dt` before it, past the other descriptions of that term
 * (a term may have several `dd`s); undefined when something else comes first.
 */
function termOf(description: Element): Element | undefined {
  for (let node = description.prev; node; node = node.prev) {
    if (!isTag(node)) continue;
    if (node.name === 'dt') return node;
    if (node.name !== 'dd') return undefined;
  }
  return undefined;
}

/** The description a `dt` names: the first `dd` after it, past the other terms it shares it with. */
function descriptionOf(term: Element): Element | undefined {
  for (let node = term.next; node; node = node.next) {
    if (!isTag(node)) continue;
    if (node.name === 'dd') return node;
    if (node.name !== 'dt') return undefined;
  }
  return undefined;
}

/**
 * True when `element` is a `dd` whose term names it with words that are not chrome themselves: its
 * text is the term's value, whatever it reads. Javadoc's "Since: 1.5", Doxygen's and rustdoc's
 * version and parameter notes write a bare number as the value of a labelled term; alone, a bare
 * number reads as a comment count or a date, which a "Comments: 17" term would be (its term is chrome).
 */
export function isTermValue(element: Element): boolean {
  if (element.name !== 'dd') return false;
  const term = termOf(element);
  if (!term) return false;
  const text = collapsedText(term);
  return /\p{L}/u.test(text) && !isChromeText(text);
}

/**
 * True when `element` is a `dt` followed by a description with text: a term, not a label that stands
 * alone. Javadoc's "See Also:" names the list of links in its `dd`; alone, "See also" is the line a
 * news page links a neighbouring story with.
 */
export function isDescribedTerm(element: Element): boolean {
  if (element.name !== 'dt') return false;
  const description = descriptionOf(element);
  return description !== undefined && hasCollapsedText(description);
}

/**
 * True when `list` is the description of a term: a list inside a `dd` that has a `dt`. Javadoc
 * writes a "See Also:" term's links as `ul.see-list`; a list of links under a term is that term's
 * value, not a block of related links beside the text.
 */
export function isTermDescriptionList(list: Element): boolean {
  const parent = list.parent;
  return parent !== null && isTag(parent) && parent.name === 'dd' && termOf(parent) !== undefined;
}

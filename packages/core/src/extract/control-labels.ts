/**
 * Controls a page writes as links or disclosure labels, which a reader clicks but never reads as
 * the page's text (issue 13, task 22b):
 * - a link whose target is a script (`href="javascript:..."`) and whose text is only symbols: a
 *   collapse-all, close or expand button drawn as "[−]", "×", "+" (rustdoc's `#toggle-all-docs`,
 *   a dialog's close link, a tree's expander). A script link with words ("Print this page",
 *   `javascript:openWindow('notes.html')` around a title) is left to the other rules.
 * - the label of a disclosure shown open that names the action of opening it: an open `details`
 *   whose `summary` is a short phrase opening with a disclosure verb ("Expand description",
 *   "Show more", "Click to expand"), with no heading, link or block inside. Open, its body is
 *   on the page, so the label only says what a click would do (rustdoc writes every item's
 *   description as `<details open><summary><span>Expand description</span></summary>`); a
 *   summary that says what the disclosure holds (a question, an item's signature) stays.
 * - the separator that parted such a control from the line's items before it, when the control
 *   ends the line: with the control gone, it parts nothing (rustdoc's "1.0.0 · source · [−]"
 *   ended as "1.0.0 · source ·" on every item page). Only before the control: a copy that leaves
 *   nodes out as it goes (`pruneTree`) has not yet unlinked the control when it reads the text
 *   before it, and gives the same answer as one that reads the page untouched (`cloneTree`).
 */
import { type AnyNode, type Element, type Text, isTag, isText } from 'domhandler';

/** True for a control `isNonContent` leaves out with its subtree. */
export function isControlLabel(element: Element): boolean {
  if (element.name === 'a') return isScriptSymbolLink(element);
  if (element.name === 'summary') return isOpenDisclosureLabel(element);
  return false;
}

/** A separator between the items of a line: one symbol (a middle dot, a bar, a bullet, a slash). */
const separatorPattern = /^\s*[\u00b7|\u2022\u2219\u22c5/\u2013\u2014]\s*$/u;
/** Longer texts are never a lone separator: the pattern is not run on them. */
const separatorMaximumLength = 8;

/**
 * True for a text that is only a separator followed by a control (`isControlLabel`) that is its
 * parent's last node (whitespace aside). A separator between the control and another item stays.
 */
export function isControlSeparator(text: Text): boolean {
  if (text.data.length > separatorMaximumLength || !separatorPattern.test(text.data)) return false;
  const next = nextNonBlank(text);
  return next !== null && isTag(next) && isControlLabel(next) && nextNonBlank(next) === null;
}

/** The nearest next sibling that is not a whitespace-only text, or null. */
function nextNonBlank(node: AnyNode): AnyNode | null {
  let sibling = node.next;
  while (sibling && isText(sibling) && sibling.data.trim() === '') sibling = sibling.next;
  return sibling;
}

const scriptHrefPattern = /^\s*javascript:/i;
const wordCharacterPattern = /[\p{L}\p{N}]/u;

function isScriptSymbolLink(element: Element): boolean {
  const href = element.attribs.href;
  if (href === undefined || !scriptHrefPattern.test(href)) return false;
  // A picture is what such a link shows when it has no text (an icon): it may be content, kept.
  const text = smallText(element, linkTags);
  return text !== undefined && !wordCharacterPattern.test(text);
}

/** What a symbol link is written with: the symbol in a span or a styled word. */
const linkTags: ReadonlySet<string> = new Set(['span', 'b', 'strong', 'em', 'i', 'small']);

/** A label is a few words, never a sentence. */
const labelMaximumWords = 4;
const disclosureVerbPattern = /^(?:click to |tap to )?(?:expand|collapse|show|hide|toggle|open|close|reveal|view)\b/i;

function isOpenDisclosureLabel(element: Element): boolean {
  const details = element.parent;
  if (!details || !isTag(details) || details.name !== 'details' || !('open' in details.attribs)) return false;
  // Only when the disclosure has a body beside its label.
  if (!details.children.some((child) => isTag(child) && child !== element)) return false;
  const text = smallText(element, labelTags);
  if (text === undefined || text === '' || text.split(' ').length > labelMaximumWords) return false;
  return disclosureVerbPattern.test(text);
}

/** What a label is written with: words in a span or a styled word, an icon. */
const labelTags: ReadonlySet<string> = new Set(['span', 'b', 'strong', 'em', 'i', 'small', 'svg', 'path', 'img']);

/** A control is a few nodes: a larger subtree is not read (a page of nested links or summaries stays linear). */
const controlMaximumNodes = 12;

/**
 * The collapsed text of a small subtree written only with `tags`, or undefined when it holds
 * another element or more than `controlMaximumNodes` nodes.
 */
function smallText(element: Element, tags: ReadonlySet<string>): string | undefined {
  let text = '';
  let count = 0;
  const stack: AnyNode[] = [...element.children];
  while (stack.length > 0) {
    if (++count > controlMaximumNodes) return undefined;
    const node = stack.pop()!;
    if (isText(node)) text = `${node.data} ${text}`;
    else if (isTag(node)) {
      if (!tags.has(node.name)) return undefined;
      for (const child of node.children) stack.push(child);
    }
  }
  return text.replace(/\s+/g, ' ').trim();
}

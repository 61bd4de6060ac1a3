/**
 * A content root that is one section's body in a flat document is lifted to the document. A
 * generator that wraps its sections in no `section` writes them as headings of one level between
 * their bodies in one parent (Starlight wraps each heading with its permalink in a `div`); when one
 * section's body outscores the rest (a long API list under "API"), the root was that body alone and
 * the other sections went. Names used to say where the document was (`sl-markdown-content`); its
 * headings say it too.
 */
import { type Element, isTag } from 'domhandler';
import { documentSectionPeers, hasCollapsedText, headingLevel } from './dom-tools.js';

/** The level of a heading among a parent's children, or of the one heading a wrapper opens with (its permalink beside it); 0 otherwise. */
function peerHeadingLevel(element: Element): number {
  const level = headingLevel(element);
  if (level > 0) return level;
  if (element.name !== 'div' && element.name !== 'header' && element.name !== 'hgroup') return 0;
  const withText = element.children.filter((child): child is Element => isTag(child) && hasCollapsedText(child));
  const first = withText[0];
  if (!first || headingLevel(first) === 0) return 0;
  // The heading and at most its permalink: a wrapper holding more is a section, judged elsewhere.
  if (withText.length > 2 || (withText[1] && withText[1].name !== 'a')) return 0;
  return headingLevel(first);
}

/**
 * `root`'s parent, when the root is a block in a flat document: the parent holds headings (or
 * heading wrappers) of one level 2-6, enough of them to be a document's sections, and a heading
 * of that level comes before the root. Otherwise `root`.
 */
export function flatDocumentOf(root: Element): Element {
  const parent = root.parent;
  if (!parent || !isTag(parent) || parent.name === 'body' || headingLevel(root) > 0) return root;
  const counts = new Map<number, number>();
  let before = 0;
  let seenRoot = false;
  for (const child of parent.children) {
    if (child === root) seenRoot = true;
    if (!isTag(child)) continue;
    const level = peerHeadingLevel(child);
    if (level < 2) continue;
    counts.set(level, (counts.get(level) ?? 0) + 1);
    if (!seenRoot && (before === 0 || level < before)) before = level;
  }
  if (before === 0) return root;
  return (counts.get(before) ?? 0) >= documentSectionPeers ? parent : root;
}

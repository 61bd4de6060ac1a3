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

/** The level of a heading among a parent's children, or of the one heading a wrapper opens with (its permalink beside it); 0 otherwise. A README's `h1`s are its sections too. */
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

/** How far up from the root a flat document is looked for (a code block's wrappers). */
const levelsUp = 3;

/**
 * The parent of `root` (or of one of its nearest ancestors), when that block is one of a flat
 * document's: the parent holds headings (or heading wrappers) of one level, enough of them to be
 * a document's sections, and one of them comes before the block. Otherwise `root`.
 */
export function flatDocumentOf(root: Element): Element {
  if (headingLevel(root) > 0) return root;
  let block = root;
  for (let step = 0; step < levelsUp; step++) {
    const parent = block.parent;
    if (!parent || !isTag(parent) || parent.name === 'body' || parent.name === 'html') return root;
    if (isSectionOf(block, parent)) return parent;
    block = parent;
  }
  return root;
}

function isSectionOf(block: Element, parent: Element): boolean {
  const counts = new Map<number, number>();
  const before = new Set<number>();
  let seenBlock = false;
  for (const child of parent.children) {
    if (child === block) seenBlock = true;
    if (!isTag(child)) continue;
    const level = peerHeadingLevel(child);
    if (level === 0) continue;
    counts.set(level, (counts.get(level) ?? 0) + 1);
    if (!seenBlock) before.add(level);
  }
  for (const level of before) if ((counts.get(level) ?? 0) >= documentSectionPeers) return true;
  return false;
}

/**
 * Section blocks: the elements a document's sections are written as, a `section` opened by a
 * heading or a `div` whose first element is one (asciidoc's `div.sect1`, docutils' html4css1
 * `div.section`). Read by the scoring (a root inside one section is lifted to the document) and
 * by the cleanup (a section of a document is kept, whatever share of it is links).
 */
import { type Element, type ParentNode, isTag } from 'domhandler';
import { collapsedLength, hasCollapsedText, hasOwnText, headingLevel, headingTags, sectionHeadingLevel, settleWithin } from './dom-tools.js';

/**
 * The level of the heading a section block opens: a `section` (docutils' HTML5 writer), or a
 * `div` whose first element with text is a heading (asciidoc writes each section as
 * `div.sect1 > h2 + div.sectionbody`); 0 for any other element. A `div` is one of a document's
 * sections only among enough peers (`isDocumentSectionBlock` in `content-cleanup.ts`,
 * `documentOfSections` in `content-scoring.ts`).
 */
export function sectionBlockLevel(element: Element): number {
  if (element.name === 'section') return sectionHeadingLevel(element);
  if (element.name !== 'div') return 0;
  // The first element past empty anchors (`<a id>`), read without its subtree's text: a deep
  // chain of wrappers costs nothing here. DocBook wraps the heading in title divs that hold only
  // it (`div.section > div.titlepage > div > div > h2`): a few such wrappers are looked through.
  // The first filled child stands at or before the child on the way down to the element judged,
  // before any node a deferred detach left (see `settleWithin`): only it and what is under it are read.
  let first = firstFilledChild(element);
  if (first) settleWithin(first);
  for (let depth = 0; first && first.name === 'div' && depth < headingWrapperDepth; depth++) first = soleFilledChild(first);
  return first && headingTags.has(first.name) && hasCollapsedText(first) ? headingLevel(first) : 0;
}

/** How many wrapper `div`s around a section's heading are looked through. */
const headingWrapperDepth = 3;

/** The first child element with children of its own (past empty anchors). */
function firstFilledChild(element: Element): Element | undefined {
  return element.children.find((child): child is Element => isTag(child) && child.children.length > 0);
}

/** The one child element with children of `wrapper`, when it has no other and no loose text. */
function soleFilledChild(wrapper: Element): Element | undefined {
  if (hasOwnText(wrapper)) return undefined;
  let sole: Element | undefined;
  for (const child of wrapper.children) {
    if (!isTag(child) || child.children.length === 0) continue;
    if (sole) return undefined;
    sole = child;
  }
  return sole;
}

/**
 * True when a parent's section `div`s of `level` hold at least half of its text: they are the
 * document (asciidoc's `#content`), not boxes after an article whose own text stands outside them
 * (a "Downloads", "Contacts", "More on this topic" row, each opened by its title).
 */
export function sectionsHoldParent(parent: Element, level: number): boolean {
  const known = sectionsHoldMemo?.get(parent)?.get(level);
  if (known !== undefined) return known;
  settleWithin(parent);
  let inSections = 0;
  let total = 0;
  for (const child of parent.children) {
    if (!isTag(child)) continue;
    const length = childLength(child);
    total += length;
    if (child.name === 'div' && sectionBlockLevel(child) === level) inSections += length;
  }
  const holds = inSections * 2 >= total;
  if (sectionsHoldMemo) {
    let byLevel = sectionsHoldMemo.get(parent);
    if (!byLevel) sectionsHoldMemo.set(parent, (byLevel = new Map()));
    byLevel.set(level, holds);
  }
  return holds;
}

/**
 * `sectionsHoldParent`'s answers while a rule walks a tree it does not change between two removals
 * (`removeChromeTexts`, `removeClutter`, `removeLinkRuns` in content-cleanup.ts: started before the
 * walk, cleared at each removal, stopped after): every element under a document's sections asks it
 * of the same parent (through `isWholeSectionBody`'s walk up), and each answer reads the text of
 * all the sections (postgresql-doc-15, issue 14, tenth pass). Undefined: no memo.
 */
let sectionsHoldMemo: Map<Element, Map<number, boolean>> | undefined;

/**
 * `sectionPeerCount`'s answers, kept by the same rules as `sectionsHoldMemo` (the same walks,
 * cleared at the same removals): every section of a flat document counts the same siblings.
 */
let sectionPeersMemo: Map<Element, Map<string, number>> | undefined;

/**
 * The collapsed text length of each section's parent's children, kept by the same rules: a
 * removal inside one section left the others' lengths as they were, and reading all of them again
 * at each removal made a page of 4,000 section `div`s with a link block each take 14 s.
 */
let lengthMemo: Map<Element, number> | undefined;

function childLength(child: Element): number {
  const known = lengthMemo?.get(child);
  if (known !== undefined) return known;
  const length = collapsedLength(child);
  lengthMemo?.set(child, length);
  return length;
}

export function startSectionsHoldMemo(): void {
  sectionsHoldMemo = new Map();
  sectionPeersMemo = new Map();
  lengthMemo = new Map();
}

/**
 * The tree changed under `parent` (a child of it was removed): the answers about it and its
 * ancestors may be wrong now, those about the rest of the tree stand. Without `parent`, all go.
 */
export function clearSectionsHoldMemo(parent?: ParentNode | null): void {
  if (parent === undefined) {
    sectionsHoldMemo?.clear();
    sectionPeersMemo?.clear();
    lengthMemo?.clear();
    return;
  }
  if (!sectionsHoldMemo) return;
  for (let node: ParentNode | null = parent; node && isTag(node); node = node.parent) {
    sectionsHoldMemo.delete(node);
    sectionPeersMemo?.delete(node);
    lengthMemo?.delete(node);
  }
}

export function stopSectionsHoldMemo(): void {
  sectionsHoldMemo = undefined;
  sectionPeersMemo = undefined;
  lengthMemo = undefined;
}

/**
 * How many children of `parent` are section blocks named `name` that open a heading of `level`.
 * Remembered while a walk holds the tree still: counted for each of its sections, a page of 16,000
 * `section`s read its parent's children 16,000 times (41 s at 32,000).
 */
export function sectionPeerCount(parent: Element, name: string, level: number): number {
  const key = `${name} ${level}`;
  const known = sectionPeersMemo?.get(parent)?.get(key);
  if (known !== undefined) return known;
  settleWithin(parent);
  let count = 0;
  for (const child of parent.children) if (isTag(child) && child.name === name && sectionBlockLevel(child) === level) count++;
  if (sectionPeersMemo) {
    let byKey = sectionPeersMemo.get(parent);
    if (!byKey) sectionPeersMemo.set(parent, (byKey = new Map()));
    byKey.set(key, count);
  }
  return count;
}

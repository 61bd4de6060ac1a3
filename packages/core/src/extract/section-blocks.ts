/**
 * Section blocks: the elements a document's sections are written as, a `section` opened by a
 * heading or a `div` whose first element is one (asciidoc's `div.sect1`, docutils' html4css1
 * `div.section`). Read by the scoring (a root inside one section is lifted to the document) and
 * by the cleanup (a section of a document is kept, whatever share of it is links).
 */
import { type AnyNode, type Element, type ParentNode, isTag } from 'domhandler';
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

const isElementWithText = (child: AnyNode): child is Element => isTag(child) && hasCollapsedText(child);

/** How many wrapper `div`s around a section's heading are looked through. */
const headingWrapperDepth = 3;

/** The first child element with children of its own (past empty anchors). */
function firstFilledChild(element: Element): Element | undefined {
  // Past nodes a deferred detach took out and left in `children` (their parent is no longer it).
  for (const child of element.children) if (isTag(child) && child.children.length > 0 && child.parent === element) return child;
  return undefined;
}

/**
 * True when `element`'s one filled child is a section `div` of `level` (Erlang's reference pages
 * write "Description" as `section > div > h3 + div`, its other sections as bare `div > h3 + div`).
 */
export function wrapsSection(element: Element, level: number): boolean {
  if (sectionBlockLevel(element) > 0) return false;
  const sole = soleFilledChild(element);
  return sole?.name === 'div' && sectionBlockLevel(sole) === level;
}

/** True when a section `div`'s one filled child is its heading (through title wrappers): its body stands after it. */
function holdsOnlyHeading(section: Element): boolean {
  let sole = soleFilledChild(section);
  for (let depth = 0; sole && sole.name === 'div' && depth < headingWrapperDepth; depth++) sole = soleFilledChild(sole);
  return !!sole && headingTags.has(sole.name);
}

/** The one child element with children of `wrapper`, when it has no other and no loose text. */
function soleFilledChild(wrapper: Element): Element | undefined {
  if (hasOwnText(wrapper)) return undefined;
  let sole: Element | undefined;
  for (const child of wrapper.children) {
    if (!isTag(child) || child.children.length === 0 || child.parent !== wrapper) continue;
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
  const byLevel = sectionsHoldMemo?.get(parent);
  if (byLevel) {
    applyChangedLengths(parent, byLevel);
    const known = byLevel.get(level);
    if (known !== undefined) return known.inSections * 2 >= known.total;
  }
  settleWithin(parent);
  let inSections = 0;
  let total = 0;
  for (const child of parent.children) {
    if (!isTag(child)) continue;
    const length = childLength(child);
    total += length;
    if (isInSections(child, level)) inSections += length;
  }
  if (sectionsHoldMemo) {
    let byLevel = sectionsHoldMemo.get(parent);
    if (!byLevel) sectionsHoldMemo.set(parent, (byLevel = new Map()));
    byLevel.set(level, { inSections, total });
  }
  return inSections * 2 >= total;
}

/** True when `child` counts as one of its parent's sections of `level` in `sectionsHoldParent`. */
function isInSections(child: Element, level: number): boolean {
  if ((child.name === 'div' || child.name === 'section') && sectionBlockLevel(child) === level) return true;
  if (wrapsSection(child, level)) return true;
  // A section whose div holds only its heading goes on in the block after it (Erlang's reference
  // pages: `div > h3 Exports` and then `div.exports-body`): that block is its body.
  if (sectionBlockLevel(child) > 0) return false;
  let previous = child.prev;
  while (previous && !isTag(previous)) previous = previous.prev;
  return !!previous && previous.name === 'div' && sectionBlockLevel(previous) === level && holdsOnlyHeading(previous);
}

/** The text lengths `sectionsHoldParent` summed over a parent's children: in its section `div`s of one level, and in all. */
interface HoldSums {
  inSections: number;
  total: number;
}

/**
 * Brings a parent's sums up to date with the children whose text a removal under them changed
 * (`forgetRemovalOf`): each such child's length is read again, and the difference added. The child
 * kept its section level (or the sums went), so it counts in the same sums as before.
 */
function applyChangedLengths(parent: Element, byLevel: Map<number, HoldSums>): void {
  const changed = changedLengths?.get(parent);
  if (!changed) return;
  changedLengths!.delete(parent);
  for (const [child, before] of changed) {
    settleWithin(child);
    const delta = childLength(child) - before;
    if (delta === 0) continue;
    for (const [sumsLevel, sums] of byLevel) {
      sums.total += delta;
      if (isInSections(child, sumsLevel)) sums.inSections += delta;
    }
  }
}

/**
 * `sectionsHoldParent`'s answers while a rule walks a tree it does not change between two removals
 * (`removeChromeTexts`, `removeClutter`, `removeLinkRuns` in content-cleanup.ts: started before the
 * walk, cleared at each removal, stopped after): every element under a document's sections asks it
 * of the same parent (through `isWholeSectionBody`'s walk up), and each answer reads the text of
 * all the sections (postgresql-doc-15, issue 14, tenth pass). Undefined: no memo.
 */
let sectionsHoldMemo: Map<Element, Map<number, HoldSums>> | undefined;

/**
 * Per parent whose sums `sectionsHoldMemo` keeps, its children whose text a removal under them
 * changed since, with the length each had in the sums (see `applyChangedLengths`).
 */
let changedLengths: Map<Element, Map<Element, number>> | undefined;

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
  changedLengths = new Map();
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
    changedLengths?.clear();
    sectionPeersMemo?.clear();
    lengthMemo?.clear();
    return;
  }
  if (!sectionsHoldMemo) return;
  for (let node: ParentNode | null = parent; node && isTag(node); node = node.parent) {
    sectionsHoldMemo.delete(node);
    changedLengths?.delete(node);
    sectionPeersMemo?.delete(node);
    lengthMemo?.delete(node);
  }
}

/**
 * Before the siblings `removed` are taken out (a link run, `removeLinkRuns`): the answers about
 * their parent and its ancestors go as in `clearSectionsHoldMemo`, but for an ancestor's peer
 * counts while the child on the way down keeps its section level (`mayChangeLevel`): a count reads
 * only its children's levels. Cleared too, a page of thousands of `section`s, each losing a run
 * of links after its heading, had their parent's children counted again at each next section's
 * verdict (1 MB, 2.9 s). The sums go still: a run taken out of a section `div` after its heading
 * can leave it holding only its heading, which makes the block after it that section's body
 * (`isInSections`). The ancestors above the parent hold no node a deferred detach left (the walk
 * settles each parent when done with it); the parent may, and is read past them.
 */
export function forgetSiblingsRemoval(removed: readonly Element[]): void {
  const parent = removed[0]?.parent;
  if (!sectionsHoldMemo || !parent || !isTag(parent)) return;
  let isFilled = false;
  let hasText = false;
  for (const element of removed) {
    if (element.children.length === 0) continue;
    isFilled = true;
    if (!hasText && hasCollapsedText(element)) hasText = true;
  }
  const removedSet = new Set<Element>(removed);
  let keepsLevel = !removesLevelChild(parent, removedSet, isFilled, hasText);
  // With two filled children left, no element's sole filled child changes (the parent had them
  // before too, and stays filled): `holdsOnlyHeading` and `wrapsSection` answer as before, so an
  // ancestor's sums change only by the length of its child on the way down, while that child and
  // the ones below it keep their section levels.
  let keepsSums = keepsFilledPair(parent, removedSet);
  let before = lengthMemo?.get(parent);
  clearOne(parent);
  let inner: Element = parent;
  for (let node = parent.parent; node && isTag(node); node = node.parent) {
    keepsSums &&= keepsLevel && before !== undefined;
    const innerBefore = before;
    before = lengthMemo?.get(node);
    if (keepsSums && sectionsHoldMemo.has(node)) noteChangedLength(node, inner, innerBefore!);
    else {
      sectionsHoldMemo.delete(node);
      changedLengths?.delete(node);
    }
    lengthMemo?.delete(node);
    if (!keepsLevel) sectionPeersMemo?.delete(node);
    keepsLevel = !mayChangeLevel(node, inner, isFilled, hasText);
    inner = node;
  }
}

/** True when `parent` keeps two filled child elements besides those in `removed` (past nodes a deferred detach left). */
function keepsFilledPair(parent: Element, removed: ReadonlySet<Element>): boolean {
  let filled = 0;
  for (const child of parent.children) {
    if (isTag(child) && child.children.length > 0 && child.parent === parent && !removed.has(child) && ++filled === 2) return true;
  }
  return false;
}

/** Remembers that `child`'s length in `node`'s sums was `before` (the first such length stands). */
function noteChangedLength(node: Element, child: Element, before: number): void {
  let changed = changedLengths!.get(node);
  if (!changed) changedLengths!.set(node, (changed = new Map()));
  if (!changed.has(child)) changed.set(child, before);
}

/** `mayChangeLevel` for `block` losing the children in `removed` (past nodes a deferred detach left in its `children`). */
function removesLevelChild(block: Element, removed: ReadonlySet<Element>, isFilled: boolean, hasText: boolean): boolean {
  if (block.name === 'div') {
    const first = isFilled ? firstFilledChild(block) : undefined;
    return !!first && removed.has(first);
  }
  if (block.name !== 'section' || !hasText) return false;
  for (const child of block.children) if (child.parent === block && isElementWithText(child)) return removed.has(child);
  return false;
}

/** Forgets every answer about `node`'s children and its own length. */
function clearOne(node: Element): void {
  sectionsHoldMemo?.delete(node);
  changedLengths?.delete(node);
  sectionPeersMemo?.delete(node);
  lengthMemo?.delete(node);
}

/**
 * Before `element` is taken out: forgets what its removal changes. Its parent loses a child, so
 * the answers about the parent go. Above, an ancestor's peer count and sections' share stand
 * while the child on the way down keeps its section level (the removal does not reach the first
 * filled child of a `div` nor the first element with text of a `section`): only that child's
 * length changes, read again at the next `sectionsHoldParent` of the ancestor. Clearing them all
 * (`clearSectionsHoldMemo`) made a parent of thousands of sections, each losing a link block, be
 * recounted whole at each removal.
 */
export function forgetRemovalOf(element: Element): void {
  const parent = element.parent;
  if (!sectionsHoldMemo || !parent || !isTag(parent)) return;
  // Nothing remembered yet (no section asked): nothing to forget, and no walk up a deep chain of
  // ancestors for each removal (nested lists 512 deep: a sixth of the page's time).
  if (sectionsHoldMemo.size === 0 && sectionPeersMemo?.size === 0 && lengthMemo?.size === 0) return;
  const isFilled = element.children.length > 0;
  const hasText = isFilled && hasCollapsedText(element);
  if (hasText || !keepsParentAnswers(element, parent)) dropAnswers(parent);
  let inner: Element = element;
  let child: Element = parent;
  for (let node = parent.parent; node && isTag(node); node = node.parent) {
    if (mayChangeLevel(child, inner, isFilled, hasText)) dropAnswers(node);
    else if (sectionsHoldMemo.has(node)) {
      let changed = changedLengths!.get(node);
      if (!changed?.has(child)) {
        const before = lengthMemo?.get(child);
        if (before === undefined) dropAnswers(node);
        else {
          if (!changed) changedLengths!.set(node, (changed = new Map()));
          changed.set(child, before);
        }
      }
    }
    lengthMemo?.delete(child);
    inner = child;
    child = node;
  }
  lengthMemo?.delete(child);
}

/**
 * True when taking out `element`, a child of `parent` without text, leaves the answers about
 * `parent`'s children as they are: it is no section block (no heading with text), its length is 0
 * in the sums, and the block after it, whose previous block it was, reads as a section's body only
 * after a section `div` holding only its heading: unless the block before it is one, nothing
 * changes. Dropped for each of thousands of empty blocks between a parent's section `div`s (a
 * carousel's decorative blocks between its cards), the answers were counted again over all of
 * them at each card's verdict (50 s for 1 MB).
 */
function keepsParentAnswers(element: Element, parent: Element): boolean {
  if (changedLengths?.get(parent)?.has(element)) return false;
  let previous = element.prev;
  while (previous && !isTag(previous)) previous = previous.prev;
  return previous?.name !== 'div' || sectionBlockLevel(previous) === 0 || !holdsOnlyHeading(previous);
}

/** Forgets every answer about `node`'s children. */
function dropAnswers(node: Element): void {
  sectionsHoldMemo?.delete(node);
  changedLengths?.delete(node);
  sectionPeersMemo?.delete(node);
}

/**
 * Whether taking out a node under `inner` (a child of `block`) may change `block`'s section level
 * (`sectionBlockLevel`): for a `div`, when `inner` is its first filled child and the node has
 * children; for a `section`, when `inner` is its first element with text and the node has text.
 * Both scans stop at `inner` at the latest, before any node a deferred detach left.
 */
function mayChangeLevel(block: Element, inner: Element, isFilled: boolean, hasText: boolean): boolean {
  if (block.name === 'div') return isFilled && firstFilledChild(block) === inner;
  if (block.name === 'section') return hasText && block.children.find(isElementWithText) === inner;
  return false;
}

export function stopSectionsHoldMemo(): void {
  sectionsHoldMemo = undefined;
  changedLengths = undefined;
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

/**
 * Small helpers over the domhandler tree shared by the extraction modules: element walks, tag
 * classes, attribute hints and detaching nodes. Everything here works on the working copy that
 * `extractMainContent` cloned, never on the caller's tree.
 */
import { type AnyNode, Document, Element, type ParentNode, Text, hasChildren as hasChildNodes, isTag, isText } from 'domhandler';
import { removeElement } from 'domutils';

/**
 * Phrasing (inline) elements: their text belongs to the block around them. Everything else is
 * treated as a block when text is grouped into paragraphs.
 */
export const inlineTags: ReadonlySet<string> = new Set([
  'a',
  'abbr',
  'acronym',
  'b',
  'bdi',
  'bdo',
  'big',
  'br',
  'cite',
  'code',
  'data',
  'del',
  'dfn',
  'em',
  'font',
  'i',
  'img',
  'ins',
  'kbd',
  'label',
  'mark',
  'nobr',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strike',
  'strong',
  'sub',
  'sup',
  'time',
  'tt',
  'u',
  'var',
  'wbr',
  'picture',
  'math',
]);

export const headingTags: ReadonlySet<string> = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** A heading's level, 1-6; 0 for any other element. */
export function headingLevel(element: Element): number {
  return headingTags.has(element.name) ? Number(element.name[1]) : 0;
}

/** A heading, or the `section` it opens, with at least this many peers of its level in one parent (itself included) is one section of a flat document. */
export const documentSectionPeers = 3;

/** The level of the heading that opens a `section` (its first element with text); 0 if none. */
export function sectionHeadingLevel(element: Element): number {
  if (element.name !== 'section') return 0;
  // Past nodes a deferred detach took out and left in `children` (their parent is no longer it).
  for (const child of element.children) if (child.parent === element && isElementWithText(child)) return headingLevel(child);
  return 0;
}

/** Two `section`s of one level nested in their parent heading's `section` (as docutils nests them) are a document's sections too. */
const nestedSectionPeers = 2;

/**
 * How many `section`s opened by a heading of `level` one parent must hold for them to be the
 * sections of one document: fewer when the parent is itself a section opened by a higher heading.
 */
export function sectionPeersNeeded(parent: Element, level: number): number {
  const parentLevel = sectionHeadingLevel(parent);
  return parentLevel > 0 && parentLevel < level ? nestedSectionPeers : documentSectionPeers;
}

export function isInline(node: AnyNode): boolean {
  return !isTag(node) || inlineTags.has(node.name);
}

const nonSpacePattern = /\S/;

/** True when text that is not blank stands directly among `parent`'s children (loose text beside its elements). */
export function hasOwnText(parent: ParentNode): boolean {
  // A test rather than `trim()`, which copies every text with a space at an end (same whitespace set).
  for (const child of parent.children) if (isText(child) && nonSpacePattern.test(child.data)) return true;
  return false;
}

/** ARIA roles of notes that belong to the text they annotate: footnotes, endnotes, notes. */
const noteRoles: ReadonlySet<string> = new Set(['note', 'doc-footnote', 'doc-endnote', 'doc-endnotes']);

/**
 * True for an `aside` that holds the text's notes, not the site's: one with a note role, or a list
 * whose every child element is one (docutils writes footnotes as `<aside class="footnote-list">`
 * around `<aside role="note">`, at the end of the section that cites them).
 */
export function isNoteAside(element: Element): boolean {
  if (element.name !== 'aside') return false;
  if (noteRoles.has(element.attribs.role ?? '')) return true;
  const children = element.children.filter(isTag);
  return children.length > 0 && children.every((child) => child.name === 'aside' && noteRoles.has(child.attribs.role ?? ''));
}

/** A table with header cells is data (a layout table has none). */
export function hasHeaderCells(table: Element): boolean {
  return firstElement(table, (element) => element.name === 'th') !== undefined;
}

/**
 * The elements at and under `element` that `known` does not hold yet, children before their
 * parents (a pre-order walk, reversed), leaving out (and not walking) a child `include` refuses:
 * for a value built bottom-up, each element's from its children's, in one walk of what is new
 * (a walk of the whole subtree per element is quadratic in nesting).
 */
export function childrenFirst(element: Element, known: ReadonlyMap<Element, unknown>, include?: (child: Element) => boolean): Element[] {
  const order: Element[] = [];
  const stack: Element[] = [element];
  while (stack.length > 0) {
    const next = stack.pop()!;
    order.push(next);
    for (const child of next.children) if (isTag(child) && !known.has(child) && (include === undefined || include(child))) stack.push(child);
  }
  return order.reverse();
}

/**
 * Every element under `parent` in document order (pre-order), without recursion; with `test`,
 * only those that pass it (`descendantElements(parent).filter(test)` without the full list).
 */
export function descendantElements(parent: ParentNode, test?: (element: Element) => boolean): Element[] {
  const result: Element[] = [];
  // A stack of (child list, next index) rather than of every node: no copy of each child list.
  const lists: AnyNode[][] = [parent.children];
  const next: number[] = [0];
  let depth = 1;
  while (depth > 0) {
    const level = depth - 1;
    const list = lists[level]!;
    const index = next[level]!;
    if (index >= list.length) {
      depth = level;
      continue;
    }
    next[level] = index + 1;
    const node = list[index]!;
    if (!isTag(node)) continue;
    if (test === undefined || test(node)) result.push(node);
    if (node.children.length > 0) {
      lists[depth] = node.children;
      next[depth] = 0;
      depth++;
    }
  }
  return result;
}

/**
 * `descendantElements(root)` after `detached` were detached from under `root`, from the list
 * `elements` that `descendantElements(root)` gave before: without a second walk of the tree.
 * `detached` must hold every node taken out of the tree since (the tree changed in no other way);
 * in pre-order a parent comes before its children, so an element is gone when it or its parent is.
 */
export function remainingElements(elements: readonly Element[], detached: Iterable<Element>): Element[] {
  const gone = new Set<AnyNode>(detached);
  if (gone.size === 0) return [...elements];
  const result: Element[] = [];
  for (const element of elements) {
    if (gone.has(element) || (element.parent !== null && gone.has(element.parent))) gone.add(element);
    else result.push(element);
  }
  return result;
}

/**
 * The first answer `visit` gives for the text nodes under `parent`, in document order, without
 * recursion (the walk of `descendantElements`); `undefined` when it gives none.
 */
export function firstTextAnswer<T>(parent: ParentNode, visit: (text: Text) => T | undefined): T | undefined {
  const lists: AnyNode[][] = [parent.children];
  const next: number[] = [0];
  let depth = 1;
  while (depth > 0) {
    const level = depth - 1;
    const list = lists[level]!;
    const index = next[level]!;
    if (index >= list.length) {
      depth = level;
      continue;
    }
    next[level] = index + 1;
    const node = list[index]!;
    if (isText(node)) {
      const answer = visit(node);
      if (answer !== undefined) return answer;
    } else if (isTag(node) && node.children.length > 0) {
      lists[depth] = node.children;
      next[depth] = 0;
      depth++;
    }
  }
  return undefined;
}

/** Nodes a copy leaves out (with their subtrees): those under `within` that `drop` rejects. */
export interface ClonePruning {
  within: ParentNode;
  drop: (node: AnyNode) => boolean;
}

/**
 * A deep copy of `root` built without recursion (domhandler's `cloneNode(true)` recurses and
 * overflows the stack on pages that nest thousands of unclosed tags). With `pruning`, the nodes it
 * drops are never copied, rather than copied and detached afterwards.
 */
export function cloneTree<T extends ParentNode>(root: T, pruning?: ClonePruning): T {
  const copy = root.cloneNode(false) as T;
  const sources: ParentNode[] = [root];
  const targets: ParentNode[] = [copy];
  const isPruned: boolean[] = [root === pruning?.within];
  while (sources.length > 0) {
    const source = sources.pop()!;
    const target = targets.pop()!;
    const prune = isPruned.pop()!;
    const children: AnyNode[] = [];
    let previous: AnyNode | null = null;
    for (const original of source.children) {
      if (prune && pruning!.drop(original)) continue;
      const child = copyNode(original);
      child.parent = target;
      child.prev = previous;
      if (previous) previous.next = child;
      previous = child;
      children.push(child);
      if (hasChildNodes(original)) {
        sources.push(original);
        targets.push(child as ParentNode);
        isPruned.push(prune || original === pruning?.within);
      }
    }
    target.children = children;
  }
  return copy;
}

/**
 * What `cloneTree(root, { within, drop })` gives, made from `root` itself: the nodes `drop` takes
 * under `within` are detached in place and the rest relinked, nothing is copied. For a page the
 * caller can parse again (a large page's main content, see `PageSource` in main-content.ts).
 */
export function pruneTree(within: ParentNode, drop: (node: AnyNode) => boolean): void {
  const parents: ParentNode[] = [within];
  while (parents.length > 0) {
    const parent = parents.pop()!;
    const children = parent.children;
    // A new child list only for a parent that loses a child (most lose none): the list is copied
    // from the first drop on, and the children are relinked in place either way.
    let kept: AnyNode[] | undefined;
    let previous: AnyNode | null = null;
    for (let index = 0; index < children.length; index++) {
      const child = children[index]!;
      if (drop(child)) {
        kept ??= children.slice(0, index);
        child.parent = null;
        child.prev = null;
        child.next = null;
        continue;
      }
      child.prev = previous;
      if (previous) previous.next = child;
      previous = child;
      kept?.push(child);
      if (hasChildNodes(child)) parents.push(child as ParentNode);
    }
    if (previous) previous.next = null;
    if (kept) parent.children = kept;
  }
}

/**
 * A childless copy of a node. An element's copy shares its attribute object with the original:
 * nothing in the extraction writes attributes, and `resolveUrls` replaces the object rather than
 * writing into it, so a copy per element (5 % of the bytes a page's transform allocated) bought nothing.
 */
function copyNode(node: AnyNode): AnyNode {
  if (node.sourceCodeLocation != null) return node.cloneNode(false);
  if (node.type === 'text') {
    const text = new Text((node as Text).data);
    text.startIndex = node.startIndex;
    text.endIndex = node.endIndex;
    return text;
  }
  if (!isTag(node) || node.namespace != null || node['x-attribsNamespace'] || node['x-attribsPrefix']) {
    return node.cloneNode(false);
  }
  const element = new Element(node.name, node.attribs);
  element.startIndex = node.startIndex;
  element.endIndex = node.endIndex;
  return element;
}

/**
 * The first element under `parent` (document order) that passes `test`, found without recursion
 * and without copying child lists (the walk of `descendantElements`, stopping at the answer): what
 * `descendantElements(parent).some(test)` answers, without listing every element first.
 */
export function firstElement(parent: ParentNode, test: (element: Element) => boolean): Element | undefined {
  const lists: AnyNode[][] = [parent.children];
  const next: number[] = [0];
  let depth = 1;
  while (depth > 0) {
    const level = depth - 1;
    const list = lists[level]!;
    const index = next[level]!;
    if (index >= list.length) {
      depth = level;
      continue;
    }
    next[level] = index + 1;
    const node = list[index]!;
    if (!isTag(node)) continue;
    if (test(node)) return node;
    if (node.children.length > 0) {
      lists[depth] = node.children;
      next[depth] = 0;
      depth++;
    }
  }
  return undefined;
}

/** A child element with text (a module function, not an arrow made per call, which V8 compiled again on later pages). */
const isElementWithText = (child: AnyNode): child is Element => isTag(child) && hasCollapsedText(child);

const letters = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * A section number a generator writes before a heading's title and leaves out of its id (docutils'
 * `sectnum`: "1.4\u00a0\u00a0\u00a0Output Structure and Navigation" in `<div id="output-structure-and-navigation">`).
 */
const sectionNumberPattern = /^\s*\d+(?:\.\d+)*\.?\s+/;

/**
 * True when the id was made from the element's own leading heading (`<section id="comments-proposals">`
 * around "Comments & Proposals", or `<section id="table-of-contents">` around Sphinx's "Table of
 * contents"), with or without the heading's section number: such an id names the section's
 * subject, not its role.
 */
function isTitleSlug(element: Element, id: string): boolean {
  // Past empty link targets (Sphinx writes `<span id="toctree-directive"></span>` before the title).
  const first = element.children.find(isElementWithText);
  if (!first || !headingTags.has(first.name)) return false;
  const slug = letters(id);
  if (slug.length < 3) return false;
  const title = collapsedText(first);
  return letters(title).startsWith(slug) || letters(title.replace(sectionNumberPattern, '')).startsWith(slug);
}

/**
 * A utility class's arbitrary value (`scroll-m-[calc(var(--toc-top-offset)+0.5rem)]`,
 * `grid-cols-[var(--sidebar-width)_1fr]`) is CSS, not a name: the words in it say nothing of what
 * the element is.
 */
const arbitraryValuePattern = /\[[^\]\s]*\]/g;

/**
 * An id that is a dotted object path (`requests.utils.dict_from_cookiejar`, `email.header.Header`)
 * or a kind-qualified name (`variable:CPACK_NSIS_EXTRA_INSTALL_COMMANDS`, `command:add_test`: API
 * docs anchor each documented object so) names a thing the page documents, not a role.
 */
const objectPathPattern = /^(?:[a-z_][\w-]*(?:\.[a-z_][\w-]*)+|[a-z][\w-]*:[^\s:]+)$/i;

/**
 * `pattern.test(hintText(element))` without building the string, for a case-insensitive (`/i`)
 * pattern of lower-case ASCII words without a `k` (the Kelvin sign lower-cases to `k`, which `/i`
 * does not fold) that cannot match across the space between class and id (no whitespace, no
 * `^`/`$`): class and id are tested apart, the id's exclusions checked only when the id matches.
 */
export function hasHint(element: Element, pattern: RegExp): boolean {
  const { class: className, id } = element.attribs;
  const names = className?.includes('[') ? className.replace(arbitraryValuePattern, '') : className;
  if (names && pattern.test(names)) return true;
  return !!id && pattern.test(id) && !objectPathPattern.test(id) && !isTitleSlug(element, id);
}

/**
 * Lower-cased `class` and `id`, joined by a space: the string the hint patterns look at. An id
 * made from the element's own heading or naming a documented object is left out, and so are
 * utility classes' arbitrary values.
 */
export function hintText(element: Element): string {
  const { class: className } = element.attribs;
  const ownId = element.attribs.id;
  const id = ownId && !objectPathPattern.test(ownId) && !isTitleSlug(element, ownId) ? ownId : undefined;
  if (!className && !id) return '';
  // Lower-cased apart, the same string: only a final sigma's case depends on its neighbours, and
  // the space between the two parts is neither a letter nor ignored by that rule.
  const names = className ? hintNames(className) : ' ';
  return id ? names + id.toLowerCase() : names;
}

/**
 * A class string as `hintText` writes it (lower-cased, without arbitrary values, with the space
 * before the id), remembered per string: a page repeats a few class strings on thousands of
 * elements (Sphinx's `<span class="pre">`), each lower-cased on every pass before. Bounded, and
 * emptied after each page (`forgetHintNames`): the keys are the parser's strings, which may be
 * slices that keep the page's whole HTML alive.
 */
const hintNamesOf = new Map<string, string>();
const hintNamesRemembered = 4096;

function hintNames(className: string): string {
  let names = hintNamesOf.get(className);
  if (names === undefined) {
    if (hintNamesOf.size >= hintNamesRemembered) hintNamesOf.clear();
    names = `${(className.includes('[') ? className.replace(arbitraryValuePattern, '') : className).toLowerCase()} `;
    hintNamesOf.set(className, names);
  }
  return names;
}

/** Empties `hintText`'s memory of class strings (at the end of a page's extraction). */
export function forgetHintNames(): void {
  hintNamesOf.clear();
}

function isAncestorOf(ancestor: AnyNode, node: AnyNode): boolean {
  for (let current = node.parent; current; current = current.parent) if (current === ancestor) return true;
  return false;
}

/** True when `node` is `other` or inside it. */
export function isWithin(node: AnyNode, other: AnyNode): boolean {
  return node === other || isAncestorOf(other, node);
}

/**
 * Nodes taken out of a tree by `detach` and `detachAll` so far: a list of elements walked when it
 * read N is still the tree's while it reads N (the cleanup's rules change the tree only by detaching).
 */
let detachedNodes = 0;

export function detach(node: AnyNode): void {
  if (!node.parent) return;
  removeElement(node);
  detachedNodes++;
}

/** The count of nodes detached so far (see `detachedNodes`): unchanged means no node was detached. */
export function detachedCount(): number {
  return detachedNodes;
}

/** The root whose element list `sharedElements` keeps, between `shareElements(root)` and `shareElements(undefined)`. */
let sharedRoot: ParentNode | undefined;
let sharedList: readonly Element[] = [];
let sharedAt = -1;

/**
 * Lets `sharedElements(root)` hand the same list to every rule until a node is detached (most
 * content loses nothing to a cleanup, and each rule walked it again); `undefined` ends it and lets
 * the list go. Only for a stretch of code that changes the tree by `detach` and `detachAll` alone.
 */
export function shareElements(root: ParentNode | undefined): void {
  sharedRoot = root;
  sharedList = [];
  sharedAt = -1;
}

/**
 * `descendantElements(root)`, the same array while no node was detached since it was walked (for
 * the root `shareElements` named; a fresh walk for any other). Read it, never change it.
 */
export function sharedElements(root: ParentNode): readonly Element[] {
  if (root !== sharedRoot) return descendantElements(root);
  if (sharedAt !== detachedNodes) {
    sharedList = descendantElements(root);
    sharedAt = detachedNodes;
  }
  return sharedList;
}

/**
 * Detaches many nodes at once: one pass over each parent's children. Detaching one by one costs a
 * search and a splice of the parent's children each (domutils `removeElement`), quadratic when a
 * parent has thousands of children (a 40,000-row list took 4 s).
 */
export function detachAll(nodes: readonly AnyNode[]): void {
  const byParent = new Map<ParentNode, Set<AnyNode>>();
  for (const node of nodes) {
    if (!node.parent) continue;
    detachedNodes++;
    let doomed = byParent.get(node.parent);
    if (!doomed) byParent.set(node.parent, (doomed = new Set()));
    doomed.add(node);
  }
  for (const [parent, doomed] of byParent) {
    if (doomed.size === 1) {
      removeElement(doomed.values().next().value!);
      continue;
    }
    parent.children = parent.children.filter((child) => !doomed.has(child));
    parent.children.forEach((child, index) => {
      child.prev = parent.children[index - 1] ?? null;
      child.next = parent.children[index + 1] ?? null;
    });
    for (const node of doomed) {
      node.parent = null;
      node.prev = null;
      node.next = null;
    }
  }
}

/**
 * Takes `node` out of the tree for every reader but its parent's `children` array: its parent and
 * sibling links are cut now, the array keeps it until `settleDetached(unsettled)`. A walk that
 * detaches thousands of children of one parent one by one searched and spliced that array each
 * time (domutils `removeElement`), quadratic in the children kept after them (10,000 empty
 * sections among 20,000 kept blocks took 6 s). Only while nothing reads the parent's `children`.
 */
export function detachUnsettled(node: AnyNode, unsettled: Set<ParentNode>): void {
  const parent = node.parent;
  if (!parent) return;
  if (node.prev) node.prev.next = node.next;
  if (node.next) node.next.prev = node.prev;
  node.parent = null;
  node.prev = null;
  node.next = null;
  unsettled.add(parent);
  detachedNodes++;
}

/** Drops from each parent's `children` the nodes `detachUnsettled` took out: one pass per parent, in place. */
export function settleDetached(unsettled: Set<ParentNode>): void {
  // Most calls find none (`removeLinkRuns` asks after each parent's children): no iterator then.
  if (unsettled.size === 0) return;
  for (const parent of unsettled) settleChildren(parent);
  unsettled.clear();
}

/** Settles `parent` alone, when `unsettled` holds it (see `settleDetached`). */
export function settleParent(parent: ParentNode, unsettled: Set<ParentNode>): void {
  if (unsettled.delete(parent)) settleChildren(parent);
}

/** Drops from `parent`'s `children` the nodes `detachUnsettled` took out of it. */
function settleChildren(parent: ParentNode): void {
  const children = parent.children;
  let kept = 0;
  for (const child of children) if (child.parent === parent) children[kept++] = child;
  children.length = kept;
}

/**
 * While a children-first walk defers its detaches (`deferDetaches`): the parents whose `children`
 * still hold nodes taken out, and the element being judged. The walk settles each parent when it
 * reaches it, after all its children, so the parents left unsettled are all ancestors of the
 * element judged (whatever was taken out came after it in the document), and the stale entries of
 * each one's `children` all stand after the child on the way down to it.
 */
let deferredParents: Set<ParentNode> | undefined;
let judgedElement: Element | undefined;

/**
 * Starts (a set) or ends (`undefined`) deferring: `settleWithin` then settles the parents of
 * `unsettled` a rule is about to read. For a walk that goes children first, calls `settleReached`
 * at each element and `judging` before each verdict.
 */
export function deferDetaches(unsettled: Set<ParentNode> | undefined): void {
  deferredParents = unsettled;
  judgedElement = undefined;
  pathOf = undefined;
  judgedPath.clear();
}

/** The walk reached `element`, after all its children: its `children` are settled now. */
export function settleReached(element: Element): void {
  if (deferredParents !== undefined && deferredParents.size > 0 && deferredParents.delete(element)) settleChildren(element);
}

/** The walk judges `element` next: what `settleWithin` is asked about stands around it. */
export function judging(element: Element): void {
  judgedElement = element;
}

/**
 * Settles every parent at or under `node` whose `children` still hold nodes taken out, before a
 * rule reads `node`'s children or text: those parents are ancestors of the element judged, so only
 * when `node` is one of them (or it) is there anything to settle. A rule that reads only up to the
 * child on the way down (the first filled child, the first element with text) needs no call.
 */
export function settleWithin(node: ParentNode): void {
  if (deferredParents === undefined || deferredParents.size === 0 || judgedElement === undefined) return;
  // The ancestors of the element judged, listed once per verdict: a rule asks this of every child
  // of a parent (a section's peers), and each walked up from the element judged (quadratic again).
  if (pathOf !== judgedElement) {
    judgedPath.clear();
    for (let ancestor = judgedElement.parent; ancestor; ancestor = ancestor.parent) judgedPath.add(ancestor);
    pathOf = judgedElement;
  }
  if (!judgedPath.has(node)) return;
  for (let ancestor = judgedElement.parent; ancestor; ancestor = ancestor.parent) {
    if (deferredParents.delete(ancestor)) settleChildren(ancestor);
    if (ancestor === node) break;
  }
}

/** The ancestors of `pathOf` (see `settleWithin`). */
const judgedPath = new Set<ParentNode>();
let pathOf: Element | undefined;

/** Detaches `nodes` and links them as the children of `parent`. */
function adopt<T extends Document | Element>(parent: T, nodes: AnyNode[]): T {
  detachAll(nodes);
  parent.children = nodes;
  nodes.forEach((node, index) => {
    node.parent = parent;
    node.prev = nodes[index - 1] ?? null;
    node.next = nodes[index + 1] ?? null;
  });
  return parent;
}

/** A new Document whose children are `nodes` (moved, not copied). */
export function documentOf(nodes: AnyNode[]): Document {
  return adopt(new Document([]), nodes);
}

/** A new attribute-less element whose children are `nodes` (moved, not copied). */
export function elementOf(name: string, nodes: AnyNode[]): Element {
  return adopt(new Element(name, {}), nodes);
}

/** A whitespace run that is not one plain space: what collapsing changes. */
const uncollapsedSpacePattern = /[^\S ]| {2}/;

/** Text of a subtree with whitespace runs collapsed to one space and trimmed. */
export function collapsedText(node: AnyNode): string {
  const text = joinedText(node);
  // Most short blocks have nothing to collapse: no new string for them.
  return (uncollapsedSpacePattern.test(text) ? text.replace(/\s+/g, ' ') : text).trim();
}

/**
 * `collapsedText(element)`, shared along a chain of wrappers: an element whose only child with
 * text or an element is one element reads as that child (whitespace around it is trimmed away).
 * A rule that asks each wrapper of a chain read the same subtree again at each one: 512 levels
 * of `div`s over the parser's flattened tail read it 512 times. The chain is read once and its
 * text kept in `texts` for each wrapper, when at most `keptLength` characters (one string shared
 * by the chain; longer ones are not kept, a text per element of a walk up would be quadratic).
 * The caller keeps `texts` only while nothing under the elements it holds is taken out.
 */
export function chainText(element: Element, texts: Map<Element, string>, keptLength = 1_000): string {
  const chain: Element[] = [];
  let node: Element | undefined = element;
  let text: string | undefined;
  while (node !== undefined) {
    text = texts.get(node);
    if (text !== undefined) break;
    chain.push(node);
    node = soleChildElement(node);
  }
  if (text === undefined) text = collapsedText(chain[chain.length - 1]!);
  // An element that wraps nothing alone is asked once: only a chain's texts are asked again.
  if (chain.length > 1 && text.length <= keptLength) for (const wrapper of chain) texts.set(wrapper, text);
  return text;
}

/** The one child element of `element` when its other children are whitespace or comments, else undefined. */
export function soleChildElement(element: Element): Element | undefined {
  let sole: Element | undefined;
  for (const child of element.children) {
    if (isTag(child)) {
      if (sole !== undefined) return undefined;
      sole = child;
    } else if (isText(child)) {
      if (nonSpacePattern.test(child.data)) return undefined;
    } else if (child.type !== 'comment') return undefined;
  }
  return sole;
}

/**
 * Text of a subtree as written (a `br` is a space), before `collapsedText` collapses and trims it:
 * enough for a pattern whose matches do not depend on how long a whitespace run is.
 */
export function joinedText(node: AnyNode): string {
  const parts: string[] = [];
  const stack: AnyNode[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (isText(current)) parts.push(current.data);
    else if (isTag(current)) {
      if (current.name === 'br') parts.push(' ');
      for (let index = current.children.length - 1; index >= 0; index--) stack.push(current.children[index]!);
    } else if ('children' in current) {
      const children = (current as ParentNode).children;
      for (let index = children.length - 1; index >= 0; index--) stack.push(children[index]!);
    }
  }
  return parts.join('');
}

/**
 * `collapsedText(node).length` without building the text: the characters that are not whitespace
 * (`\s`, which is also what `trim` removes), plus one for each whitespace run between two of them.
 * For a rule that only compares lengths of large subtrees (`sectionsHoldParent` read every section
 * of a page again for each of its sections: a fifth of postgresql-doc-15's transform, issue 14,
 * tenth pass).
 */
export function collapsedLength(node: AnyNode): number {
  let length = 0;
  let started = false;
  let pendingSpace = false;
  const stack: AnyNode[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (isText(current)) {
      const data = current.data;
      for (let index = 0; index < data.length; index++) {
        if (isWhitespaceCode(data.charCodeAt(index))) {
          pendingSpace = started;
          continue;
        }
        if (pendingSpace) length++;
        pendingSpace = false;
        started = true;
        length++;
      }
    } else if (isTag(current)) {
      if (current.name === 'br') pendingSpace = started;
      for (let index = current.children.length - 1; index >= 0; index--) stack.push(current.children[index]!);
    } else if ('children' in current) {
      const children = (current as ParentNode).children;
      for (let index = children.length - 1; index >= 0; index--) stack.push(children[index]!);
    }
  }
  return length;
}

/** True for the characters `\s` matches (and `trim` removes). */
export function isWhitespaceCode(code: number): boolean {
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * `collapsedText(node) !== ''` without building the text: true at the first text node with a
 * non-space. In document order, one child list at a time: pushing every child of each level first
 * read all of a wide block (thousands of siblings past the parser's depth cut) for each of the
 * wrappers above it, though the text came first.
 */
export function hasCollapsedText(node: AnyNode): boolean {
  if (isText(node)) return nonSpacePattern.test(node.data);
  if (!('children' in node)) return false;
  const lists: AnyNode[][] = [(node as ParentNode).children];
  const next: number[] = [0];
  let depth = 1;
  while (depth > 0) {
    const level = depth - 1;
    const list = lists[level]!;
    const index = next[level]!;
    if (index >= list.length) {
      depth = level;
      continue;
    }
    next[level] = index + 1;
    const current = list[index]!;
    if (isText(current)) {
      if (nonSpacePattern.test(current.data)) return true;
    } else if ('children' in current && (current as ParentNode).children.length > 0) {
      lists[depth] = (current as ParentNode).children;
      next[depth] = 0;
      depth++;
    }
  }
  return false;
}

/**
 * The nearest element beside `node` on one side among its parent's children, past comments and
 * blank text; undefined when text with words comes first.
 */
export function adjacentElement(node: AnyNode, side: 'prev' | 'next'): Element | undefined {
  for (let sibling = node[side]; sibling; sibling = sibling[side]) {
    if (isTag(sibling)) return sibling;
    if (isText(sibling) && sibling.data.trim() !== '') return undefined;
  }
  return undefined;
}

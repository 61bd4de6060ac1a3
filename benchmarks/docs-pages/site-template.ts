import type { AnyNode, Element, ParentNode } from 'domhandler';

/**
 * A site's template: the blocks a crawl's start page shows (menus, sidebars, footers, notices),
 * each as a fingerprint of its tag and its text. Learnt from the start page only, so that a crawl
 * gives the same pages whatever the concurrency or the number of workers; plain data, so that it
 * can be stored with the crawl and sent to a worker thread.
 *
 *   start page -> one post-order walk -> fingerprints of blocks of >= `minimumChars` letters
 *     -> less the fingerprints of its own main content (one walk of the content)
 *   later page -> main content -> one post-order walk of the content -> blocks in the template,
 *     holding no heading, table or code, are removed; unless that would remove more than
 *     `maximumRemovedShare` of the content's text (a page repeating the start page, an index)
 *
 * Status (issue 13, task 19e): measured, not wired into the crawl. With the template of each page's
 * start page applied to its chosen content, the docs-pages benchmark's `--site-template` mode found
 * no gain: the extractor already leaves out the chrome these templates hold, and what the template
 * found instead were an index's one-line summaries repeated as a page's own lead (see
 * benchmarks/docs-pages/README.md). Kept, with its benchmark mode, for sites whose chrome the
 * extractor keeps.
 */
export interface SiteTemplate {
  /** `tag:words:hash` of each block, in the start page's post-order, at most `maximumFingerprints`. */
  fingerprints: string[];
}

/** Elements whose text is a block a template may repeat. */
const blockTags = new Set(['aside', 'div', 'dl', 'footer', 'form', 'header', 'li', 'menu', 'nav', 'ol', 'p', 'section', 'ul']);
/** Elements never removed, nor any block holding one: the content's own structure. */
const protectedTags = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'pre', 'code', 'img', 'figure']);
/** Elements whose text a reader does not see. */
const skippedTags = new Set(['script', 'style', 'noscript', 'template', 'svg']);

/** A block needs this many non-space characters to be part of a template (a "Next" link is not). */
export const minimumChars = 24;
/** The template's size cap: ~30 bytes each, so a stored template stays under ~40 KB. */
export const maximumFingerprints = 1200;
/** Above this share of the content's text, the template is not applied (the page is like the start page). */
export const maximumRemovedShare = 0.5;

/** The text of a subtree, folded as two 32-bit polynomial hashes over its words. */
interface Fold {
  hashA: number;
  hashB: number;
  /** baseA ** words and baseB ** words (mod 2^32), to append a fold after another. */
  powerA: number;
  powerB: number;
  words: number;
  chars: number;
  /** True when the subtree holds a heading, table or code (set only while applying). */
  isProtected: boolean;
}

const baseA = 0x01000193;
const baseB = 0x5bd1e995;
const emptyFold = (): Fold => ({ hashA: 0, hashB: 0, powerA: 1, powerB: 1, words: 0, chars: 0, isProtected: false });

/** `into` followed by `next`: the hash of the concatenated word sequences. */
function append(into: Fold, next: Fold): void {
  into.hashA = (Math.imul(into.hashA, next.powerA) + next.hashA) | 0;
  into.hashB = (Math.imul(into.hashB, next.powerB) + next.hashB) | 0;
  into.powerA = Math.imul(into.powerA, next.powerA);
  into.powerB = Math.imul(into.powerB, next.powerB);
  into.words += next.words;
  into.chars += next.chars;
  into.isProtected ||= next.isProtected;
}

/** A text node's words, case-folded, each hashed to one number (FNV-1a) and appended. */
function foldText(text: string): Fold {
  const fold = emptyFold();
  let word = 0x811c9dc5;
  let inWord = false;
  const endWord = () => {
    fold.hashA = (Math.imul(fold.hashA, baseA) + word) | 0;
    fold.hashB = (Math.imul(fold.hashB, baseB) + (word ^ 0x2f5a)) | 0;
    fold.powerA = Math.imul(fold.powerA, baseA);
    fold.powerB = Math.imul(fold.powerB, baseB);
    fold.words += 1;
    word = 0x811c9dc5;
    inWord = false;
  };
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    // Spaces, tabs, line ends and no-break spaces separate words.
    if (code <= 32 || code === 0xa0) {
      if (inWord) endWord();
      continue;
    }
    const lower = code >= 65 && code <= 90 ? code + 32 : code;
    word = Math.imul(word ^ lower, 0x01000193);
    inWord = true;
    fold.chars += 1;
  }
  if (inWord) endWord();
  return fold;
}

const fingerprintOf = (tag: string, fold: Fold): string => `${tag}:${fold.words}:${(fold.hashA >>> 0).toString(36)}.${(fold.hashB >>> 0).toString(36)}`;

/**
 * Visits every element of `root`'s subtree after its children (iteratively: a hostile page's depth
 * does not overflow the stack), with the fold of its text and `entry`: the element's descendants are
 * the visits numbered from `entry` up to its own. Linear in the subtree's size.
 */
function walkBlocks(root: ParentNode, visit: (element: Element, fold: Fold, entry: number) => void, protect: boolean): Fold {
  interface Frame {
    node: ParentNode;
    index: number;
    fold: Fold;
    /** How many elements had been visited when this one was entered: its descendants' ordinals start here. */
    entry: number;
  }
  const rootFold = emptyFold();
  const stack: Frame[] = [{ node: root, index: 0, fold: rootFold, entry: 0 }];
  let visited = 0;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const child: AnyNode | undefined = frame.node.children[frame.index];
    if (child === undefined) {
      stack.pop();
      const parent = stack[stack.length - 1];
      if (parent) {
        const element = frame.node as Element;
        if (protect && protectedTags.has(element.name)) frame.fold.isProtected = true;
        visit(element, frame.fold, frame.entry);
        visited += 1;
        append(parent.fold, frame.fold);
      }
      continue;
    }
    frame.index += 1;
    if (child.type === 'text') append(frame.fold, foldText(child.data));
    else if ((child.type === 'tag' || child.type === 'script' || child.type === 'style') && !skippedTags.has(child.name)) {
      stack.push({ node: child, index: 0, fold: emptyFold(), entry: visited });
    }
  }
  return rootFold;
}

/** The fingerprints of a page's blocks (its whole parsed document), deduplicated, in post-order. One walk. */
export function blockFingerprints(root: ParentNode): string[] {
  const fingerprints = new Set<string>();
  walkBlocks(
    root,
    (element, fold) => {
      if (blockTags.has(element.name) && fold.chars >= minimumChars) fingerprints.add(fingerprintOf(element.name, fold));
    },
    false,
  );
  return [...fingerprints];
}

/**
 * The template of a start page: its blocks (`blockFingerprints` of the whole page, read before the
 * extraction takes the tree) less the blocks of its own main content, `content`. What the start page
 * shows outside its content is chrome; what it shows inside is content that later pages may repeat
 * (an index's one-line summaries of the pages it lists) and must keep.
 */
export function siteTemplateOf(pageBlocks: readonly string[], content: ParentNode): SiteTemplate {
  const own = new Set(blockFingerprints(content));
  return { fingerprints: pageBlocks.filter((fingerprint) => !own.has(fingerprint)).slice(0, maximumFingerprints) };
}

export interface TemplateRemoval {
  /** The blocks taken out (detached, children kept), outermost only; empty when capped. */
  removed: Element[];
  /** Non-space characters in the removed blocks (or in the matches, when capped). */
  chars: number;
  /** True when the matches held more than `maximumRemovedShare` of the content's text, and nothing was removed. */
  isCapped: boolean;
}

/**
 * Removes from `root` (a page's chosen content) the blocks the site's template repeats, except
 * blocks holding a heading, table or code (a block holding one is searched inside instead). Does
 * nothing when the matches hold more than `maximumRemovedShare` of the content's text. One walk.
 */
export function applySiteTemplate(root: ParentNode, template: SiteTemplate): TemplateRemoval {
  if (template.fingerprints.length === 0) return { removed: [], chars: 0, isCapped: false };
  const known = new Set(template.fingerprints);
  /** The outermost matching blocks so far, with their visit ordinals (post-order). */
  const matches: { element: Element; chars: number; ordinal: number }[] = [];
  let ordinal = 0;
  const total = walkBlocks(
    root,
    (element, fold, entry) => {
      const current = ordinal;
      ordinal += 1;
      if (fold.isProtected || !blockTags.has(element.name) || fold.chars < minimumChars) return;
      if (!known.has(fingerprintOf(element.name, fold))) return;
      // Post-order: the matches inside this block are the last ones pushed; it replaces them.
      while (matches.length > 0 && matches[matches.length - 1]!.ordinal >= entry) matches.pop();
      matches.push({ element, chars: fold.chars, ordinal: current });
    },
    true,
  );
  const chars = matches.reduce((sum, match) => sum + match.chars, 0);
  if (chars > total.chars * maximumRemovedShare) return { removed: [], chars, isCapped: true };
  const removed = matches.map(({ element }) => element);
  detachAll(removed);
  return { removed, chars, isCapped: false };
}

/** Takes `elements` out of their parents, each parent's children filtered once (linear). */
function detachAll(elements: Element[]): void {
  const removed = new Set<AnyNode>(elements);
  const parents = new Set<ParentNode>();
  for (const element of elements) if (element.parent) parents.add(element.parent);
  for (const parent of parents) {
    parent.children = parent.children.filter((child) => !removed.has(child));
    parent.children.forEach((child, index) => {
      child.prev = parent.children[index - 1] ?? null;
      child.next = parent.children[index + 1] ?? null;
    });
  }
  for (const element of elements) element.parent = null;
}

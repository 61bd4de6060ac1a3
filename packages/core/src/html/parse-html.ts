import { parseBounded } from './bounded-parser.js';
import { hasChildren, type ChildNode, type Document, type ParentNode } from 'domhandler';

/**
 * Elements nested deeper than this are flattened into their ancestor at this depth, as browsers do
 * (Chromium's HTML parser stops nesting at 512). Broken pages with thousands of unclosed `<div>`s
 * would otherwise overflow the stack of every recursive walk (metadata, cleaning, markdown).
 */
export const maxTreeDepth = 512;

/** Parses HTML once into a domhandler tree; every format of a page is derived from this tree. */
export function parseHtml(html: string): Document {
  const { document, deepest } = parseBounded(html, { decodeEntities: true, lowerCaseAttributeNames: true, lowerCaseTags: true, withStartIndices: true });
  // The parser counts how deep elements nest, so a page that stays below the limit (every real
  // page) is not walked again for it.
  return deepest < maxTreeDepth ? document : limitDepth(document);
}

/** Flattens every subtree that starts at `maxDepth` (see `flatten`). */
export function limitDepth<T extends ParentNode>(root: T, maxDepth = maxTreeDepth): T {
  // Two parallel stacks, not an object per element with children: this walks every page.
  const nodes: ParentNode[] = [root];
  const depths: number[] = [0];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    for (const child of node.children) {
      if (!hasChildren(child) || child.children.length === 0) continue;
      if (depth + 1 >= maxDepth) flatten(child);
      else {
        nodes.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return root;
}

/**
 * Rebuilds a too-deep subtree as a list: elements whose own subtree is at most `keptHeight` deep
 * stay whole (a paragraph, a list item, a small table), deeper ones are unwrapped into their
 * children, in document order. Iterative: the point is not to recurse.
 */
function flatten(element: ParentNode, keptHeight = 32): void {
  const order: ChildNode[] = [];
  const walk = [...element.children];
  while (walk.length > 0) {
    const node = walk.pop()!;
    order.push(node);
    if (hasChildren(node)) for (const child of node.children) walk.push(child);
  }
  // Pre-order reversed: every node comes after its descendants, so their heights are known.
  const heights = new Map<ChildNode, number>();
  for (let index = order.length - 1; index >= 0; index--) {
    const node = order[index]!;
    let height = 0;
    if (hasChildren(node)) for (const child of node.children) height = Math.max(height, (heights.get(child) ?? 0) + 1);
    heights.set(node, height);
  }
  const flat: ChildNode[] = [];
  const pending = [...element.children].reverse();
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (!hasChildren(node) || heights.get(node)! <= keptHeight) flat.push(node);
    else for (let index = node.children.length - 1; index >= 0; index--) pending.push(node.children[index]!);
  }
  element.children = flat;
  flat.forEach((node, index) => {
    node.parent = element;
    node.prev = flat[index - 1] ?? null;
    node.next = flat[index + 1] ?? null;
  });
}

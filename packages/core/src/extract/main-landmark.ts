/**
 * The page's main landmark (`<main>` or `role="main"`) as a bound on the content root's climb: by
 * ARIA's definition what lies outside it is not the page's main content, so a root that holds the
 * landmark or sits inside it is lifted no higher than the landmark's side of the page. Without
 * it, a site footer in prose ("The Python Software Foundation is a non-profit corporation ...")
 * that only its class names as a footer reads as a continuation on a short page, and the root
 * climbs to `body`, bringing the footer along (python3.11's docs under opaque names).
 */
import { type Element, isTag } from 'domhandler';

/** True when `element` is a main landmark. */
export function isMainLandmark(element: Element): boolean {
  return element.name === 'main' || element.attribs.role === 'main';
}

/**
 * The highest element the root may be lifted to: the main landmark when `root` is inside one, `root`
 * itself when it holds exactly one (and no other holds the root), or `undefined` (no bound) when the
 * page's landmark is elsewhere or absent, or when `root` holds several.
 */
export function mainLandmarkBound(root: Element): Element | undefined {
  for (let node: Element | null = root; node && isTag(node); node = node.parent && isTag(node.parent) ? node.parent : null) {
    if (isMainLandmark(node)) return node;
  }
  let found = 0;
  const stack: Element[] = [root];
  while (stack.length > 0) {
    const current = stack.pop()!;
    for (const child of current.children) {
      if (!isTag(child)) continue;
      if (isMainLandmark(child)) {
        found++;
        if (found > 1) return undefined;
      } else stack.push(child);
    }
  }
  return found === 1 ? root : undefined;
}

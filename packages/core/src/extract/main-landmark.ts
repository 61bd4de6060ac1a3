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
  return soleLandmarkUnder(root) ? root : undefined;
}

/** The one main landmark under `root` (not looking inside it), or undefined when there are none or several. */
function soleLandmarkUnder(root: Element): Element | undefined {
  let landmark: Element | undefined;
  const stack: Element[] = [root];
  while (stack.length > 0) {
    const current = stack.pop()!;
    for (const child of current.children) {
      if (!isTag(child)) continue;
      if (isMainLandmark(child)) {
        if (landmark) return undefined;
        landmark = child;
      } else stack.push(child);
    }
  }
  return landmark;
}

/** The fallback keeps the main landmark when it holds at least this share of the page's text. */
const fallbackLandmarkShare = 0.5;

/**
 * What the fallback returns of a cleaned page: its one main landmark when the landmark holds most
 * of the page's text (a page that is one long list of links, a release-notes index, is "too
 * little" content, but the page itself says where that content is, and the columns beside it are
 * not); the whole page otherwise. `measure`: the weighted text of a subtree.
 */
export function fallbackContent(body: Element, measure: (root: Element) => number): Element {
  const landmark = soleLandmarkUnder(body);
  if (!landmark) return body;
  const total = measure(body);
  return total > 0 && measure(landmark) >= fallbackLandmarkShare * total ? landmark : body;
}

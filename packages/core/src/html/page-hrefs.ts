import { isTag, type ChildNode, type Document } from 'domhandler';

/** Elements whose `href` is a followable link (`<link>` is left out: see `extractLinks`). */
const linkElements = new Set(['a', 'area']);

/** The raw `href`s of a parsed page, as written: what link extraction and URL resolution start from. */
export interface PageHrefs {
  /** The `href` of every `<a>` and `<area>`, in document order, duplicates included. */
  links: string[];
  /** The `href` of the first `<base>` that has one, wherever it stands; undefined when none. */
  baseHref: string | undefined;
}

/**
 * One iterative walk over the whole tree for both the links and `<base href>`: the scrape needs
 * the base for every page and the links for most, and each used to walk the page on its own.
 */
export function pageHrefs(document: Document): PageHrefs {
  const links: string[] = [];
  let baseHref: string | undefined;
  const stack: ChildNode[] = [...document.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    const href = node.attribs.href;
    if (href !== undefined) {
      if (linkElements.has(node.name)) links.push(href);
      else if (node.name === 'base' && baseHref === undefined) baseHref = href;
    }
    const children = node.children;
    for (let index = children.length - 1; index >= 0; index--) stack.push(children[index]!);
  }
  return { links, baseHref };
}

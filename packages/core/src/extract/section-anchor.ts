/**
 * A heading that links to itself: documentation generators give each section heading a permalink,
 * a link inside the heading to the `#id` of the heading or of the section it opens (Sphinx's `¶`,
 * whatever its class). A closing box ("Subscribe to our newsletter!") is not a place a reader
 * links to; a heading with such a link opens one of the document's own sections.
 */
import { type Element, isTag } from 'domhandler';
import { descendantElements } from './dom-tools.js';

function targetOf(link: Element): string | undefined {
  const href = link.attribs.href;
  if (!href?.startsWith('#') || href.length < 2) return undefined;
  try {
    return decodeURIComponent(href.slice(1));
  } catch {
    return href.slice(1);
  }
}

/** True when `heading` holds a link to its own id or to the id of an ancestor up to `section`. */
export function linksToOwnSection(heading: Element, section: Element): boolean {
  const ids = new Set<string>();
  for (let node: Element | null = heading; node; node = node === section || !node.parent || !isTag(node.parent) ? null : node.parent) {
    if (node.attribs.id) ids.add(node.attribs.id);
  }
  if (ids.size === 0) return false;
  return descendantElements(heading, (element) => element.name === 'a').some((link) => {
    const target = targetOf(link);
    return target !== undefined && ids.has(target);
  });
}

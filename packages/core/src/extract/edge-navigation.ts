/**
 * A page's keyboard navigation at its edges. DocBook XSL writes a "navheader" and a "navfooter" at
 * the top and the bottom of every page, a table of Prev / Up / Home / Next links with the titles
 * of those pages (PostgreSQL's manual, Debian Reference, gtk-doc's `table.navigation` in glib, gio
 * and gobject), under no name chrome removal knows. Their links carry `accesskey`, the attribute
 * of a control's keyboard shortcut: a block that links only so is the site's controls, not what
 * the page says. The whole-page fallback keeps what chrome removal left; it leaves these out.
 */
import type { Element } from 'domhandler';
import { isTag } from 'domhandler';
import { descendantElements, detachAll, headingTags } from './dom-tools.js';

/** Tags a block of controls does not hold: the page's headings and paragraphs are its text. */
const textTags: ReadonlySet<string> = new Set([...headingTags, 'p']);

/**
 * True when `block` links, and every link in it has an access key, and it holds no heading and no
 * paragraph (the titles of the pages it links to stand in table cells).
 */
function isAccessKeyNavigation(block: Element): boolean {
  let links = 0;
  for (const element of [block, ...descendantElements(block)]) {
    if (textTags.has(element.name)) return false;
    if (element.name !== 'a' || element.attribs.href === undefined) continue;
    if (element.attribs.accesskey === undefined) return false;
    links++;
  }
  return links > 0;
}

/** A rule between blocks is not a block of the page's edge. */
const isEdgeBlock = (element: Element): boolean => element.name !== 'hr';

/**
 * Detaches the first and the last block of `page` (its element children but rules) when each is
 * keyboard navigation (`isAccessKeyNavigation`), never the page's only block. Reads the two blocks
 * only.
 */
export function removeEdgeNavigation(page: Element): void {
  const blocks = page.children.filter((child): child is Element => isTag(child) && isEdgeBlock(child));
  if (blocks.length < 2) return;
  const edges = new Set([blocks[0]!, blocks[blocks.length - 1]!]);
  detachAll([...edges].filter(isAccessKeyNavigation));
}

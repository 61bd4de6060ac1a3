/**
 * The author box under a post, found by HTML semantics instead of its class name: a heading that is
 * only a link marked `rel="author"` (the writer's name), with a short bio and icon links beside it.
 * It tells about the writer, not the article.
 */
import { type Element, isTag } from 'domhandler';
import { collapsedText, descendantElements, detach, headingTags } from './dom-tools.js';
import { type TextStats, discountStats } from './text-stats.js';

/** Most text (weighted characters) of an author box: a name and a bio of a few sentences. */
const authorBoxMaximum = 800;
/** Most paragraphs of an author box. */
const authorBoxParagraphs = 2;

/** A heading whose whole text is one link to the author (`rel="author"`). */
function isAuthorHeading(heading: Element): boolean {
  const links = descendantElements(heading, (element) => element.name === 'a');
  if (links.length !== 1) return false;
  const link = links[0]!;
  if (!/(?:^|\s)author(?:\s|$)/i.test(link.attribs.rel ?? '')) return false;
  const text = collapsedText(heading);
  return text !== '' && collapsedText(link) === text;
}

/** The largest block around `heading`, below `container`, that stays the size of an author box. */
function authorBox(heading: Element, stats: Map<Element, TextStats>, container: Element): Element | undefined {
  let box: Element | undefined;
  for (let element = heading.parent; element && element !== container && isTag(element); element = element.parent) {
    const nodeStats = stats.get(element);
    if (!nodeStats || nodeStats.text > authorBoxMaximum) break;
    if (descendantElements(element, (inner) => inner.name === 'p' || headingTags.has(inner.name)).length > authorBoxParagraphs + 1) break;
    box = element;
  }
  // The heading's own wrapper alone is no box: a bio must sit beside the name.
  return box && collapsedText(box) !== collapsedText(heading) ? box : undefined;
}

/** Removes author boxes: an author-link heading and the short bio around it. */
export function removeAuthorBoxes(container: Element, stats: Map<Element, TextStats>): void {
  for (const heading of descendantElements(container, (element) => headingTags.has(element.name) && element.name !== 'h1')) {
    if (!heading.parent || !isAuthorHeading(heading)) continue;
    const box = authorBox(heading, stats, container);
    if (!box) continue;
    discountStats(box, stats, container);
    detach(box);
  }
}

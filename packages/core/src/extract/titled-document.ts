/**
 * A root that is one section of a titled document is lifted to the document: the parent opens with
 * the title heading (its first element with text, of the root's heading level or higher), and
 * holds another block opened by a heading of the root's level, the section blocks holding most of
 * its text. Docutils' front end writes a page as `div.document > h1.title, h2.subtitle, table.docinfo,
 * p, div.contents, div.section > h1, div.section > h1`: with two sections, one long, the long one
 * outscored the rest, and only the `document` class had kept the title, the front matter and the
 * last section (docutils' enthought-rfp under opaque names).
 */
import { type Element, isTag } from 'domhandler';
import { hasCollapsedText, headingLevel } from './dom-tools.js';
import { sectionBlockLevel, sectionsHoldParent } from './section-blocks.js';

export function titledDocumentOf(root: Element): Element {
  const level = sectionBlockLevel(root);
  const parent = root.parent;
  if (level === 0 || !parent || !isTag(parent) || parent.name === 'body' || parent.name === 'html') return root;
  const first = parent.children.find((child): child is Element => isTag(child) && hasCollapsedText(child));
  const titleLevel = first ? headingLevel(first) : 0;
  if (titleLevel === 0 || titleLevel > level) return root;
  const hasPeer = parent.children.some((child) => child !== root && isTag(child) && sectionBlockLevel(child) === level);
  return hasPeer && sectionsHoldParent(parent, level) ? parent : root;
}

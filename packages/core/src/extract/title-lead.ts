/**
 * The lead between the title and the content: prose paragraphs after the title heading's own
 * block and before the content's first part, outside both (a standfirst in its own wrapper beside
 * the body's container, or in a header section with the title, a byline and a date). The root,
 * chosen by text density, stops short of them when the blocks around them are link-heavy; a site
 * whose class names say "lead" or "intro" brought them along by name, an unseen site's names do
 * not. By position and tag alone: a `p` read as prose (100+ characters, a sentence, few links),
 * not in a list, a link, a caption, a form or a navigation box, not a picture's description (a
 * small box with a picture), still on the page after chrome removal. A deck beside the title in
 * its own block stays with the title's block, as before (the title is copied alone).
 */
import type { Element, ParentNode } from 'domhandler';
import { isTag } from 'domhandler';
import { collapsedText, descendantElements } from './dom-tools.js';

/** A lead paragraph has at least this many characters (a byline or a date line has fewer)... */
const leadMinimumText = 100;
/** ...at most this share of them in links... */
const leadMaximumLinkShare = 0.25;
/** ...and at most this many are taken (a standfirst, not a second text). */
const leadMaximumParagraphs = 3;

/** Ancestors that make a paragraph something other than the text's lead. */
const notLeadAncestors: ReadonlySet<string> = new Set(['a', 'li', 'nav', 'aside', 'footer', 'form', 'figure', 'figcaption', 'blockquote', 'table', 'dialog']);

const sentenceEnd = /[.!?。！？:]["'”’»)]?$/;

function isLeadParagraph(paragraph: Element, body: ParentNode): boolean {
  let reachesBody = false;
  for (let node = paragraph.parent; node; node = node.parent) {
    if (node === body) {
      reachesBody = true;
      break;
    }
    if (isTag(node) && notLeadAncestors.has(node.name)) return false;
  }
  if (!reachesBody) return false;
  const text = collapsedText(paragraph);
  if (text.length < leadMinimumText || !sentenceEnd.test(text)) return false;
  const linkText = descendantElements(paragraph, (element) => element.name === 'a').reduce((sum, link) => sum + collapsedText(link).length, 0);
  return linkText <= leadMaximumLinkShare * text.length && !isCaption(paragraph, text.length);
}

/** Text a caption's box may hold besides the caption (a credit, a counter). */
const captionBoxSlack = 40;

/**
 * True when the paragraph is a picture's text: a box that holds little more than the paragraph
 * also holds a picture (a lead image's description, written as a `p` beside the `img`).
 */
function isCaption(paragraph: Element, length: number): boolean {
  for (let node = paragraph.parent; node && isTag(node); node = node.parent) {
    if (collapsedText(node).length > length + captionBoxSlack) return false;
    if (descendantElements(node, (element) => pictureTags.has(element.name)).length > 0) return true;
  }
  return false;
}

const pictureTags: ReadonlySet<string> = new Set(['img', 'picture', 'video', 'svg']);

/**
 * The lead paragraphs between the title at `titleIndex` and the content's first part at
 * `firstPartIndex` in `order` (the body's elements in document order before any removal; the
 * caller has found both), in order; empty when there are more than a lead holds.
 */
export function titleLead(order: Element[], titleIndex: number, firstPartIndex: number, body: ParentNode): Element[] {
  const title = order[titleIndex];
  if (!title || firstPartIndex <= titleIndex) return [];
  const lead: Element[] = [];
  for (let index = titleIndex + 1; index < firstPartIndex; index++) {
    const element = order[index]!;
    if (element.name !== 'p' || !isLeadParagraph(element, body)) continue;
    // The title's own block (a deck beside the heading) stays with the title's chrome, as before.
    if (element.parent === title.parent) continue;
    if (lead.length === leadMaximumParagraphs) return [];
    lead.push(element);
  }
  return lead;
}

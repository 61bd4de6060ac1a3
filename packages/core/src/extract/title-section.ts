/**
 * The section a page's title heading opens in its own container, outside the content: a manual
 * page's NAME, which asciidoc writes in `#header` beside the title (`<div id="header"><h1>git-mv(1)
 * Manual Page</h1><h2>NAME</h2><div class="sectionbody"><p>git-mv - Move or rename a file</p></div></div>`)
 * while every other section is in `#content`. When the title is put on top of the content, its
 * section comes along after it.
 */
import type { Element } from 'domhandler';
import { isTag } from 'domhandler';
import { collapsedText, descendantElements, hasCollapsedText, headingLevel, headingTags } from './dom-tools.js';

/** A section body with more of its text in links than this is a link row (share buttons), not prose. */
const maximumLinkShare = 0.5;

/**
 * The heading and body that follow `title` as the last two elements with text of its container,
 * when the heading is a level below the title's and the body is text with no heading of its own
 * and few links: the title's section. Empty otherwise (a header with a navbar or a byline).
 */
export function titleSection(title: Element): Element[] {
  const container = title.parent;
  if (!container || !isTag(container)) return [];
  const withText = container.children.filter((child): child is Element => isTag(child) && hasCollapsedText(child));
  if (withText.length !== 3 || withText[0] !== title) return [];
  const [, heading, body] = withText as [Element, Element, Element];
  if (!headingTags.has(heading.name) || headingLevel(heading) <= headingLevel(title)) return [];
  if (headingTags.has(body.name) || descendantElements(body, (element) => headingTags.has(element.name)).length > 0) return [];
  const text = collapsedText(body).length;
  const linkText = descendantElements(body, (element) => element.name === 'a').reduce((sum, link) => sum + collapsedText(link).length, 0);
  return linkText <= maximumLinkShare * text ? [heading, body] : [];
}

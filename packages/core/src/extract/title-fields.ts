/**
 * The fields of an item's header: lines before its title that each pair a label with one link
 * ("Module java.base", "Package java.util"), two or more side by side built alike. Javadoc writes
 * a class page's module and package so (`div.sub-title > span.module-label-in-type + a`); Doxygen
 * and gi-docgen print an item's namespace or library the same way. They are where the item lives,
 * read as part of its title, unlike a kicker (one label, no link or all link) or a breadcrumb (a
 * trail of links). The trim of the title's labels (`article-edges.ts`) keeps them.
 */
import { type Element, isTag, isText } from 'domhandler';
import { adjacentElement, headingTags } from './dom-tools.js';

/** A label is a word or two ("Module", "Package", "Namespace"). */
const labelMaximumLength = 24;

/** How many field lines an item's header holds at most before its title. */
const fieldsMaximum = 4;

/**
 * True when `element` is a label-and-link line with a sibling line built the same way beside it
 * (another label), the lines standing right before a heading.
 */
export function isTitleField(element: Element): boolean {
  const label = fieldLabel(element);
  if (label === undefined) return false;
  const isPeerField = (other: Element | undefined): boolean =>
    other !== undefined && other.name === element.name && other.attribs.class === element.attribs.class && (fieldLabel(other) ?? label) !== label;
  if (!isPeerField(adjacentElement(element, 'prev')) && !isPeerField(adjacentElement(element, 'next'))) return false;
  let next = adjacentElement(element, 'next');
  for (let read = 0; next && read < fieldsMaximum && fieldLabel(next) !== undefined; read++) next = adjacentElement(next, 'next');
  return next !== undefined && headingTags.has(next.name);
}

/**
 * The label of a line that is a label then one link and nothing else (the label loose text or a
 * phrasing element with no link, the link's text a name), or undefined.
 */
function fieldLabel(element: Element): string | undefined {
  let label = '';
  let link: Element | undefined;
  for (const child of element.children) {
    if (isText(child)) {
      const text = child.data.replace(/[\s\u00a0]+/g, ' ').trim();
      if (text === '') continue;
      if (link) return undefined;
      label = `${label} ${text}`;
    } else if (isTag(child)) {
      if (child.name === 'a') {
        if (link || label === '') return undefined;
        link = child;
      } else if (link || child.name !== 'span' || child.children.some((node) => !isText(node))) return undefined;
      else label = `${label} ${child.children.map((node) => (isText(node) ? node.data : '')).join('')}`;
    }
  }
  const text = label.replace(/[\s\u00a0]+/g, ' ').trim();
  return link && text !== '' && text.length <= labelMaximumLength ? text : undefined;
}

/**
 * True for an item's header: its title heading after title fields (`isTitleField`) and nothing
 * else (`div.header > div.sub-title, div.sub-title, h1`), judged as its title is.
 */
export function isFieldedTitleHeader(element: Element): boolean {
  let fields = 0;
  let heading: Element | undefined;
  for (const child of element.children) {
    if (isText(child)) {
      if (child.data.trim() !== '') return false;
      continue;
    }
    if (!isTag(child)) continue;
    if (heading || fields > fieldsMaximum) return false;
    if (headingTags.has(child.name)) heading = child;
    else if (isTitleField(child)) fields++;
    else return false;
  }
  return heading !== undefined && fields >= 2;
}

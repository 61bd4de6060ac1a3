/**
 * Structure-preserving cleanup inside the chosen content: drops chrome that lives inside articles
 * (share rows, "Edit this page", pagers, "Related" and "Comments" sections, link lists, empty
 * wrappers) and keeps tables, code blocks, lists of prose, headings, figures and quotes.
 */
import { type Element, isTag, isText } from 'domhandler';
import { findAll } from 'domutils';
import { chromeSectionHeadingPattern, chromeTextPatterns, dateLineWords } from './boilerplate-patterns.js';
import { hintWeight } from './content-scoring.js';
import { collapsedText, descendantElements, detach, headingTags, inlineTags, isWithin } from './dom-tools.js';
import { type TextStats, addStats, linkDensity, measureText } from './text-stats.js';

export interface CleanupOptions {
  /** Judge containers by class/id hints too (off in the relaxed retry). */
  useClassHints: boolean;
}

/** Blocks longer than this (weighted characters) are never matched against chrome texts. */
const chromeTextMaximum = 200;

/** Containers judged by the link-density and size rules. */
const conditionalTags: ReadonlySet<string> = new Set([
  'div', 'section', 'article', 'aside', 'header', 'footer', 'form', 'fieldset', 'ul', 'ol', 'dl', 'table', 'nav',
]);
const listTags: ReadonlySet<string> = new Set(['ul', 'ol', 'dl']);
/** Elements that make a container worth keeping even without text. */
const mediaTags: ReadonlySet<string> = new Set(['img', 'picture', 'figure', 'table', 'pre', 'iframe', 'video', 'math']);

function headingLevel(element: Element): number {
  return headingTags.has(element.name) ? Number(element.name[1]) : 0;
}

/** True when a block's text is only a date (and time), as in a dateline or "Last updated" line. */
export function isDateLine(text: string): boolean {
  if (text.length > 80 || !/\d/.test(text)) return false;
  const words = text.toLowerCase().split(/[\s,.:/|()\-–—]+/).filter((word) => word !== '');
  return words.length > 0 && words.every((word) => /^\d+(?:st|nd|rd|th|h)?$/.test(word) || dateLineWords.has(word));
}

/** True for the whole text of a block that is chrome: a chrome phrase or a bare date. */
export function isChromeText(text: string): boolean {
  return chromeTextPatterns.some((pattern) => pattern.test(text)) || isDateLine(text);
}

/** True when an inline element sits beside loose text (part of a sentence, not of a meta row). */
function isInSentence(element: Element): boolean {
  return element.parent?.children.some((child) => isText(child) && child.data.trim() !== '') ?? false;
}

/** Removes the blocks whose whole text is a chrome phrase ("Edit this page", "Share", ...). */
function removeChromeTexts(container: Element, stats: Map<Element, TextStats>): void {
  const stack = container.children.filter(isTag);
  while (stack.length > 0) {
    const element = stack.pop()!;
    if (inlineTags.has(element.name) && isInSentence(element)) continue; // a date link in a sentence stays
    const elementStats = stats.get(element);
    if (elementStats && elementStats.text > 0 && elementStats.text <= chromeTextMaximum) {
      const text = collapsedText(element);
      if (isChromeText(text)) {
        detach(element);
        continue;
      }
    }
    for (const child of element.children) if (isTag(child)) stack.push(child);
  }
}

function hasVisibleContent(element: Element): boolean {
  return collapsedText(element) !== '' || descendantElements(element).some((child) => mediaTags.has(child.name));
}

/** Drops "Related", "Comments", "Share this" sections: the heading and what follows it. */
function removeChromeSections(container: Element): void {
  const headings = descendantElements(container).filter((element) => headingLevel(element) >= 2);
  for (const heading of headings) {
    if (!heading.parent || !chromeSectionHeadingPattern.test(collapsedText(heading))) continue;
    const level = headingLevel(heading);
    let start: Element = heading;
    while (start.parent && isTag(start.parent) && start.parent !== container) {
      const visible = start.parent.children.filter((child) =>
        isTag(child) ? hasVisibleContent(child) : isText(child) && child.data.trim() !== '',
      );
      if (visible.length !== 1) break;
      start = start.parent;
    }
    const doomed: Element[] = [start];
    for (let node = start.next; node; node = node.next) {
      if (!isTag(node)) continue;
      const nested = headingLevel(node) || Math.min(...descendantElements(node).map(headingLevel).filter((value) => value > 0), 99);
      if (nested !== 99 && nested > 0 && nested <= level) break;
      doomed.push(node);
    }
    doomed.forEach(detach);
  }
}

function isFragmentList(list: Element): boolean {
  const links = descendantElements(list).filter((element) => element.name === 'a');
  if (links.length < 3) return false;
  return links.filter((link) => link.attribs.href?.startsWith('#')).length / links.length >= 0.8;
}

/** The link-density and size rules for one container; true when it should go. */
function isClutter(element: Element, elementStats: TextStats, options: CleanupOptions): boolean {
  const density = linkDensity(elementStats);
  const weight = options.useClassHints ? hintWeight(element) : 0;
  const media = descendantElements(element).some((child) => mediaTags.has(child.name));
  if (elementStats.text === 0) return !media;
  if (listTags.has(element.name)) {
    if (isFragmentList(element)) return true;
    return density > 0.6 || (weight < 0 && density > 0.3);
  }
  if (elementStats.commas >= 10 && density < 0.5) return false;
  if (density > 0.5) return true;
  if (weight < 0 && density > 0.25) return true;
  if (element.name === 'table') return false;
  if ((element.name === 'footer' || element.name === 'aside' || element.name === 'nav') && (density > 0.3 || elementStats.text < 100)) return true;
  return false;
}

/** Subtracts a removed element's stats from its ancestors up to the container. */
function discount(element: Element, stats: Map<Element, TextStats>, container: Element): void {
  const removed = stats.get(element);
  if (!removed) return;
  for (let node = element.parent; node && isTag(node); node = node.parent) {
    const ancestor = stats.get(node);
    if (ancestor) addStats(ancestor, removed, -1);
    if (node === container) break;
  }
}

function removeClutter(container: Element, options: CleanupOptions): void {
  const stats = measureText(container);
  const elements = descendantElements(container).reverse(); // children before parents
  for (const element of elements) {
    if (!conditionalTags.has(element.name) || !element.parent || !isWithin(element, container)) continue;
    const elementStats = stats.get(element);
    if (elementStats && isClutter(element, elementStats, options)) {
      discount(element, stats, container);
      detach(element);
    }
  }
}

/** Blocks that can form a run of stand-alone links ("Read next" lists written as paragraphs). */
const linkRunTags: ReadonlySet<string> = new Set(['p', 'div', 'h2', 'h3', 'h4', 'h5', 'h6', 'section']);
/** A block is a stand-alone link when at least this share of its text is link text. */
const linkOnlyDensity = 0.9;

/** Longer blocks are never judged as stand-alone links (a paragraph inside a broken `<a>`). */
const linkOnlyMaximum = 600;

/**
 * Removes stand-alone link blocks that come in twos or more: a run of sibling blocks that are each
 * just a link, or one block holding several links and nothing else ("Read next" lists written as
 * paragraphs).
 */
function removeLinkRuns(container: Element): void {
  const stats = measureText(container);
  const isLinkOnly = (element: Element): boolean => {
    const elementStats = stats.get(element);
    if (!linkRunTags.has(element.name) || !elementStats || elementStats.text === 0) return false;
    return elementStats.text <= linkOnlyMaximum && linkDensity(elementStats) >= linkOnlyDensity;
  };
  const linkCount = (element: Element): number => findAll((child) => child.name === 'a', element.children).length;
  for (const parent of [container, ...descendantElements(container)]) {
    let run: Element[] = [];
    const flush = (): void => {
      if (run.length >= 2 || (run.length === 1 && linkCount(run[0]!) >= 2)) run.forEach(detach);
      run = [];
    };
    for (const child of [...parent.children]) {
      if (isText(child) && child.data.trim() === '') continue;
      if (isTag(child) && isLinkOnly(child)) run.push(child);
      else flush();
    }
    flush();
  }
}

function hasOwnText(element: Element): boolean {
  return element.children.some((child) => isText(child) && child.data.trim() !== '');
}

/** Headings left with nothing under them (their section was chrome) go too; the h1 stays. */
function removeOrphanHeadings(container: Element): void {
  const items: { element: Element; level: number }[] = [];
  for (const element of descendantElements(container)) {
    const level = headingLevel(element);
    if (level > 0) items.push({ element, level });
    else if (mediaTags.has(element.name) || (hasOwnText(element) && !insideHeading(element, container))) {
      items.push({ element, level: 0 });
    }
  }
  items.forEach((item, index) => {
    if (item.level < 2) return;
    for (const next of items.slice(index + 1)) {
      if (next.level === 0) return;
      if (next.level <= item.level) break;
    }
    detach(item.element);
  });
}

function insideHeading(element: Element, container: Element): boolean {
  for (let node = element.parent; node && node !== container && isTag(node); node = node.parent) {
    if (headingTags.has(node.name)) return true;
  }
  return false;
}

/** Cleans `container` in place. */
export function cleanContent(container: Element, options: CleanupOptions): void {
  removeChromeTexts(container, measureText(container));
  removeChromeSections(container);
  removeClutter(container, options);
  removeLinkRuns(container);
  removeOrphanHeadings(container);
}

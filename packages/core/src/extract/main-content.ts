/**
 * `extractMainContent`: the `onlyMainContent` step of a scrape. Given the parsed page, it returns a
 * new Document holding only the page's main content.
 *
 * ```
 * clone -> strip non-content (scripts, hidden) -> find the title h1 and the content anchors
 *   -> remove chrome (tags, roles, class/id names; anchors and the title protected)
 *   -> score blocks, choose and expand the content root -> join continuing siblings
 *   -> trim the article's edges (link lists before the title, teasers and addresses after the text)
 *   -> clean inside (chrome phrases, chrome sections, link lists)
 *   -> put the page's declared summary (standfirst) and the title h1 on top
 *   -> drop a repeat of that title before the text (repeated-title.ts)
 *   -> too little text? retry without class/id names; still too little? whole page, cleaned
 *      (without the keyboard navigation at its edges)
 * ```
 */
import type { AnyNode, Document, Element, ParentNode } from 'domhandler';
import { isTag } from 'domhandler';
import { append, prependChild } from 'domutils';
import { trimArticleEdges } from './article-edges.js';
import { removeAuthorBoxes } from './author-box.js';
import { articleBodyHintPattern, contentItemprops } from './boilerplate-patterns.js';
import { type ChromeVerdict, chromeVerdict, removeChrome } from './chrome-removal.js';
import { type CleanupOptions, cleanContent } from './content-cleanup.js';
import { scoreContent } from './content-scoring.js';
import {
  cloneTree,
  collapsedText,
  descendantElements,
  detachAll,
  documentOf,
  elementOf,
  firstElement,
  forgetHintNames,
  headingTags,
  hintText,
  isWithin,
  pruneTree,
  remainingElements,
} from './dom-tools.js';
import { removeEdgeNavigation } from './edge-navigation.js';
import { fallbackContent, isMainLandmark } from './main-landmark.js';
import { isNonContent } from './page-preparation.js';
import { styleHiddenElements } from './page-styles.js';
import { wrapLineCode } from '../html/line-code.js';
import { declaredSummaries, findSummaryBlock } from './page-summary.js';
import { opensContent, restoreOpeningTitle } from './opening-title.js';
import { declaredTitles, findTitleHeading, opensWithOwnTitle } from './page-title.js';
import { includeSiblings } from './sibling-inclusion.js';
import { pageTitleBelowSiteName } from './site-name-title.js';
import { preferSoleArticle, soleArticleOf, trimAfterSoleArticle } from './sole-article.js';
import { dropRepeatedTitle } from './repeated-title.js';
import { titleLead } from './title-lead.js';
import { titleSection } from './title-section.js';
import { type TextStats, measureProse, measureText, measureTotalText } from './text-stats.js';

export interface MainContentResult {
  /**
   * A new domhandler Document holding only the main content (the input tree is not mutated). Its
   * elements share their `attribs` objects with the input's: to change an attribute, replace the
   * object (as `resolveUrls` does) rather than writing into it.
   */
  document: Document;
  /** True when the extractor found too little and returned (a cleaned copy of) the whole page instead. */
  isFallback: boolean;
}

export interface MainContentOptions {
  /** The page's URL. Accepted for callers that have it; the extractor does not need it today. */
  url?: string;
}

/** Below this many weighted characters an extraction is retried without class/id names. */
const retryBelow = 500;
/** Below this many weighted characters of content the whole page is returned instead. */
const fallbackBelow = 200;
/** Content shorter than this... */
const smallContent = 1000;
/** ...holding less than this share of the page's prose missed the page's obvious text. */
const smallContentProseShare = 0.2;
/** An anchor must hold at least this many weighted characters to protect its ancestors. */
const anchorMinimumText = 200;

interface Extraction {
  /** The content, or undefined when no block scored. */
  content: Element | undefined;
  /** Weighted characters of text in the content. */
  text: number;
  /** Weighted characters of text in the content as chosen, before its edges were trimmed and its inside cleaned. */
  foundText: number;
  /** Prose in the content and in the whole page after chrome removal. */
  contentProse: number;
  pageProse: number;
  /**
   * False when no class/id name changed a decision of the pass (a chrome removal, a clutter
   * verdict): the relaxed retry would then repeat it exactly, and is skipped.
   */
  hintsMattered: boolean;
  /** The pass's chrome removal, for the whole-page fallback to repeat (see `ChromeRemoval`). */
  chrome: ChromeRemoval;
}

/**
 * What a pass's chrome removal took from the body: the whole-page fallback takes the same from the
 * page parsed again, by position, instead of measuring and judging the page again. `replayable`
 * is false when protecting the title heading may have kept an element the fallback, which has no
 * title to protect, removes: an ancestor of the title only (not of an anchor) with a chrome verdict.
 */
interface ChromeRemoval {
  /** The body's elements in document order before the removal. */
  elements: Element[];
  removed: [Element, ChromeVerdict][];
  replayable: boolean;
}

// Predicates as module functions, not arrows made per call (see `holdsCode` in content-cleanup.ts).
const isBody = (element: Element): boolean => element.name === 'body';
const isArticle = (element: Element): boolean => element.name === 'article';
const isH1 = (element: Element): boolean => element.name === 'h1';

const isHtml = (element: Element): boolean => element.name === 'html';

function bodyOf(document: ParentNode): ParentNode {
  return firstElement(document, isBody) ?? document;
}

/**
 * A pass's working body as an element. A page with no `body` element (an HTML fragment, a docs
 * site's partial such as Go's `go_spec.html`: headings and paragraphs at the top level) gets one
 * around its nodes, as a browser's parser makes: the rules that stop at the body, or treat its
 * children as the page's blocks, then see the page as a page. Without it the whole specification
 * (240 KB) came out as one of its lists (2.5 KB).
 */
function asBodyElement(body: ParentNode): ParentNode {
  if (isTag(body)) return body;
  const html = body.children.find((node): node is Element => isTag(node) && isHtml(node));
  return elementOf('body', [...(html ?? body).children]);
}

/**
 * Elements that say "the content is here": `main`, `role=main`, an article-body itemprop or class,
 * the page's only `article`. They and their ancestors survive chrome removal.
 */
function contentAnchors(elements: Element[], stats: Map<Element, TextStats>): Element[] {
  const articleCount = elements.filter(isArticle).length;
  const anchors: Element[] = [];
  for (const element of elements) if (isContentAnchor(element, stats, articleCount)) anchors.push(element);
  return anchors;
}

function isContentAnchor(element: Element, stats: Map<Element, TextStats>, articleCount: number): boolean {
  // Most elements carry nothing that could make them an anchor: no text lookup for them.
  const { attribs } = element;
  if (element.name !== 'main' && element.name !== 'article' && !attribs.role && !attribs.itemprop && !attribs.class && !attribs.id) return false;
  if ((stats.get(element)?.text ?? 0) < anchorMinimumText) return false;
  if (element.name === 'main' || element.attribs.role === 'main') return true;
  if (element.name === 'article' && articleCount === 1) return true;
  const itemprop = element.attribs.itemprop?.toLowerCase();
  if (itemprop && contentItemprops.has(itemprop)) return true;
  const hints = hintText(element);
  return hints !== '' && articleBodyHintPattern.test(hints);
}

/** The anchors and all their ancestors. */
function withAncestors(anchors: Element[]): Set<Element> {
  const result = new Set<Element>();
  for (const anchor of anchors) {
    for (let node: ParentNode | null = anchor; node && isTag(node); node = node.parent) result.add(node);
  }
  return result;
}

/** Sum of a per-element measure over the root's child elements. */
function totalOf(root: ParentNode, measure: Map<Element, number>): number {
  let sum = 0;
  for (const child of root.children) sum += isTag(child) ? (measure.get(child) ?? 0) : 0;
  return sum;
}

/**
 * A working copy of the page body, stripped of non-content and chrome. The copy leaves the
 * non-content out rather than copying and detaching it, and one list of the body's elements serves
 * the document order, the anchors and the prose measure. The text stats come back kept up to date
 * by the chrome removal (the same as measuring the body again).
 */
function cleanedBody(source: PageSource, useClassHints: boolean, title?: (body: ParentNode, elements: Element[]) => Element | undefined) {
  return cleanBody(copyBody(source), useClassHints, title);
}

/** `cleanedBody` on a body already copied (or taken) from the page. */
function cleanBody(body: ParentNode, useClassHints: boolean, title?: (body: ParentNode, elements: Element[]) => Element | undefined) {
  const elements = descendantElements(body);
  const heading = title?.(body, elements);
  const stats = measureText(body);
  const prose = measureProse(body, stats, elements);
  const anchors = contentAnchors(elements, stats);
  const anchorPaths = withAncestors(anchors);
  const replayable = !heading || !guardsChrome(heading, anchorPaths, useClassHints);
  const removed = removeChrome(body, {
    useClassHints,
    protectedElements: heading ? withAncestors([...anchors, heading]) : anchorPaths,
    stats,
    prose,
    totalProse: totalOf(body, prose),
    mainLandmark: soleMainLandmark(elements),
  });
  // The elements left after chrome removal, for the scoring: the list without what it detached.
  const remaining = remainingElements(
    elements,
    removed.map(([element]) => element),
  );
  const chrome: ChromeRemoval = { elements, removed, replayable };
  return { body, heading, elements, remaining, stats, hintsMattered: removed.some(isByName), chrome };
}

/** The page's main landmark when it has exactly one. */
function soleMainLandmark(elements: Element[]): Element | undefined {
  let landmark: Element | undefined;
  for (const element of elements) {
    if (!isMainLandmark(element)) continue;
    if (landmark) return undefined;
    landmark = element;
  }
  return landmark;
}

/**
 * True when the title heading's protection may keep chrome: it or an ancestor, not on the path to
 * an anchor, has a chrome verdict (spared or not: the sparing reads stats that change as the walk goes).
 */
function guardsChrome(heading: Element, anchorPaths: ReadonlySet<Element>, useClassHints: boolean): boolean {
  for (let node: ParentNode | null = heading; node && isTag(node) && !anchorPaths.has(node); node = node.parent) {
    if (chromeVerdict(node, useClassHints)) return true;
  }
  return false;
}

/** Where the removed elements stood in the body's element list: all the fallback keeps of the record. */
interface RemovedPositions {
  elementCount: number;
  positions: number[];
}

/**
 * The positions of the first pass's removals (undefined when they cannot be repeated). The record's
 * lists are emptied: the first pass's tree need not stay live while the page is parsed again.
 */
function takeRemovedPositions(chrome: ChromeRemoval): RemovedPositions | undefined {
  const { elements, removed, replayable } = chrome;
  let result: RemovedPositions | undefined;
  if (replayable) {
    const gone = new Set<Element>();
    // A table of contents that may be the page stays in it (see `isPageContents`).
    for (const [element, verdict] of removed) if (!verdict.isPageContents) gone.add(element);
    const positions: number[] = [];
    for (let index = 0; index < elements.length; index++) if (gone.has(elements[index]!)) positions.push(index);
    result = { elementCount: elements.length, positions };
  }
  chrome.elements = [];
  chrome.removed = [];
  return result;
}

/**
 * The page's body cleaned as `cleanedBody(source, true)` cleans it (no title to protect): with
 * the first pass's removals repeated by position when they can be (the page parsed again has the
 * same elements in the same order), without measuring and judging the page again. `title`: the
 * title heading when a removal judged again took it with the chrome around it (a Javadoc module
 * page's `h1` in its `div.header`, when the page fell back because its grids of linked names read
 * as a block of links: issue 13), for the fallback to put back on top.
 */
function cleanedBodyAgain(source: PageSource, removed: RemovedPositions | undefined, titles: string[]): { body: ParentNode; title?: Element } {
  const body = copyBody(source);
  if (removed) {
    const elements = descendantElements(body);
    if (elements.length === removed.elementCount) {
      detachAll(removed.positions.map((position) => elements[position]!));
      return { body };
    }
  }
  let title: Element | undefined;
  cleanBody(body, true, (root, elements) => {
    title = soleTitleHeading(findTitleHeading(root, titles, elements), elements);
    return undefined;
  });
  return { body, title: title && !isWithin(title, body) ? title : undefined };
}

/**
 * The title heading when no other `h1` says the same: a page that writes its title twice (Erlang's
 * top bar over its reference page's own `h1`) keeps the one its chrome removal leaves.
 */
function soleTitleHeading(heading: Element | undefined, elements: Element[]): Element | undefined {
  if (!heading) return undefined;
  const text = collapsedText(heading);
  return elements.some((element) => element !== heading && isH1(element) && collapsedText(element) === text) ? undefined : heading;
}

/** A removal by class/id names (`chromeVerdict`'s class rules), which the relaxed retry does not make. */
function isByName([, verdict]: [Element, ChromeVerdict]): boolean {
  return verdict.rule.startsWith('class:') || verdict.rule.startsWith('weak:');
}

/**
 * Puts (a copy of) the title heading on top when it came before the content and is not in it,
 * with the section it opens in its own container (a manual page's NAME: `title-section.ts`).
 * `order`: the body's elements in document order before any removal (two `indexOf`s here cost
 * less than a map of every element's position built on every pass). Not when the content opens
 * with a title of its own and the heading names another part of the declared `titles` (the
 * site's name: `opensWithOwnTitle`). True when it attached it.
 */
function attachTitle(container: Element, firstPart: Element, title: Element | undefined, order: Element[], body: ParentNode, titles: string[]): boolean {
  if (!title || isWithin(title, container)) return false;
  if (firstElement(container, isH1)) return false;
  if (opensWithOwnTitle(container, title, titles)) return false;
  const titleIndex = order.indexOf(title);
  const firstPartIndex = order.indexOf(firstPart);
  if ((titleIndex < 0 ? Infinity : titleIndex) >= (firstPartIndex < 0 ? -1 : firstPartIndex)) return false;
  const lead = titleLead(order, titleIndex, firstPartIndex, body);
  // The content's text only when there is a lead to look for in it (most pages have none).
  const content = lead.length > 0 ? collapsedText(container) : '';
  for (const paragraph of lead.reverse()) {
    if (!content.includes(collapsedText(paragraph))) prependChild(container, cloneTree(paragraph));
  }
  for (const part of [...titleSection(title)].reverse()) if (!isWithin(part, container)) prependChild(container, cloneTree(part));
  prependChild(container, cloneTree(title));
  return true;
}

/**
 * Puts (a copy of) the article's declared summary (`page-summary.ts`) under the title when the
 * content does not hold it and it came before the content or inside it (chrome removal took it:
 * a `header`, a `teaser` class): after the title when the content holds the title, else on top
 * (the title then goes above it). `ancestors`: the summary's ancestors before chrome removal.
 * True when it attached it.
 */
function attachSummary(
  container: Element,
  parts: Element[],
  summary: Element | undefined,
  ancestors: Element[],
  title: Element | undefined,
  order: Element[],
): boolean {
  if (!summary || isWithin(summary, container)) return false;
  const summaryIndex = order.indexOf(summary);
  if (summaryIndex < 0) return false;
  const isBefore = summaryIndex < order.indexOf(parts[0]!);
  if (!isBefore && !parts.some((part) => ancestors.includes(part))) return false;
  if (collapsedText(container).includes(collapsedText(summary))) return false;
  const copy = cloneTree(summary);
  if (title && isWithin(title, container)) append(title, copy);
  else prependChild(container, copy);
  return true;
}

function extractOnce(source: PageSource, titles: string[], summaries: string[], useClassHints: boolean): Extraction {
  // The summary block is found before chrome removal, which may take it (a `teaser` class).
  let summary: Element | undefined;
  const summaryAncestors: Element[] = [];
  let isTitleBlock = false;
  const { body, heading, elements, remaining, stats, hintsMattered, chrome } = cleanedBody(source, useClassHints, (root, elements) => {
    summary = findSummaryBlock(root, summaries);
    for (let node = summary?.parent; node && isTag(node); node = node.parent) summaryAncestors.push(node);
    const title = pageTitleBelowSiteName(findTitleHeading(root, titles, elements), titles, elements);
    // A title block (Doxygen's `div.title`) is the page's heading, and is made one before the
    // rules read the page: no class name removes it, and it is written as a heading.
    if (title && !headingTags.has(title.name)) {
      title.name = 'h1';
      isTitleBlock = true;
    }
    return title;
  });
  const { scores, prose, root: scoredRoot, tail } = scoreContent(body, stats, remaining);
  const pageProse = totalOf(body, prose);
  const article = soleArticleOf(remaining);
  const root = scoredRoot && preferSoleArticle(scoredRoot, article, stats, prose);
  if (!root) return { content: undefined, text: 0, foundText: 0, contentProse: 0, pageProse, hintsMattered, chrome };
  const parts = includeSiblings(root, scores, stats, collapsedText);
  const contentProse = parts.reduce((sum, part) => sum + (prose.get(part) ?? 0), 0);
  const foundText = parts.reduce((sum, part) => sum + (stats.get(part)?.text ?? 0), 0);
  const container = parts.length === 1 ? parts[0]! : elementOf('div', parts);
  // The body's stats are what measuring the container gives when it is one element of the body,
  // not inside a link (text under a link counts as link text), and the trim removed nothing.
  const isTailCut = cutTail(container, tail);
  const isCut = trimAfterSoleArticle(container, article, prose) || isTailCut;
  // Before the edge trim, whose author-box rule takes the name's heading and leaves the bio.
  removeAuthorBoxes(container, stats);
  // The edges are read against a title heading: a title block's next lines are not a byline
  // (Doxygen's `#include <SDL_locale.h>` under its `div.title`).
  const titleHeading = isTitleBlock ? undefined : heading;
  const isTrimmed = trimArticleEdges(container, titleHeading, stats) || isCut;
  const isMeasured = parts.length === 1 && !isTrimmed && !hasLinkAncestor(container);
  const cleanup: CleanupOptions = isMeasured ? { useClassHints, stats } : { useClassHints };
  // The title heading at the content's start, which the cleanup may take with its header block.
  const isTitleOpening = heading !== undefined && isWithin(heading, container) && opensContent(container, heading);
  cleanContent(container, cleanup);
  const isTitleRestored = restoreOpeningTitle(container, heading, isTitleOpening);
  // The parts as chosen: a container of several parts holds `parts` itself as its child list.
  const chosenParts = [...parts];
  const isSummaryAttached = attachSummary(container, chosenParts, summary, summaryAncestors, heading, elements);
  const isTitleAttached = attachTitle(container, chosenParts[0]!, heading, elements, body, titles);
  const isRepeatDropped = dropRepeatedTitle(container);
  // The content's text from the body's stats when the cleanup kept them and nothing was added or taken since.
  const keptText =
    cleanup.isStatsKept && !isSummaryAttached && !isTitleAttached && !isTitleRestored && !isRepeatDropped ? stats.get(container)?.text : undefined;
  const text = keptText ?? measureTotalText(container);
  return { content: container, text, foundText, contentProse, pageProse, hintsMattered: hintsMattered || cleanup.hintsMattered === true, chrome };
}

/** Detaches the blocks of `tail` that `container` holds; true when it detached any. */
function cutTail(container: Element, tail: Element[]): boolean {
  const held = tail.filter((element) => element !== container && isWithin(element, container));
  detachAll(held);
  return held.length > 0;
}

function hasLinkAncestor(element: Element): boolean {
  for (let node = element.parent; node && isTag(node); node = node.parent) if (node.name === 'a') return true;
  return false;
}

/** True when the content is too small to stand for the page (see the thresholds above). */
function isTooLittle(extraction: Extraction): boolean {
  if (!extraction.content || extraction.text < fallbackBelow) return true;
  return extraction.text < smallContent && extraction.contentProse < smallContentProseShare * extraction.pageProse;
}

/** Returns a new Document with the page's main content; see the module comment for the steps. */
export function extractMainContent(document: Document, _options: MainContentOptions = {}): MainContentResult {
  return extractMainContentOf({ document });
}

/**
 * The page an extraction reads. A pass changes the tree it works on, so each pass works on a copy
 * of the page's body and the page is kept for the next pass (the retry without class names, the
 * fallback). With `reload`, the first pass works on the page itself, with nothing copied, and a
 * second pass gets it parsed again from `reload`: a large page's tree (nodejs-doc's `all.html`,
 * 5.8 M characters: 58 MB of tree, 45 MB more for its copy) is then not live twice at the peak of
 * its conversion (issue 14, sixth pass). `document` must be the caller's only reference to it.
 */
export interface PageSource {
  document?: Document;
  reload?: () => Document;
}

/**
 * The page's body a pass works on, without its non-content: a copy, or with `reload` the page
 * itself, taken out of `source` (a second pass gets it parsed again). Code written one division per
 * line is put in a `pre` first (`wrapLineCode`), so the cleanup keeps its blank lines as code.
 */
function copyBody(source: PageSource): ParentNode {
  const page = sourceDocument(source);
  const drop = nonContentOf(page);
  if (source.reload) {
    const body = bodyOf(page);
    source.document = undefined;
    pruneTree(body, drop);
    wrapLineCode(body);
    return asBodyElement(body);
  }
  const body = bodyOf(cloneTree(page, { within: bodyOf(page), drop }));
  wrapLineCode(body);
  return asBodyElement(body);
}

/**
 * What a pass leaves out of the page's body: non-content (`isNonContent`), and the elements the
 * page's own `<style>` rules hide (`styleHiddenElements`: a privacy dialog or a cookie banner the
 * page shows only on a click).
 */
function nonContentOf(page: Document): (node: AnyNode) => boolean {
  const hidden = styleHiddenElements(page, bodyOf(page));
  return hidden === undefined ? isNonContent : (node) => isNonContent(node) || hidden.has(node as Element);
}

function sourceDocument(source: PageSource): Document {
  source.document ??= source.reload!();
  return source.document;
}

/** `extractMainContent` on a page the caller hands over (see `PageSource`). */
export function extractMainContentOf(source: PageSource): MainContentResult {
  try {
    return extractFrom(source);
  } finally {
    forgetHintNames();
  }
}

function extractFrom(source: PageSource): MainContentResult {
  const titles = declaredTitles(sourceDocument(source));
  const summaries = declaredSummaries(sourceDocument(source));
  let best = extractOnce(source, titles, summaries, true);
  // The first pass judged chrome with class names, as the fallback does.
  const firstChrome = best.chrome;
  let relaxedChrome: ChromeRemoval | undefined;
  // The retry is for class names that removed the content: a short article whose teasers or
  // comments the structural trimming took off was found, and is not retried.
  // Nor when no name changed a decision of the first pass: the retry would find the same.
  if (best.foundText < retryBelow && best.hintsMattered) {
    const relaxed = extractOnce(source, titles, summaries, false);
    relaxedChrome = relaxed.chrome;
    // Only when ignoring class names finds clearly more: a few extra words are usually the chrome
    // (a cookie banner) that the class names rightly removed.
    if (relaxed.text > Math.max(best.text * 1.5, best.text + 200)) best = relaxed;
  }
  if (best.content && !isTooLittle(best)) return { document: documentOf([best.content]), isFallback: false };
  const removed = takeRemovedPositions(firstChrome);
  if (relaxedChrome) takeRemovedPositions(relaxedChrome);
  const { body, title } = cleanedBodyAgain(source, removed, titles);
  const page = elementOf('div', [...body.children]);
  removeEdgeNavigation(page);
  const content = fallbackContent(page, measureTotalText);
  if (title) prependChild(content, cloneTree(title));
  return { document: documentOf([content]), isFallback: true };
}

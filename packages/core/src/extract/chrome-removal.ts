/**
 * Removes page chrome by what elements say they are: tags (`nav`, `aside`, site `header`, any
 * `footer` but a quote's, and `form`: where the reader writes, not what the page says), ARIA roles, and class/id
 * names (see boilerplate-patterns.ts). Guards keep one
 * misleading name from emptying a page:
 * - elements on the path to the content anchors (an article body, `main`) are never removed;
 * - layout names (tags, roles, weak words like `header`, and `sidebar`, `widget`) spare an element
 *   that holds most of the page's prose, and `sidebar`/`widget`-like names also spare one that
 *   reads like an article (a page builder's "widget" holding the text);
 * - definitive names (cookie banners, share rows, comments, related lists) have no prose guard;
 * - a class name never removes a heading, a definition term, a table's header cell or a word of a
 *   sentence, and layout names never remove a block of data (a code block or table, or a wrapper
 *   around one) that is not a link list: generators dress headings, terms, header cells, styled
 *   words and code in class names of their own (`anchorWithStickyNavbar`, `<dt
 *   id="setuptools-confval-fresh-env">`, `<th class="head">`, `<em class="mailheader">`,
 *   `nextra-code-block`).
 */
import type { AnyNode, Element, ParentNode } from 'domhandler';
import { isTag, isText } from 'domhandler';
import {
  articleBodyHintPattern,
  chromeHintPattern,
  chromeRoles,
  chromeTags,
  contentHintPattern,
  layoutChromeHintPattern,
  weakChromeHintPattern,
} from './boilerplate-patterns.js';
import { collapsedText, detachAll, firstElement, hasOwnText, headingTags, hintText, isNoteAside, isWithin } from './dom-tools.js';
import { headingTooltips } from './heading-tooltips.js';
import { type TextStats, discountStats, linkDensity } from './text-stats.js';

export interface ChromeRemovalOptions {
  /** Also judge by class/id names (off in the relaxed retry). */
  useClassHints: boolean;
  /** Elements never removed: the anchors and their ancestors. */
  protectedElements: ReadonlySet<Element>;
  /**
   * Text stats of the tree; kept up to date: a removed element's stats are subtracted from its
   * ancestors, so afterwards they are what `measureText(root)` gives for the elements left. Each
   * element is judged before anything under it is removed, so the reads are those of the tree before.
   */
  stats: Map<Element, TextStats>;
  /** Prose (weighted characters) under each element before removal. */
  prose: Map<Element, number>;
  /** Prose under the whole root. */
  totalProse: number;
  /**
   * The page's one main landmark (`<main>`, `role="main"`), if any: a site footer beside it is
   * not spared for its prose (`isFooterBesideMain`).
   */
  mainLandmark?: Element;
}

/** Why an element is chrome: `definitive` names never hold content, `layout` ones sometimes do. */
export interface ChromeVerdict {
  kind: 'definitive' | 'layout' | 'layout-class';
  rule: string;
  /**
   * A table of contents named as chrome that holds most of its block (`isContentsOfBlock`): removed
   * from an article's page, kept by the whole-page fallback, where the page has no article shape.
   */
  isPageContents?: true;
}

/** Tags under which a `header`/`aside` is part of the content, not of the site. */
const contentContainers: ReadonlySet<string> = new Set(['article', 'blockquote', 'figure', 'main']);
/**
 * A `footer` is its section's metadata even inside an article or `main` (tags, a rating prompt, the
 * author's line, share and print links: HTML's "information about its section"); only a quote's or
 * a figure's footer, its source, is content.
 */
const footerContentContainers: ReadonlySet<string> = new Set(['blockquote', 'figure']);

function hasContentAncestor(element: Element): boolean {
  if (element.name === 'footer') {
    for (let node = element.parent; node && isTag(node); node = node.parent) if (footerContentContainers.has(node.name)) return true;
    return false;
  }
  for (let node = element.parent; node && isTag(node); node = node.parent) {
    if (contentContainers.has(node.name) || node.attribs.role === 'main') return true;
    if (node.attribs.itemprop?.toLowerCase() === 'articlebody') return true;
  }
  return false;
}

/** Phrasing tags a sentence is written with (Sphinx's `<em class="mailheader">`, `<span class="menuselection">`). */
const phrasingTags: ReadonlySet<string> = new Set(['abbr', 'b', 'cite', 'code', 'dfn', 'em', 'i', 'kbd', 'mark', 'q', 'samp', 'span', 'strong', 'var']);

/**
 * True for a word of a sentence: a phrasing element with no link in it, beside loose text in its
 * parent. Its class names its styling (a mail header, a menu selection), never a part of the page.
 */
function isWordOfSentence(element: Element): boolean {
  if (!phrasingTags.has(element.name) || firstElement(element, (child) => child.name === 'a' || child.name === 'button')) return false;
  return sentenceAround(element) !== undefined;
}

/** How many styling wrappers around a word are looked through (`<em><span class="search-tag-result">`). */
const wordWrappersRead = 3;

/**
 * The parent with loose text that `element` is a word of, looking through up to `wordWrappersRead`
 * phrasing wrappers that hold nothing else (Javadoc's `<em><span id="jstatd"
 * class="search-tag-result">jstatd</span></em>`: the index marks a term inside its emphasis).
 */
function sentenceAround(element: Element): ParentNode | undefined {
  let node: Element = element;
  for (let depth = 0; depth <= wordWrappersRead; depth++) {
    const parent = node.parent;
    if (!parent || !isTag(parent)) return undefined;
    if (hasOwnText(parent)) return parent;
    if (!phrasingTags.has(parent.name) || parent.children.some((child) => isTag(child) && child !== node)) return undefined;
    node = parent;
  }
  return undefined;
}

/** A table's header cells name its columns, whatever their class (docutils writes `<th class="head">`). */
const tableHeaderTags: ReadonlySet<string> = new Set(['thead', 'th']);

/** Which rule makes an element chrome, or undefined when none does. */
export function chromeVerdict(element: Element, useClassHints: boolean): ChromeVerdict | undefined {
  const { name } = element;
  if (name === 'html' || name === 'body' || name === 'main' || isNoteAside(element)) return undefined;
  if (chromeTags.has(name) && (name === 'nav' || name === 'menu' || !hasContentAncestor(element))) {
    return { kind: 'layout', rule: `tag:${name}` };
  }
  // A form is where the reader writes (a comment, a newsletter address, a search, a rating), not
  // what the page says; judged like a layout name, so a page-wide form holding the text stays.
  if (name === 'form') return { kind: 'layout-class', rule: 'tag:form' };
  const role = element.attribs.role;
  if (role && chromeRoles.has(role) && !hasContentAncestor(element)) return { kind: 'layout', rule: `role:${role}` };
  if (!useClassHints || headingTags.has(name) || tableHeaderTags.has(name)) return undefined;
  // A definition term titles its definition as a heading its section: API docs anchor each
  // documented object on it (`<dt id="setuptools-confval-fresh-env">`), so its names are the
  // object's. Its `dl` is judged as a whole.
  if (name === 'dt') return undefined;
  const verdict = classVerdict(element);
  if (verdict && verdict.kind !== 'definitive' && isColumnLabel(element, verdict)) return undefined;
  // Asked last, of the few elements a name condemns: the question walks the element and its
  // parent's children, and asked of every styled word of a long paragraph it was quadratic
  // (2 % of the transform of Python's library pages).
  return verdict && isWordOfSentence(element) ? undefined : verdict;
}

/** A column label is a few words (Javadoc's "Modifier and Type"), never a paragraph. */
const columnLabelMaximum = 60;

/**
 * True for a header cell of a table written in `div`s: a short label with no link and no block
 * inside, beside at least one more such label with the same layout name, in a parent that holds
 * more cells than labels after them. Javadoc (16 and later) writes its summary tables as a grid of
 * `div.table-header` labels ("Modifier and Type", "Method", "Description") then the rows' cells;
 * a page has one header, never several side by side with no link, and a table's header cell is
 * kept whatever its class (`th`, above).
 */
function isColumnLabel(element: Element, verdict: ChromeVerdict): boolean {
  if (!isLabelCell(element)) return false;
  const parent = element.parent;
  if (!parent || !isTag(parent)) return false;
  const siblings = parent.children.filter(isTag);
  const index = siblings.indexOf(element);
  const isSameLabel = (other: Element | undefined): boolean =>
    other !== undefined && other.name === element.name && isLabelCell(other) && classVerdict(other)?.rule === verdict.rule;
  if (!isSameLabel(siblings[index - 1]) && !isSameLabel(siblings[index + 1])) return false;
  let labels = 0;
  for (const sibling of siblings) if (isSameLabel(sibling) || sibling === element) labels++;
  return siblings.length >= labels * 2;
}

/**
 * True for a table written in `div`s with its column labels: children all `div`s, opening with two
 * labels or more (`isLabelCell`: a few words, no link; the same first class name) and then whole rows of cells, as many per row
 * as labels. Javadoc (16 and later) writes every summary so, also one whose cells are all links
 * (a module's "Indirect Exports": "From" a module, its "Packages"); a table, as a `table` with
 * header cells is, not a block of links.
 */
export function isLabelledGrid(element: Element): boolean {
  if (element.name !== 'div') return false;
  // Asked of each cell about its parent: read once per grid, not once per cell (10,000 cells).
  let known = labelledGrids.get(element);
  if (known === undefined) {
    known = readsAsLabelledGrid(element);
    labelledGrids.set(element, known);
  }
  return known;
}

const labelledGrids = new WeakMap<Element, boolean>();

function readsAsLabelledGrid(element: Element): boolean {
  let labels = 0;
  let cells = 0;
  let labelName: string | undefined;
  for (const child of element.children) {
    if (!isTag(child)) {
      if (isText(child) && child.data.trim() !== '') return false;
      continue;
    }
    if (child.name !== 'div') return false;
    // The labels share their first class name ("table-header"), which a short first cell ("transitive") does not.
    const name = (child.attribs.class ?? '').trim().split(/\s+/)[0]!;
    if (cells === 0 && (labelName === undefined || name === labelName) && isLabelCell(child)) {
      labelName = name;
      labels++;
    } else cells++;
  }
  return labels >= 2 && cells >= labels && cells % labels === 0;
}

function isLabelCell(element: Element): boolean {
  if (element.children.some((child) => isTag(child) && !phrasingTags.has(child.name))) return false;
  if (firstElement(element, (child) => child.name === 'a' || child.name === 'button') !== undefined) return false;
  const text = collapsedText(element);
  return text.length > 0 && text.length <= columnLabelMaximum;
}

/** The verdict of an element's class and id names, before the guards of `chromeVerdict`. */
function classVerdict(element: Element): ChromeVerdict | undefined {
  const hints = hintText(element);
  if (!hints || element.attribs.itemprop?.toLowerCase() === 'articlebody') return undefined;
  let verdict = verdictOfNames.get(hints);
  if (verdict === undefined) {
    if (verdictOfNames.size >= namesRemembered) verdictOfNames.clear();
    verdict = namesVerdict(hints) ?? null;
    verdictOfNames.set(hints, verdict);
  }
  return verdict ?? undefined;
}

/**
 * The verdicts of the class and id strings met lately (`null`: none): a page repeats a few names
 * on thousands of elements (Sphinx's `<span class="pre">`), each tested against five long patterns
 * (3 % of the transform of Python's library pages). Frozen, as they are shared.
 */
const verdictOfNames = new Map<string, Readonly<ChromeVerdict> | null>();
const namesRemembered = 4096;

function namesVerdict(hints: string): Readonly<ChromeVerdict> | undefined {
  if (articleBodyHintPattern.test(hints)) return undefined;
  const definitive = chromeHintPattern.exec(hints);
  if (definitive) return Object.freeze({ kind: 'definitive', rule: `class:${definitive[0].trim()}` });
  const layout = layoutChromeHintPattern.exec(hints);
  if (layout) return Object.freeze({ kind: 'layout-class', rule: `class:${layout[0].trim()}` });
  if (contentHintPattern.test(hints)) return undefined;
  const weak = weakChromeHintPattern.exec(hints);
  return weak ? Object.freeze({ kind: 'layout', rule: `weak:${weak[0].trim()}` }) : undefined;
}

/** Share of the page's prose above which a layout element is kept whatever its name says. */
const mostProseShare = 0.5;
/** A class-named layout part with this much prose at low link density reads like an article. */
const articleProseMinimum = 400;
const articleProseMaximumLinkDensity = 0.25;
/** ...and at least this much prose per image (a slideshow is images with captions). */
const articleProsePerImage = 500;

/** Link density below which a code block or table (or its wrapper) is data, not a menu. */
const dataMaximumLinkDensity = 0.3;
const dataTags: ReadonlySet<string> = new Set(['pre', 'table']);

function holdsData(element: Element, stats: TextStats | undefined): boolean {
  if (linkDensity(stats) >= dataMaximumLinkDensity) return false;
  return dataTags.has(element.name) || firstElement(element, (child) => dataTags.has(child.name)) !== undefined;
}

/** Link density from which a `nav` is a menu however much text its labels add up to. */
const menuMinimumLinkDensity = 0.9;
/** ...as long as the page has prose of its own beside it: a `nav` holding this share of it is the page. */
const menuMaximumProseShare = 0.9;

/**
 * A `nav` that is almost all links, on a page with prose beside it: a generator's tree of every
 * page of the manual (Erlang/OTP's reference pages: 70,000 characters of function names, whose
 * un-linked module labels outweigh a short page's prose) is navigation by its tag and its links,
 * not the content, and the prose share does not spare it.
 */
function isMenuBesideContent(element: Element, stats: TextStats | undefined, prose: number, options: ChromeRemovalOptions): boolean {
  return element.name === 'nav' && linkDensity(stats) >= menuMinimumLinkDensity && prose < menuMaximumProseShare * options.totalProse;
}

/** A list holding at least this share of the text of the block around it... */
const contentsShare = 0.5;
/** ...whose every item holds a link, at this link density or above (a title and a line on each), is that block's table of contents. */
const contentsMinimumLinkDensity = 0.2;

const listTags: ReadonlySet<string> = new Set(['ul', 'ol', 'dl']);
const itemTags: ReadonlySet<string> = new Set(['li', 'dt']);

/**
 * The list that is `element` or one of its children, when every item of it holds link text: read
 * from the stats, not by a walk into each item (nested lists of lists would walk their depth again
 * at each level).
 */
function isListOfLinks(element: Element, stats: Map<Element, TextStats>): boolean {
  const list = listTags.has(element.name) ? element : element.children.find((child): child is Element => isTag(child) && listTags.has(child.name));
  if (!list) return false;
  let items = 0;
  for (const item of list.children) {
    if (!isTag(item) || !itemTags.has(item.name)) continue;
    if ((stats.get(item)?.linkText ?? 0) === 0) return false;
    items++;
  }
  return items > 0;
}

/**
 * A table of contents that may be the page: a list of links holding most of the text of the block
 * around it, a block on the path to the title or the content anchors. DocBook writes a chapter's or
 * a reference's page as its title, maybe an introduction, and a `div.toc` listing the pages below
 * (PostgreSQL's chapter pages, gtk-doc's `rn01.html`); without it the page is its title. Only a
 * class name condemns one so (a `nav` or an `aside` is the site's whatever it holds), and the
 * verdict is kept for the whole-page fallback alone: on a page with an article, a list that holds
 * most of the article's block is a box of links beside a short text.
 */
function isContentsOfBlock(element: Element, stats: TextStats | undefined, options: ChromeRemovalOptions): boolean {
  if (linkDensity(stats) < contentsMinimumLinkDensity) return false;
  const block = guardedBlockOf(element, options.protectedElements);
  const blockText = block ? (options.stats.get(block)?.text ?? 0) : 0;
  return blockText > 0 && (stats?.text ?? 0) >= contentsShare * blockText && isListOfLinks(element, options.stats);
}

/** How many wrappers up from a table of contents the block around it is looked for (PostgreSQL's part pages: `div.part > div.partintro > div.toc`). */
const contentsBlockDepth = 2;

/** The nearest ancestor of `element`, a few levels up, on the path to the title or the content anchors. */
function guardedBlockOf(element: Element, protectedElements: ReadonlySet<Element>): Element | undefined {
  let block = element.parent;
  for (let depth = 0; depth < contentsBlockDepth && block && isTag(block); depth++, block = block.parent) {
    if (protectedElements.has(block)) return block;
  }
  return undefined;
}

/**
 * True for a site footer (`footer`, `role="contentinfo"`) outside the page's main landmark, which by
 * ARIA's definition holds the page's main content: its legal text is the page's longest prose on a
 * short page (a Javadoc module page of three lines under Oracle's copyright, 600 characters), and
 * the prose share does not spare it.
 */
function isFooterBesideMain(element: Element, verdict: ChromeVerdict, options: ChromeRemovalOptions): boolean {
  const landmark = options.mainLandmark;
  if (!landmark || (verdict.rule !== 'tag:footer' && verdict.rule !== 'role:contentinfo')) return false;
  return !isWithin(landmark, element) && !isWithin(element, landmark);
}

function isSpared(element: Element, verdict: ChromeVerdict, options: ChromeRemovalOptions): boolean {
  if (verdict.kind === 'definitive') return false;
  const prose = options.prose.get(element) ?? 0;
  const stats = options.stats.get(element);
  if (
    options.totalProse > 0 &&
    prose / options.totalProse >= mostProseShare &&
    !isMenuBesideContent(element, stats, prose, options) &&
    !isFooterBesideMain(element, verdict, options)
  )
    return true;
  if (verdict.rule.startsWith('class:') || verdict.rule.startsWith('weak:') || verdict.rule === 'tag:form') {
    if (holdsData(element, stats)) return true;
  }
  if (verdict.rule.startsWith('weak:') && isDisclosedText(element)) return true;
  return (
    verdict.kind === 'layout-class' &&
    prose >= articleProseMinimum &&
    linkDensity(stats) < articleProseMaximumLinkDensity &&
    (stats?.images ?? 0) * articleProsePerImage <= prose
  );
}

/**
 * True for a `details` that holds paragraphs: a disclosure of the text, which a weak layout word
 * in its class names only its place or its look. rustdoc writes an item's whole description as
 * `<details class="rustdoc-toggle top-doc" open>` ("top-" reads as a top bar).
 */
function isDisclosedText(element: Element): boolean {
  return element.name === 'details' && firstElement(element, isParagraph) !== undefined;
}

const isParagraph = (element: Element): boolean => element.name === 'p';

/** Peers read for `isShapedLikeContentPeer` on each side: a list of summaries has a few, not thousands. */
const peersRead = 12;

/**
 * True for a block a name condemns (`class:`/`id:` words, not its tag or role) that is built as a
 * peer beside it is, child for child (the same tags and class names, two children or more), where
 * that peer has no chrome name: one of a set of like blocks, which its name only tells apart.
 * Javadoc writes a package's summaries as `ul.summary-list > li > div#…-summary`, each a caption
 * and a grid of names and descriptions: `#related-package-summary` ("Related Packages") beside
 * `#class-summary`, `#interface-summary`. The peers are the block's siblings and the children of
 * its parent's siblings (a list item each), at most `peersRead` on each side and in each item.
 */
function isShapedLikeContentPeer(element: Element, verdict: ChromeVerdict): boolean {
  if (!verdict.rule.startsWith('class:')) return false;
  const shape = childShape(element);
  if (shape === undefined) return false;
  const parent = element.parent;
  if (!parent || !isTag(parent)) return false;
  const peers = (holder: ParentNode | null, around: AnyNode): Element[] => {
    if (!holder) return [];
    const children = holder.children;
    const index = children.indexOf(around as never);
    return children.slice(Math.max(0, index - peersRead), index + peersRead + 1).filter(isTag);
  };
  for (const sibling of peers(parent, element)) if (sibling !== element && isContentPeer(sibling, shape)) return true;
  for (const item of peers(parent.parent, parent)) {
    if (item === parent) continue;
    let read = 0;
    for (const child of item.children) {
      if (!isTag(child)) continue;
      if (isContentPeer(child, shape)) return true;
      if (++read >= peersRead) break;
    }
  }
  return false;
}

function isContentPeer(peer: Element, shape: string): boolean {
  return childShape(peer) === shape && chromeVerdict(peer, true) === undefined;
}

/** The tags and class names of an element's children in order, when it has two or more. */
function childShape(element: Element): string | undefined {
  const parts: string[] = [];
  for (const child of element.children) {
    if (!isTag(child)) continue;
    // A block of more children than this is a list or a page, not one of a set of summaries.
    if (parts.length >= shapeChildrenMaximum) return undefined;
    parts.push(`${child.name}.${child.attribs.class ?? ''}`);
  }
  return parts.length >= 2 ? parts.join('|') : undefined;
}

const shapeChildrenMaximum = 32;

const tooltipVerdict: Readonly<ChromeVerdict> = Object.freeze({ kind: 'definitive', rule: 'class:tooltip' });

/** Removes chrome under `root` in place; returns the removed elements with their verdicts. */
export function removeChrome(root: ParentNode, options: ChromeRemovalOptions): [Element, ChromeVerdict][] {
  const removed: [Element, ChromeVerdict][] = [];
  const stack: Element[] = root.children.filter(isTag);
  while (stack.length > 0) {
    const element = stack.pop()!;
    const verdict = options.protectedElements.has(element) ? undefined : chromeVerdict(element, options.useClassHints);
    if (verdict && !isSpared(element, verdict, options) && !isShapedLikeContentPeer(element, verdict)) {
      removed.push([
        element,
        verdict.rule.startsWith('class:') && isContentsOfBlock(element, options.stats.get(element), options) ? { ...verdict, isPageContents: true } : verdict,
      ]);
      discountStats(element, options.stats, root);
      continue;
    }
    // A heading's inline content is the heading: a title that is itself a link back to the
    // table of contents (`<a class="toc-backref">`) is not a table of contents. Nor is a code
    // block's: a highlighter names its tokens by their syntax (Doxygen's `<span class="comment">`
    // alone on a line of `div.fragment`), never by a part of the page. But for a hover box
    // written into either (`heading-tooltips.ts`: rustdoc's "Notable traits" in a signature).
    if (headingTags.has(element.name) || element.name === 'pre') {
      if (options.useClassHints) {
        for (const tooltip of headingTooltips(element)) {
          removed.push([tooltip, tooltipVerdict]);
          discountStats(tooltip, options.stats, root);
        }
      }
      continue;
    }
    for (const child of element.children) if (isTag(child)) stack.push(child);
  }
  // Detached together: one by one costs a splice of the parent's children each, quadratic when
  // a parent holds thousands of chrome blocks (32,000 forms took 6 s). Nothing above reads the
  // tree around a removed element, which is never visited again.
  detachAll(removed.map(([element]) => element));
  return removed;
}

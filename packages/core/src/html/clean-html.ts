import { selectAll, compile } from 'css-select';
import { Document, type AnyNode, type Element, type ParentNode } from 'domhandler';
import { detachAll, firstElement } from '../extract/dom-tools.js';
import { ValidationError } from '../errors.js';
import type { PageHrefs } from './page-hrefs.js';

/**
 * The cleaning steps of the scrape pipeline that are not main-content extraction:
 * includeTags / excludeTags by CSS selector, removal of non-content elements, and absolute
 * URLs for links and images (the largest `srcset` candidate becomes `src`).
 */

/** Elements that never carry page content. */
const nonContentTags = new Set(['head', 'meta', 'noscript', 'style', 'script', 'template', 'link']);

/** Throws a ValidationError naming the option when a selector does not parse. */
export function checkSelectors(field: string, selectors: string[]): void {
  selectors.forEach((selector, index) => {
    try {
      compile(selector);
    } catch (error) {
      throw new ValidationError(
        `\`${field}[${index}]\` must be a CSS selector; got ${JSON.stringify(selector)} (${(error as Error).message})`,
        `${field}[${index}]`,
      );
    }
  });
}

/** A new document holding only the elements matching any selector (outermost matches, in document order). */
export function keepOnly(document: Document, selectors: string[]): Document {
  const matches = new Set<Element>();
  for (const selector of selectors) for (const element of selectElements(selector, document)) matches.add(element);
  const outermost = [...matches].filter((element) => !hasAncestorIn(element, matches));
  outermost.sort(compareDocumentOrder);
  const result = new Document([]);
  for (const element of outermost) appendChild(result, element.cloneNode(true));
  return result;
}

/** Removes every element matching any selector, in place. */
export function removeMatching(root: ParentNode, selectors: string[]): void {
  for (const selector of selectors) detachAll(selectElements(selector, root));
}

/** Removes scripts, styles, head and other non-content elements, and comments, in place. */
export function removeNonContent(root: ParentNode): void {
  const doomed: AnyNode[] = [];
  collectNonContent(root.children, doomed);
  detachAll(doomed);
}

// The walks below are module functions with their state as arguments, not closures made per page:
// V8 compiled each page's closure again once it ran hot (issue 14, tenth pass).
function collectNonContent(nodes: AnyNode[], doomed: AnyNode[]): void {
  for (const node of nodes) {
    if (node.type === 'comment' || node.type === 'directive') doomed.push(node);
    else if (node.type === 'tag' || node.type === 'script' || node.type === 'style') {
      const element = node as Element;
      if (nonContentTags.has(element.name)) doomed.push(element);
      else collectNonContent(element.children, doomed);
    }
  }
}

const isBaseWithHref = (element: Element): boolean => element.name === 'base' && element.attribs.href !== undefined;

/**
 * The base URL links resolve against: `<base href>` when present, else the page URL. `hrefs`: the
 * page's `pageHrefs`, when the caller walked for them already (the link extraction does).
 */
export function baseUrlOf(document: Document, pageUrl: string, hrefs?: PageHrefs): string {
  // A plain walk: compiling and matching a CSS selector over every element cost more than the rest.
  const href = hrefs ? hrefs.baseHref : firstElement(document, isBaseWithHref)?.attribs.href;
  if (!href) return pageUrl;
  try {
    return new URL(href, pageUrl).href;
  } catch {
    return pageUrl;
  }
}

/**
 * Sets an attribute by replacing the element's attribute object, never writing into it: the
 * extraction's working copy shares attribute objects with the parsed page (dom-tools `cloneTree`).
 */
function setAttribute(element: Element, name: string, value: string): void {
  if (element.attribs[name] !== value) element.attribs = { ...element.attribs, [name]: value };
}

/**
 * Makes `a[href]` and `img[src]` absolute and picks the largest `srcset` candidate, in place.
 * `known`: hrefs already resolved against this same base (as written -> absolute URL), e.g. by
 * the page's link extraction; they are not parsed again.
 */
export function resolveUrls(root: ParentNode, baseUrl: string, known?: ReadonlyMap<string, string>): void {
  // The base parsed once, not again for every URL; and each distinct value resolved once.
  const base = parseUrl(baseUrl);
  resolveUrlsUnder(root.children, base, new Map<string, string>(), known);
}

function resolveUrlsUnder(nodes: AnyNode[], base: URL | undefined, resolved: Map<string, string>, known: ReadonlyMap<string, string> | undefined): void {
  for (const node of nodes) {
    if (node.type !== 'tag') continue;
    const element = node as Element;
    if (element.name === 'a' && element.attribs.href !== undefined) {
      setAttribute(element, 'href', resolveOnce(element.attribs.href, base, resolved, known));
    } else if (element.name === 'img' || element.name === 'source') {
      const largest = element.attribs.srcset ? largestCandidate(element.attribs.srcset) : undefined;
      if (largest && element.name === 'img') setAttribute(element, 'src', largest);
      if (element.attribs.src !== undefined) setAttribute(element, 'src', resolveOnce(element.attribs.src, base, resolved, known));
    }
    resolveUrlsUnder(element.children, base, resolved, known);
  }
}

function resolveOnce(href: string, base: URL | undefined, resolved: Map<string, string>, known: ReadonlyMap<string, string> | undefined): string {
  let url = resolved.get(href);
  if (url === undefined) resolved.set(href, (url = resolveAgainst(href, base, known)));
  return url;
}

function parseUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** `href` made absolute; as written (trimmed) when it is in-page, a script or data, or does not resolve (nor when the base does not parse). */
function resolveAgainst(href: string, base: URL | undefined, known: ReadonlyMap<string, string> | undefined): string {
  const trimmed = href.trim();
  if (trimmed === '' || base === undefined || /^(#|javascript:|mailto:|tel:|data:)/i.test(trimmed)) return trimmed;
  // A known href was resolved as written, which is the same as resolving it trimmed only when trimming changes nothing.
  const absolute = trimmed === href ? known?.get(href) : undefined;
  if (absolute !== undefined) return absolute;
  try {
    return new URL(trimmed, base).href;
  } catch {
    return trimmed;
  }
}

/** The URL of the widest (`w`) or densest (`x`) candidate of a srcset. */
export function largestCandidate(srcset: string): string | undefined {
  let best: { url: string; size: number } | undefined;
  for (const part of srcset.split(/,\s+/)) {
    const [url, descriptor] = part.trim().split(/\s+/);
    if (!url) continue;
    const size = descriptor ? Number.parseFloat(descriptor) * (descriptor.endsWith('x') ? 1000 : 1) : 1;
    if (!best || (Number.isFinite(size) && size > best.size)) best = { url, size: Number.isFinite(size) ? size : 1 };
  }
  return best?.url;
}

/** Elements under `root` matching a CSS selector, in document order. */
export function selectElements(selector: string, root: ParentNode): Element[] {
  return selectAll<AnyNode, Element>(selector, root.children);
}

function hasAncestorIn(element: Element, set: Set<Element>): boolean {
  for (let parent = element.parent; parent; parent = parent.parent) if (set.has(parent as Element)) return true;
  return false;
}

function compareDocumentOrder(a: AnyNode, b: AnyNode): number {
  return (a.startIndex ?? 0) - (b.startIndex ?? 0);
}

function appendChild(parent: ParentNode, child: AnyNode) {
  child.parent = parent;
  const last = parent.children[parent.children.length - 1];
  if (last) {
    last.next = child;
    child.prev = last;
  } else child.prev = null;
  child.next = null;
  parent.children.push(child);
}

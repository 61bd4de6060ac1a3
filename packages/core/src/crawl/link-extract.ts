import type { Document } from 'domhandler';
import { type PageHrefs, pageHrefs } from '../html/page-hrefs.js';

/** Schemes that never name a page to crawl. */
const skippedProtocols = new Set(['javascript:', 'mailto:', 'tel:', 'data:']);

/**
 * Links of a parsed page, for the crawl frontier: the `href` of every `<a>` and `<area>`, resolved
 * against the document's `<base href>` (the first one, wherever it stands; itself resolved against
 * the page URL) or else `pageUrl`. Returns absolute URLs (`URL.href`) in document order, each once
 * (first occurrence kept). Fragments are kept: the frontier decides about anchors.
 *
 * Skipped: empty hrefs, hrefs that do not resolve, and `javascript:`, `mailto:`, `tel:`, `data:`
 * (judged after resolution, so `java\nscript:` and `MAILTO:` are caught too). Entities in hrefs
 * are already decoded by the parser (`?a=1&amp;b=2` arrives as `?a=1&b=2`).
 *
 * One iterative walk over the tree, no selector engine (`hrefs`: that walk's result, when the caller
 * has it already). `resolved`, when given, receives each href resolved, as written, with its
 * absolute URL, so that the content's links need not be parsed again (see `resolveUrls`). `<link rel=alternate|next|prev>` is left out on purpose: it mostly points at
 * feeds and translations, and Firecrawl follows `<a href>` only. Never throws.
 */
export function extractLinks(document: Document, pageUrl: string, hrefs: PageHrefs = pageHrefs(document), resolved?: Map<string, string>): string[] {
  return resolveAll(hrefs.links, documentBase(pageUrl, hrefs.baseHref), resolved);
}

/** The document base URL: a valid http(s) `<base href>`, else the page URL; undefined if neither parses. */
function documentBase(pageUrl: string, baseHref: string | undefined): URL | undefined {
  const page = parse(pageUrl);
  if (baseHref === undefined || baseHref.trim() === '') return page;
  const base = parse(baseHref, page);
  return base && (base.protocol === 'http:' || base.protocol === 'https:') ? base : page;
}

/** `resolved`: receives every href that resolved, as written, with its absolute URL (whatever its scheme). */
function resolveAll(hrefs: readonly string[], base: URL | undefined, resolved: Map<string, string> | undefined): string[] {
  const seen = new Set<string>();
  // A page repeats many hrefs (the navigation at the top and again at the bottom): each is parsed once.
  const seenHrefs = new Set<string>();
  const links: string[] = [];
  for (const href of hrefs) {
    if (seenHrefs.has(href)) continue;
    seenHrefs.add(href);
    if (href.trim() === '') continue;
    const url = parse(href, base);
    if (url === undefined) continue;
    const absolute = url.href;
    resolved?.set(href, absolute);
    if (skippedProtocols.has(url.protocol)) continue;
    if (seen.has(absolute)) continue;
    seen.add(absolute);
    links.push(absolute);
  }
  return links;
}

function parse(input: string, base?: URL): URL | undefined {
  try {
    return new URL(input, base);
  } catch {
    return undefined;
  }
}

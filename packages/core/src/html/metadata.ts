import type { AnyNode, Document, Element } from 'domhandler';
import { getAttributeValue, textContent } from 'domutils';

/**
 * Page metadata as the API returns it: title, description, language, favicon, the named
 * og/dc/article fields, and every `<meta name|property|itemprop content>` under its raw name
 * (duplicates become arrays, except `description`, whose duplicates are joined with ", "). A value
 * repeated under the same name (themes often emit `viewport` twice) is kept once.
 */
const namedFields: Record<string, string> = {
  'og:title': 'ogTitle',
  'og:description': 'ogDescription',
  'og:url': 'ogUrl',
  'og:image': 'ogImage',
  'og:audio': 'ogAudio',
  'og:determiner': 'ogDeterminer',
  'og:locale': 'ogLocale',
  'og:locale:alternate': 'ogLocaleAlternate',
  'og:site_name': 'ogSiteName',
  'og:video': 'ogVideo',
  'article:section': 'articleSection',
  'article:tag': 'articleTag',
  'article:published_time': 'publishedTime',
  'article:modified_time': 'modifiedTime',
  'dcterms.keywords': 'dcTermsKeywords',
  'dc.description': 'dcDescription',
  'dc.subject': 'dcSubject',
  'dcterms.subject': 'dcTermsSubject',
  'dcterms.audience': 'dcTermsAudience',
  'dc.type': 'dcType',
  'dcterms.type': 'dcTermsType',
  'dc.date': 'dcDate',
  'dc.date.created': 'dcDateCreated',
  'dcterms.created': 'dcTermsCreated',
};
/** Named fields that hold a list even when the page has one value. */
const listFields = new Set(['ogLocaleAlternate']);

export interface PageMetadata {
  title?: string;
  description?: string;
  language?: string;
  favicon?: string;
  [key: string]: unknown;
}

export function extractMetadata(document: Document, pageUrl: string): PageMetadata {
  const metadata: PageMetadata = {};
  const found: HeadFound = { title: undefined, htmlLang: undefined, icons: [], metas: [] };
  walk(document.children, found);
  const { title, htmlLang, icons, metas } = found;

  if (title) metadata.title = title;
  if (htmlLang) metadata.language = htmlLang;

  for (const [name, content] of metas) {
    addValue(metadata, name, content, name.toLowerCase() === 'description');
    const field = namedFields[name.toLowerCase()];
    if (field) addValue(metadata, field, content, false);
  }
  for (const field of listFields) {
    const value = metadata[field];
    if (typeof value === 'string') metadata[field] = [value];
  }
  const description = metadata.description;
  if (Array.isArray(description)) metadata.description = description.join(', ');

  const icon = icons.find((entry) => /(^|\s)icon(\s|$)/.test(entry.rel)) ?? icons[0];
  if (icon) metadata.favicon = absolutize(icon.href, pageUrl);
  return metadata;
}

function addValue(metadata: PageMetadata, key: string, value: string, joinDuplicates: boolean) {
  const existing = metadata[key];
  if (existing === value || (Array.isArray(existing) && existing.includes(value))) return;
  if (existing === undefined) metadata[key] = value;
  else if (joinDuplicates && typeof existing === 'string') metadata[key] = `${existing}, ${value}`;
  else if (Array.isArray(existing)) existing.push(value);
  else metadata[key] = [existing, value];
}

/** What the walk collects; passed along, not closed over (a closure made per page, V8 compiled it again on later pages). */
interface HeadFound {
  title: string | undefined;
  htmlLang: string | undefined;
  icons: Array<{ rel: string; href: string }>;
  metas: Array<[string, string]>;
}

function walk(nodes: AnyNode[], found: HeadFound) {
  for (const node of nodes) {
    if (node.type === 'tag' || node.type === 'script' || node.type === 'style') {
      const element = node as Element;
      collect(element, found);
      // Metadata never lives inside the body's content blocks below these, but favicons and metas may sit anywhere.
      if (element.name !== 'script' && element.name !== 'style' && element.name !== 'svg') walk(element.children, found);
    }
  }
}

function collect(element: Element, found: HeadFound): void {
  switch (element.name) {
    case 'html':
      found.htmlLang ??= getAttributeValue(element, 'lang')?.trim() || undefined;
      break;
    case 'title':
      if (found.title === undefined && !insideSvg(element)) found.title = textContent(element).replace(/\s+/g, ' ').trim();
      break;
    case 'link': {
      const rel = getAttributeValue(element, 'rel')?.toLowerCase() ?? '';
      const href = getAttributeValue(element, 'href');
      if (href && /(^|\s)(shortcut\s+)?icon(\s|$)|apple-touch-icon/.test(rel)) found.icons.push({ rel, href });
      break;
    }
    case 'meta': {
      const name = getAttributeValue(element, 'name') ?? getAttributeValue(element, 'property') ?? getAttributeValue(element, 'itemprop');
      const content = getAttributeValue(element, 'content');
      if (name && content !== undefined) found.metas.push([name, content]);
      break;
    }
  }
}

function insideSvg(element: Element): boolean {
  for (let parent = element.parent; parent; parent = parent.parent) {
    if ((parent as Element).name === 'svg') return true;
  }
  return false;
}

export function absolutize(href: string, base: string): string {
  try {
    return new URL(href.trim(), base).href;
  } catch {
    return href;
  }
}

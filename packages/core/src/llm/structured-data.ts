import type { AnyNode, Element } from 'domhandler';
import { getAttributeValue, textContent } from 'domutils';
import { absolutize } from '../html/metadata.js';
import { parseHtml } from '../html/parse-html.js';

/**
 * The machine-readable data a page carries, read without a model: JSON-LD blocks, microdata
 * (`itemscope`/`itemprop`), RDFa (`typeof`/`property`), OpenGraph and other `<meta property>`
 * tags, `<meta name>` tags, and tables with a header row. Used by the json format when no LLM
 * provider is configured (see fill-from-structured-data.ts), and by anything else that wants a
 * page's facts for free (change tracking, llms.txt descriptions).
 *
 *   const data = readStructuredData(html, 'https://shop.example/p/1');
 *   data.jsonLd[0]   // {"@type": "Product", name: "Kettle", offers: {price: "39.00", ...}}
 *   data.openGraph   // {"og:title": "Kettle", ...}
 */
export interface StructuredData {
  /** JSON-LD items, `@graph` lists flattened; blocks that are not valid JSON are skipped. */
  jsonLd: Array<Record<string, unknown>>;
  /** Top-level microdata items; nested items appear as property values. */
  microdata: StructuredItem[];
  /** Top-level RDFa items (`typeof`), plus one untyped item for `property` outside any `typeof`. */
  rdfa: StructuredItem[];
  /** `<meta property>` values (og:, article:, product:, twitter: ...) under their raw names; repeats become arrays. */
  openGraph: Record<string, string | string[]>;
  /** `<meta name>` values under their raw names, plus `title` (the `<title>`) and `canonical`. */
  meta: Record<string, string | string[]>;
  /** Tables with a header row (`<th>` cells or a `<thead>`), as header texts and row cell texts. */
  tables: StructuredTable[];
}

export interface StructuredItem {
  /** `itemtype` / `typeof`, shortened to its last path segment (`https://schema.org/Product` -> `Product`). */
  type?: string;
  /** Property values: text, a nested item, or a list of either when a property repeats. */
  properties: Record<string, StructuredValue>;
}

export type StructuredValue = string | StructuredItem | StructuredValue[];

export interface StructuredTable {
  headers: string[];
  rows: string[][];
}

export function readStructuredData(html: string, pageUrl: string): StructuredData {
  const data: StructuredData = { jsonLd: [], microdata: [], rdfa: [], openGraph: {}, meta: {}, tables: [] };
  const document = parseHtml(html);
  const looseRdfa: StructuredItem = { properties: {} };

  const visit = (nodes: AnyNode[], micro: StructuredItem | undefined, rdfa: StructuredItem | undefined) => {
    for (const node of nodes) {
      if (node.type !== 'tag' && node.type !== 'script') continue;
      const element = node as Element;
      if (element.name === 'script') {
        if ((getAttributeValue(element, 'type') ?? '').toLowerCase().includes('ld+json')) data.jsonLd.push(...parseJsonLd(textContent(element)));
        continue;
      }
      if (element.name === 'style' || element.name === 'svg') continue;
      if (element.name === 'table') {
        const table = readTable(element);
        if (table) data.tables.push(table);
      }
      if (element.name === 'title' && data.meta.title === undefined) data.meta.title = clean(textContent(element));
      if (element.name === 'link' && /(^|\s)canonical(\s|$)/i.test(getAttributeValue(element, 'rel') ?? '')) {
        const href = getAttributeValue(element, 'href');
        if (href) data.meta.canonical = absolutize(href, pageUrl);
      }
      if (element.name === 'meta') readMeta(element, data, micro || rdfa);

      const [nextMicro, nextRdfa] = [readMicrodata(element, micro, data, pageUrl), readRdfa(element, rdfa, data, looseRdfa, pageUrl)];
      visit(element.children, nextMicro, nextRdfa);
    }
  };
  visit(document.children, undefined, undefined);
  if (Object.keys(looseRdfa.properties).length > 0) data.rdfa.push(looseRdfa);
  return data;
}

function readMeta(element: Element, data: StructuredData, insideItem: StructuredItem | undefined) {
  const content = getAttributeValue(element, 'content');
  if (content === undefined) return;
  const property = getAttributeValue(element, 'property');
  const name = getAttributeValue(element, 'name');
  // A `<meta property>` inside an RDFa item belongs to the item (read there), not to the page.
  if (property && !insideItem) addTo(data.openGraph, property, content);
  if (name) addTo(data.meta, name, content);
}

/** Microdata: returns the item that holds the properties of this element's children. */
function readMicrodata(element: Element, scope: StructuredItem | undefined, data: StructuredData, pageUrl: string): StructuredItem | undefined {
  const props = getAttributeValue(element, 'itemprop')?.split(/\s+/).filter(Boolean) ?? [];
  const isScope = element.attribs.itemscope !== undefined;
  if (!isScope) {
    if (scope) for (const prop of props) addProperty(scope, prop, valueOf(element, pageUrl));
    return scope;
  }
  const item: StructuredItem = { ...typeOf(getAttributeValue(element, 'itemtype')), properties: {} };
  if (scope && props.length > 0) for (const prop of props) addProperty(scope, prop, item);
  else data.microdata.push(item);
  return item;
}

/** RDFa Lite: `typeof` starts an item, `property` adds to the nearest one (prefixes like `schema:` dropped). */
function readRdfa(
  element: Element,
  scope: StructuredItem | undefined,
  data: StructuredData,
  loose: StructuredItem,
  pageUrl: string,
): StructuredItem | undefined {
  const props = (getAttributeValue(element, 'property')?.split(/\s+/).filter(Boolean) ?? []).map((prop) => prop.replace(/^[a-z]+:(?!\/)/i, ''));
  const type = getAttributeValue(element, 'typeof');
  if (type === undefined) {
    // `<meta property="og:...">` outside any item is OpenGraph, read by readMeta.
    if (element.name === 'meta' && !scope) return scope;
    for (const prop of props) addProperty(scope ?? loose, prop, valueOf(element, pageUrl));
    return scope;
  }
  const item: StructuredItem = { ...typeOf(type), properties: {} };
  if (scope && props.length > 0) for (const prop of props) addProperty(scope, prop, item);
  else data.rdfa.push(item);
  return item;
}

function valueOf(element: Element, pageUrl: string): string {
  const attribute = (name: string) => getAttributeValue(element, name);
  const content = attribute('content');
  if (content !== undefined) return content;
  switch (element.name) {
    case 'a':
    case 'link':
    case 'area':
      return absolutize(attribute('href') ?? '', pageUrl);
    case 'img':
    case 'audio':
    case 'video':
    case 'source':
    case 'iframe':
    case 'embed':
      return absolutize(attribute('src') ?? '', pageUrl);
    case 'time':
      return attribute('datetime') ?? clean(textContent(element));
    case 'data':
    case 'meter':
      return attribute('value') ?? clean(textContent(element));
    default:
      return clean(textContent(element));
  }
}

function typeOf(type: string | undefined): { type?: string } {
  const first = type?.trim().split(/\s+/)[0];
  if (!first) return {};
  return { type: first.replace(/\/+$/, '').split(/[/#:]/).pop() ?? first };
}

function addProperty(item: StructuredItem, name: string, value: StructuredValue) {
  const existing = item.properties[name];
  if (existing === undefined) item.properties[name] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else item.properties[name] = [existing, value];
}

function addTo(record: Record<string, string | string[]>, name: string, value: string) {
  const existing = record[name];
  if (existing === undefined) record[name] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else record[name] = [existing, value];
}

function parseJsonLd(text: string): Array<Record<string, unknown>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.trim().replace(/^<!--|-->$/g, ''));
  } catch {
    return [];
  }
  const items: Array<Record<string, unknown>> = [];
  const collect = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (typeof value === 'object' && value !== null) {
      const record = value as Record<string, unknown>;
      if (Array.isArray(record['@graph'])) collect(record['@graph']);
      else items.push(record);
    }
  };
  collect(parsed);
  return items;
}

function readTable(table: Element): StructuredTable | undefined {
  const rows: Element[] = [];
  const collectRows = (nodes: AnyNode[]) => {
    for (const node of nodes) {
      if (node.type !== 'tag') continue;
      const element = node as Element;
      if (element.name === 'table') continue; // a nested table is read on its own
      if (element.name === 'tr') rows.push(element);
      else collectRows(element.children);
    }
  };
  collectRows(table.children);
  const cellsOf = (row: Element) => row.children.filter((node): node is Element => node.type === 'tag' && (node.name === 'td' || node.name === 'th'));
  const headerIndex = rows.findIndex((row) => {
    const cells = cellsOf(row);
    return cells.length > 0 && (cells.every((cell) => cell.name === 'th') || (row.parent as Element | null)?.name === 'thead');
  });
  if (headerIndex < 0) return undefined;
  const headers = cellsOf(rows[headerIndex]!).map((cell) => clean(textContent(cell)));
  const body = rows
    .slice(headerIndex + 1)
    .map((row) => cellsOf(row).map((cell) => clean(textContent(cell))))
    .filter((cells) => cells.some(Boolean));
  return body.length > 0 ? { headers, rows: body } : undefined;
}

const clean = (text: string) => text.replace(/\s+/g, ' ').trim();

import type { JsonSchema } from '../ports/search-provider.js';
import type { StructuredData, StructuredItem, StructuredTable } from './structured-data.js';

/**
 * Fills a JSON Schema from a page's structured data, without a model. Each schema property is
 * looked up by name (and a few well-known synonyms: `title` <-> `name`/`headline`, `price` <->
 * `offers.price`, `author` <-> `author.name`...) in the page's items, best-matching item first:
 * JSON-LD, microdata, RDFa, then OpenGraph and meta tags. Values are converted to the schema's
 * type (`"$39.00"` -> 39 for a number). An array of objects is filled from a list in an item
 * (`review`, `itemListElement`...), from several items of one type, or from the page's single
 * table whose headers match the item's properties.
 *
 *   fillSchemaFromStructuredData({type: 'object', properties: {name: {type: 'string'}, price: {type: 'number'}, rating: {type: 'number'}}}, data)
 *     -> {value: {name: 'Kettle', price: 39}, filled: ['name', 'price'], missing: ['rating'], sources: ['JSON-LD']}
 */
export interface StructuredFill {
  /** The filled object: only fields that were found (missing ones are left out). */
  value: Record<string, unknown>;
  /** Dotted paths of the fields filled. */
  filled: string[];
  /** Dotted paths of the fields not found. */
  missing: string[];
  /** Which kinds of structured data supplied values (`JSON-LD`, `microdata`, `RDFa`, `OpenGraph`, `meta tags`, `table`). */
  sources: string[];
}

type Flat = Map<string, unknown>;
interface Source {
  kind: string;
  /** Normalized dotted path -> value, and normalized last segment -> value (shallowest first). */
  paths: Flat;
  leaves: Flat;
  /** The raw record, for nested objects and lists. */
  record: Record<string, unknown>;
  type?: string;
}

/** Well-known names of the same fact, by normalized field name. */
const synonyms: Record<string, string[]> = {
  title: ['name', 'headline', 'ogtitle', 'twittertitle', 'title'],
  name: ['headline', 'title', 'ogtitle'],
  headline: ['name', 'title', 'ogtitle'],
  description: ['ogdescription', 'twitterdescription', 'abstract', 'summary'],
  summary: ['description', 'ogdescription', 'abstract'],
  price: ['offers.price', 'offers.lowprice', 'lowprice', 'productpriceamount', 'ogpriceamount', 'priceamount'],
  currency: ['pricecurrency', 'offers.pricecurrency', 'productpricecurrency', 'ogpricecurrency'],
  pricecurrency: ['offers.pricecurrency', 'productpricecurrency', 'currency'],
  availability: ['offers.availability', 'productavailability'],
  image: ['image.url', 'ogimage', 'twitterimage', 'thumbnailurl'],
  imageurl: ['image', 'image.url', 'ogimage', 'thumbnailurl'],
  author: ['author.name', 'creator', 'creator.name', 'articleauthor'],
  authorname: ['author.name', 'author', 'creator'],
  date: ['datepublished', 'articlepublishedtime', 'publishedtime', 'datecreated', 'datemodified'],
  publishedat: ['datepublished', 'articlepublishedtime', 'publishedtime'],
  publishdate: ['datepublished', 'articlepublishedtime', 'publishedtime'],
  published: ['datepublished', 'articlepublishedtime'],
  datepublished: ['articlepublishedtime', 'publishedtime'],
  url: ['ogurl', 'canonical', '@id'],
  link: ['url', 'ogurl', 'canonical'],
  brand: ['brand.name', 'manufacturer.name', 'manufacturer'],
  rating: ['aggregaterating.ratingvalue', 'ratingvalue', 'reviewrating.ratingvalue'],
  reviewcount: ['aggregaterating.reviewcount', 'aggregaterating.ratingcount'],
  sitename: ['ogsitename', 'publisher.name'],
  publisher: ['publisher.name', 'ogsitename'],
  keywords: ['articletag', 'tags'],
  tags: ['keywords', 'articletag'],
  language: ['inlanguage', 'oglocale'],
  type: ['@type', 'ogtype'],
};

const kindOrder = ['JSON-LD', 'microdata', 'RDFa', 'OpenGraph', 'meta tags'];

export function fillSchemaFromStructuredData(schema: JsonSchema, data: StructuredData): StructuredFill {
  const sources = sourcesOf(data);
  const fill: StructuredFill = { value: {}, filled: [], missing: [], sources: [] };
  const used = new Set<string>();
  const value = fillObject(schema, rank(sources, schema), data.tables, '', fill, used);
  fill.value = value ?? {};
  fill.sources = [...used].sort((a, b) => kindIndex(a) - kindIndex(b));
  return fill;
}

const kindIndex = (kind: string) => kindOrder.indexOf(kind) + 1 || kindOrder.length + 1;

function fillObject(
  schema: JsonSchema,
  sources: Source[],
  tables: StructuredTable[],
  path: string,
  fill: StructuredFill,
  used: Set<string>,
): Record<string, unknown> | undefined {
  const properties = propertiesOf(schema);
  const out: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const at = path ? `${path}.${name}` : name;
    const found = fillField(name, property, sources, tables, at, fill, used);
    if (found !== undefined) out[name] = found;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function fillField(
  name: string,
  schema: JsonSchema,
  sources: Source[],
  tables: StructuredTable[],
  at: string,
  fill: StructuredFill,
  used: Set<string>,
): unknown {
  const type = typeOf(schema);
  if (type === 'object' && Object.keys(propertiesOf(schema)).length > 0) {
    // A nested object: its own record in an item when there is one, else the same items.
    const nested = sources.flatMap((source) => {
      const record = lookup(source, name);
      return isRecord(record) ? [sourceOf(source.kind, record)] : [];
    });
    return fillObject(schema, nested.length > 0 ? rank(nested, schema) : sources, tables, at, fill, used);
  }
  if (type === 'array' && typeOf(itemsOf(schema)) === 'object') {
    const list = fillList(name, itemsOf(schema), sources, tables, used);
    if (list) {
      fill.filled.push(at);
      return list;
    }
    fill.missing.push(at);
    return undefined;
  }
  for (const source of sources) {
    const raw = lookup(source, name);
    if (raw === undefined) continue;
    const converted = convert(raw, schema);
    if (converted === undefined) continue;
    fill.filled.push(at);
    used.add(source.kind);
    return converted;
  }
  fill.missing.push(at);
  return undefined;
}

/** An array of objects: a list in an item, several items of a type named like the field, or the page's one matching table. */
function fillList(name: string, itemSchema: JsonSchema, sources: Source[], tables: StructuredTable[], used: Set<string>): unknown[] | undefined {
  const scratch = (): StructuredFill => ({ value: {}, filled: [], missing: [], sources: [] });
  for (const source of sources) {
    const raw = lookup(source, name);
    const records = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(listEntry).filter(isRecord);
    const items = records.flatMap((record) => fillObject(itemSchema, [sourceOf(source.kind, record)], [], '', scratch(), used) ?? []);
    if (items.length > 0) return items;
  }
  const singular = normalize(name).replace(/s$/, '');
  const typed = sources.filter((source) => source.type && normalize(source.type) === singular);
  if (typed.length > 1) {
    const items = typed.flatMap((source) => fillObject(itemSchema, [source], [], '', scratch(), used) ?? []);
    if (items.length > 0) return items;
  }
  const table = matchingTable(itemSchema, tables);
  if (!table) return undefined;
  used.add('table');
  return table.rows.flatMap((row) => {
    const record = Object.fromEntries(table.headers.map((header, index) => [header, row[index] ?? '']));
    return fillObject(itemSchema, [sourceOf('table', record)], [], '', scratch(), new Set()) ?? [];
  });
}

/** The one table whose headers name at least half of the item's properties (none when two tables match). */
function matchingTable(itemSchema: JsonSchema, tables: StructuredTable[]): StructuredTable | undefined {
  const wanted = Object.keys(propertiesOf(itemSchema));
  if (wanted.length === 0) return undefined;
  const matching = tables.filter((table) => {
    const source = sourceOf('table', Object.fromEntries(table.headers.map((header) => [header, header])));
    const hits = wanted.filter((field) => lookup(source, field) !== undefined).length;
    return hits > 0 && hits * 2 >= wanted.length;
  });
  return matching.length === 1 ? matching[0] : undefined;
}

function listEntry(entry: unknown): unknown {
  // itemListElement entries are ListItems wrapping the real thing in `item`.
  if (isRecord(entry) && isRecord(entry.item) && String(entry['@type'] ?? '').toLowerCase() === 'listitem') return entry.item;
  return entry;
}

function lookup(source: Source, field: string): unknown {
  const key = normalize(field);
  // A plural field (`reviews`) also matches the singular property schema.org uses (`review`).
  const singular = key.length > 3 && key.endsWith('s') ? [key.slice(0, -1)] : [];
  for (const candidate of [key, ...(synonyms[key] ?? []), ...singular]) {
    const value = candidate.includes('.') ? source.paths.get(candidate) : (source.paths.get(candidate) ?? source.leaves.get(candidate));
    if (value !== undefined && value !== '' && value !== null) return value;
  }
  return undefined;
}

/** Sources ranked by how many of the schema's top-level fields they can fill (stable within a kind's order). */
function rank(sources: Source[], schema: JsonSchema): Source[] {
  const fields = Object.keys(propertiesOf(schema));
  const score = (source: Source) => fields.filter((field) => lookup(source, field) !== undefined).length;
  return sources
    .map((source, index) => ({ source, index, score: score(source) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((entry) => entry.source);
}

function sourcesOf(data: StructuredData): Source[] {
  const page: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(data.openGraph)) page[name] = value;
  return [
    ...data.jsonLd.map((item) => sourceOf('JSON-LD', item)),
    ...data.microdata.map((item) => sourceOf('microdata', itemRecord(item))),
    ...data.rdfa.map((item) => sourceOf('RDFa', itemRecord(item))),
    ...(Object.keys(page).length > 0 ? [sourceOf('OpenGraph', page)] : []),
    ...(Object.keys(data.meta).length > 0 ? [sourceOf('meta tags', data.meta)] : []),
  ];
}

function itemRecord(item: StructuredItem): Record<string, unknown> {
  const record: Record<string, unknown> = item.type ? { '@type': item.type } : {};
  const toPlain = (value: unknown): unknown => (Array.isArray(value) ? value.map(toPlain) : isStructuredItem(value) ? itemRecord(value) : value);
  for (const [name, value] of Object.entries(item.properties)) record[name] = toPlain(value);
  return record;
}

function sourceOf(kind: string, record: Record<string, unknown>): Source {
  const paths: Flat = new Map();
  const leaves: Flat = new Map();
  const walk = (value: unknown, path: string, depth: number) => {
    if (depth > 4) return;
    if (isRecord(value)) {
      for (const [name, child] of Object.entries(value)) {
        const key = normalize(name) || name;
        const childPath = path ? `${path}.${key}` : key;
        if (!paths.has(childPath)) paths.set(childPath, child);
        if (!leaves.has(key)) leaves.set(key, child);
        walk(child, childPath, depth + 1);
      }
    } else if (Array.isArray(value) && isRecord(value[0])) {
      walk(value[0], path, depth + 1);
    }
  };
  walk(record, '', 0);
  const type = record['@type'];
  return { kind, paths, leaves, record, ...(typeof type === 'string' ? { type: type.split(/[/#:]/).pop() ?? type } : {}) };
}

/** A raw value as the schema's type, or undefined when it cannot be one. */
function convert(raw: unknown, schema: JsonSchema): unknown {
  const type = typeOf(schema);
  if (type === 'array') {
    const items = itemsOf(schema);
    const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(/\s*[,;]\s*/).filter(Boolean) : [raw];
    const converted = list.map((item) => convert(item, items)).filter((item) => item !== undefined);
    return converted.length > 0 ? converted : undefined;
  }
  if (Array.isArray(raw)) return raw.length > 0 ? convert(raw[0], schema) : undefined;
  if (isRecord(raw)) {
    if (type === 'object') return raw;
    const inner = raw.name ?? raw['@value'] ?? raw.value ?? raw.url ?? raw['@id'];
    return inner === undefined ? undefined : convert(inner, schema);
  }
  const enumValues = Array.isArray(schema.enum) ? schema.enum : undefined;
  const value = scalar(raw, type);
  if (value === undefined || !enumValues) return value;
  const text = String(value).toLowerCase().split('/').pop();
  return enumValues.find((option) => String(option).toLowerCase() === text || String(option).toLowerCase() === String(value).toLowerCase());
}

function scalar(raw: unknown, type: string | undefined): unknown {
  switch (type) {
    case 'number':
    case 'integer': {
      const number = typeof raw === 'number' ? raw : parseNumber(String(raw));
      if (number === undefined) return undefined;
      return type === 'integer' ? (Number.isInteger(number) ? number : undefined) : number;
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return raw;
      const text = String(raw).trim().toLowerCase().split('/').pop();
      if (['true', 'yes', '1', 'instock'].includes(text ?? '')) return true;
      if (['false', 'no', '0', 'outofstock'].includes(text ?? '')) return false;
      return undefined;
    }
    case 'string':
    case undefined:
      return typeof raw === 'string' ? raw.trim() || undefined : typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : undefined;
    default:
      return undefined;
  }
}

function parseNumber(text: string): number | undefined {
  const match = /-?\d[\d\s,.']*/.exec(text.replace(/\u00a0/g, ' '));
  if (!match) return undefined;
  let digits = match[0].replace(/[\s']/g, '');
  // "1.234,56" (comma decimals) vs "1,234.56": the last separator is the decimal one when followed by 1-2 digits.
  const lastComma = digits.lastIndexOf(',');
  const lastDot = digits.lastIndexOf('.');
  if (lastComma > lastDot && /,\d{1,2}$/.test(digits)) digits = digits.replace(/\./g, '').replace(',', '.');
  else digits = digits.replace(/,/g, '');
  const number = Number.parseFloat(digits);
  return Number.isFinite(number) ? number : undefined;
}

function typeOf(schema: JsonSchema): string | undefined {
  const type = schema.type;
  if (Array.isArray(type)) return type.find((entry) => entry !== 'null') as string | undefined;
  if (typeof type === 'string') return type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  return variants?.map(typeOf).find((entry) => entry && entry !== 'null');
}

function propertiesOf(schema: JsonSchema): Record<string, JsonSchema> {
  const properties = schema.properties;
  return isRecord(properties) ? (properties as Record<string, JsonSchema>) : {};
}

function itemsOf(schema: JsonSchema): JsonSchema {
  const items = schema.items;
  return isRecord(items) ? items : {};
}

const normalize = (name: string) => name.toLowerCase().replace(/[^a-z0-9@.]/g, '');
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStructuredItem = (value: unknown): value is StructuredItem => isRecord(value) && isRecord(value.properties);

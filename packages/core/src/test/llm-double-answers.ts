/**
 * How the LLM test doubles answer: deterministically, from the page content in the prompt. The
 * content between `<page_content>` tags is read for facts written as `Key: value` lines (markdown
 * emphasis and list markers are ignored), and a schema is filled from the facts whose keys match
 * its property names (case, spaces, `-` and `_` ignored). Tests put `Price: 12.50` on a page and
 * assert `{price: 12.5}`. Text requests (summaries) answer `Summary: ` + the page's first line.
 *
 * Behaviours queued with `script()` on a double are consumed one per request before normal
 * answers: an HTTP error status (with Retry-After), an answer that is not JSON, an answer of the
 * wrong shape, a hang, a dropped connection.
 */
export type DoubleBehaviour =
  | { status: number; retryAfterMs?: number; message?: string }
  | 'invalid-json'
  | 'wrong-shape'
  /** The next structured answer is exactly this object. */
  | { object: unknown }
  | { delayMs: number }
  | 'drop';

export interface DoubleRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

type Schema = Record<string, unknown>;

export interface PageFacts {
  /** The text inside `<page_content>` (the whole prompt when there is no tag). */
  content: string;
  /** normalized key -> [original key, value], first occurrence wins. */
  facts: Map<string, [string, string]>;
}

export function readPageFacts(prompt: string): PageFacts {
  const match = /<page_content[^>]*>([\s\S]*?)<\/page_content>/.exec(prompt);
  const content = (match ? match[1] : prompt) ?? '';
  const facts = new Map<string, [string, string]>();
  for (const line of content.split('\n')) {
    const fact = /^\s*(?:[-*+]\s+)?\**_*([A-Za-z][\w -]{0,60}?)_*\**\s*:\**_*\s+(.+?)\s*$/.exec(line);
    if (!fact) continue;
    const key = normalizeKey(fact[1]!);
    if (!facts.has(key)) facts.set(key, [fact[1]!.trim(), fact[2]!.replace(/\*+|_+$/g, '').trim()]);
  }
  return { content, facts };
}

/** The answer object for a schema: its properties filled from the facts (missing ones left out). */
export function answerForSchema(schema: Schema | undefined, facts: PageFacts): Record<string, unknown> {
  const properties = isRecord(schema?.properties) ? (schema.properties as Record<string, Schema>) : undefined;
  if (!properties || Object.keys(properties).length === 0) {
    // No properties (prompt-only extraction): every fact, under a camelCase key.
    return Object.fromEntries([...facts.facts.values()].map(([key, value]) => [camelCase(key), value]));
  }
  const out: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const value = valueFor(name, property, facts);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** A value of the wrong type for every property (a schema-invalid answer, for repair tests). */
export function wrongShapeFor(schema: Schema | undefined): Record<string, unknown> {
  const properties = isRecord(schema?.properties) ? (schema.properties as Record<string, Schema>) : {};
  const out: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) out[name] = typeOf(property) === 'string' ? 12345 : 'not the right type';
  if (Object.keys(out).length === 0) return { unexpected: ['shape'] };
  return out;
}

export function summaryOf(facts: PageFacts): string {
  const first = facts.content
    .split('\n')
    .map((line) => line.replace(/^[#>*\-\s]+/, '').trim())
    .find(Boolean);
  return `Summary: ${(first ?? 'an empty page').slice(0, 200)}`;
}

/** A token count like a real API reports: about four characters per token. */
export const doubleTokens = (text: string) => Math.ceil(text.length / 4);

function valueFor(name: string, schema: Schema, facts: PageFacts): unknown {
  const type = typeOf(schema);
  if (type === 'object') {
    const nested = answerForSchema(schema, facts);
    return Object.keys(nested).length > 0 ? nested : undefined;
  }
  const fact = facts.facts.get(normalizeKey(name));
  if (!fact) return undefined;
  return coerce(fact[1], schema);
}

function coerce(text: string, schema: Schema): unknown {
  switch (typeOf(schema)) {
    case 'number': {
      const number = Number.parseFloat(text.replace(/[^\d.-]/g, ''));
      return Number.isFinite(number) ? number : undefined;
    }
    case 'integer': {
      const number = Number.parseInt(text.replace(/[^\d-]/g, ''), 10);
      return Number.isFinite(number) ? number : undefined;
    }
    case 'boolean':
      return /^(yes|true|1|in stock)$/i.test(text);
    case 'array': {
      const items = isRecord(schema.items) ? (schema.items as Schema) : {};
      return text
        .split(/\s*,\s*/)
        .filter(Boolean)
        .map((item) => coerce(item, items))
        .filter((item) => item !== undefined);
    }
    default:
      return text;
  }
}

function typeOf(schema: Schema): string | undefined {
  const type = schema.type;
  if (Array.isArray(type)) return type.find((entry) => entry !== 'null') as string | undefined;
  if (typeof type === 'string') return type;
  return isRecord(schema.properties) ? 'object' : undefined;
}

const normalizeKey = (key: string) => key.toLowerCase().replace(/[\s_-]/g, '');
const camelCase = (key: string) =>
  key
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+(\w)/g, (_, char: string) => char.toUpperCase());
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

import { ValidationError } from '@quarry/core';

/** Firecrawl's clients and tests send `__experimental_*` flags that come and go: accepted and ignored. */
const experimentalKey = /^__experimental/;

/**
 * The request body as an object; anything else is a 400 naming the body. Top-level
 * `__experimental_*` keys are dropped (Firecrawl accepts them; they change nothing here).
 */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationError('The request body must be a JSON object', 'body');
  }
  const record = body as Record<string, unknown>;
  if (!Object.keys(record).some((key) => experimentalKey.test(key))) return record;
  return Object.fromEntries(Object.entries(record).filter(([key]) => !experimentalKey.test(key)));
}

/** Splits off what SDKs add to every body (`origin`, `integration`) and the listed keys. */
export function take<K extends string>(body: Record<string, unknown>, keys: K[]): { picked: Record<K, unknown>; rest: Record<string, unknown> } {
  const picked = {} as Record<K, unknown>;
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if ((keys as string[]).includes(key)) picked[key as K] = value;
    else if (key !== 'origin' && key !== 'integration') rest[key] = value;
  }
  return { picked, rest };
}

export function requireString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ValidationError(`\`${field}\` is required and must be a non-empty string; got ${value === undefined ? 'nothing' : JSON.stringify(value)}`, field);
  }
  return value;
}

/** `?skip=&limit=` as non-negative integers. */
export function pageQuery(query: unknown): { skip: number; limit: number | undefined } {
  const record = (query ?? {}) as Record<string, string | undefined>;
  const number = (field: 'skip' | 'limit', minimum: number) => {
    const raw = record[field];
    if (raw === undefined || raw === '') return undefined;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < minimum) {
      throw new ValidationError(`\`${field}\` must be an integer >= ${minimum}; got ${JSON.stringify(raw)}`, field);
    }
    return value;
  };
  return { skip: number('skip', 0) ?? 0, limit: number('limit', 1) };
}

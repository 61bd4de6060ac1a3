/**
 * Limits a request meets before any route sees it, each answered 400 naming what was too much:
 * how deep the JSON body nests (a deep body overflows the stack of every recursive walk after
 * JSON.parse: validation, defaults, logging), how far a JSON schema in it expands once its $refs
 * are followed (a $ref bomb), and how long a path parameter is.
 */
import { ValidationError } from '@quarry/core';

/** Deepest JSON nesting accepted; Firecrawl's bodies (schemas included) stay far below. */
export const maxBodyDepth = 64;
/** Longest path parameter (a job id is 36 characters). */
export const maxParamLength = 256;

/**
 * How deep `text` nests arrays and objects, counted in one pass without parsing, so a hostile body
 * is refused before JSON.parse builds it. Stops counting past `limit`.
 */
export function jsonDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 92 /* \\ */) index++;
      else if (code === 34 /* " */) inString = false;
    } else if (code === 34) inString = true;
    else if (code === 123 /* { */ || code === 91 /* [ */) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (code === 125 /* } */ || code === 93 /* ] */) depth--;
  }
  return deepest;
}

/** Parses a JSON request body within the depth limit; throws ValidationError naming `body`. */
export function parseJsonBody(text: string): unknown {
  if (jsonDepth(text, maxBodyDepth) > maxBodyDepth) {
    throw new ValidationError(`The request body nests arrays and objects more than ${maxBodyDepth} levels deep`, 'body');
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new ValidationError(`The request body is not valid JSON: ${(error as Error).message}`, 'body');
  }
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) checkBodySchemas(body as Record<string, unknown>);
  return body;
}

export function paramTooLong(): ValidationError {
  return new ValidationError(`A path parameter (an id) is longer than ${maxParamLength} characters`, 'id');
}

/** Most nodes a JSON schema may expand to once its `$ref`s are followed. */
export const maxSchemaExpansion = 100_000;

function pointerTarget(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * The node count of a schema with its local `$ref`s expanded, computed once per reference
 * (memoised), so a `$ref` bomb (each definition referencing the previous one twice) is measured
 * without being expanded. A reference back into one being measured counts as one node.
 */
export function schemaExpansion(root: unknown): number {
  const sizes = new Map<string, number>();
  const active = new Set<string>();
  const measure = (node: unknown): number => {
    if (typeof node !== 'object' || node === null) return 1;
    let total = 1;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        if (active.has(value)) total += 1;
        else {
          let size = sizes.get(value);
          if (size === undefined) {
            active.add(value);
            size = measure(pointerTarget(root, value));
            active.delete(value);
            sizes.set(value, size);
          }
          total += size;
        }
      } else total += measure(value);
      if (total > maxSchemaExpansion) return total;
    }
    return total;
  };
  return measure(root);
}

function checkSchema(schema: unknown, field: string): void {
  if (typeof schema !== 'object' || schema === null) return;
  if (schemaExpansion(schema) > maxSchemaExpansion) {
    throw new ValidationError(`\`${field}\` expands to more than ${maxSchemaExpansion} nodes once its $refs are followed`, field);
  }
}

/** Every JSON schema a body can carry: extract's `schema`, `jsonOptions.schema`, json formats. */
export function checkBodySchemas(body: Record<string, unknown>, prefix = ''): void {
  checkSchema(body.schema, `${prefix}schema`);
  const jsonOptions = body.jsonOptions;
  if (typeof jsonOptions === 'object' && jsonOptions !== null) checkSchema((jsonOptions as Record<string, unknown>).schema, `${prefix}jsonOptions.schema`);
  if (Array.isArray(body.formats)) {
    body.formats.forEach((format, index) => {
      if (typeof format === 'object' && format !== null) checkSchema((format as Record<string, unknown>).schema, `${prefix}formats[${index}].schema`);
    });
  }
  const scrapeOptions = body.scrapeOptions;
  if (prefix === '' && typeof scrapeOptions === 'object' && scrapeOptions !== null)
    checkBodySchemas(scrapeOptions as Record<string, unknown>, 'scrapeOptions.');
}

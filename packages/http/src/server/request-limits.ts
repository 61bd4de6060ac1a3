/**
 * Limits a request meets before any route sees it, each answered 400 naming what was too much:
 * how deep the JSON body nests (a deep body overflows the stack of every recursive walk after
 * JSON.parse: validation, defaults, logging) and how long a path parameter is.
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
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ValidationError(`The request body is not valid JSON: ${(error as Error).message}`, 'body');
  }
}

export function paramTooLong(): ValidationError {
  return new ValidationError(`A path parameter (an id) is longer than ${maxParamLength} characters`, 'id');
}

import type { FieldIssue } from '../errors.js';
import type { FormatSpec } from '../options/formats.js';
import { checkJsonSchema } from './json-schema-check.js';

/**
 * Request-time checks of the json formats of scrape options, so a bad schema is a 400 before any
 * page is fetched or any job is started. `fieldOf(index)` names where format `index`'s options sit
 * in the request (`formats[2]` in v2, `jsonOptions` or `extract` in v1).
 */
export function jsonFormatIssues(formats: readonly FormatSpec[], fieldOf: (index: number) => string): FieldIssue[] {
  return formats.flatMap((format, index) =>
    format.type === 'json' && format.schema !== undefined ? checkJsonSchema(format.schema, `${fieldOf(index)}.schema`) : [],
  );
}

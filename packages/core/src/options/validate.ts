import type { ErrorObject } from 'ajv';
import type { Static, TSchema } from '@sinclair/typebox';
import { ValidationError, type FieldIssue } from '../errors.js';
import { validatorFor } from './validators.js';

/**
 * Validates `value` against `schema` in place (defaults are written into it) and returns it typed.
 * Throws a ValidationError whose issues name each field, what it must be and what arrived.
 * `prefix` is put before every field path (e.g. `scrapeOptions`).
 */
export function validate<T extends TSchema>(schema: T, value: unknown, prefix = ''): Static<T> {
  const check = validatorFor(schema);
  if (check(value)) return value as Static<T>;
  throw new ValidationError(describeErrors(check.errors ?? [], prefix));
}

/** Turns ajv's errors into one readable issue per field, dropping the noise of union branches. */
export function describeErrors(errors: ErrorObject[], prefix = ''): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (error.keyword === 'oneOf' || error.keyword === 'anyOf' || error.keyword === 'if') continue;
    const field = joinPath(prefix, pointerToPath(error.instancePath));
    const issue = describeError(error, field);
    const key = `${issue.field}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  if (issues.length === 0 && errors[0]) {
    const field = joinPath(prefix, pointerToPath(errors[0].instancePath));
    issues.push({ field, message: `\`${field || 'body'}\` is invalid: ${errors[0].message ?? 'unknown reason'}` });
  }
  return collapseUnionIssues(issues);
}

/** ajv keyword -> the issue code Firecrawl's clients know (zod's). */
const issueCodes: Record<string, string> = {
  type: 'invalid_type',
  required: 'invalid_type',
  minimum: 'too_small',
  exclusiveMinimum: 'too_small',
  minLength: 'too_small',
  minItems: 'too_small',
  minProperties: 'too_small',
  maximum: 'too_big',
  exclusiveMaximum: 'too_big',
  maxLength: 'too_big',
  maxItems: 'too_big',
  maxProperties: 'too_big',
  additionalProperties: 'unrecognized_keys',
  enum: 'invalid_enum_value',
  const: 'invalid_enum_value',
  discriminator: 'invalid_union_discriminator',
  pattern: 'invalid_string',
  format: 'invalid_string',
};

function describeError(error: ErrorObject, field: string): FieldIssue {
  const issue = describeErrorText(error, field);
  const code = issueCodes[error.keyword];
  return code ? { ...issue, code } : issue;
}

function describeErrorText(error: ErrorObject, field: string): FieldIssue {
  const name = field || 'body';
  const got = describeValue(error.data);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const full = joinPath(field, key);
      return {
        field: full,
        message: `Unrecognized key in body: \`${full}\` is not a known option${field ? ` of \`${field}\`` : ''}`,
      };
    }
    case 'required': {
      const full = joinPath(field, String(params.missingProperty));
      return { field: full, message: `\`${full}\` is required` };
    }
    case 'type':
      return { field, message: `\`${name}\` must be ${article(String(params.type))}; got ${got}` };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return { field, message: `\`${name}\` must be ${String(params.comparison)} ${String(params.limit)}; got ${got}` };
    case 'minLength':
      return { field, message: `\`${name}\` must not be shorter than ${String(params.limit)} characters; got ${got}` };
    case 'maxLength':
      return { field, message: `\`${name}\` must not be longer than ${String(params.limit)} characters; got ${String(error.data).length} characters` };
    case 'minItems':
    case 'maxItems':
      return {
        field,
        message: `\`${name}\` must have ${error.keyword === 'minItems' ? 'at least' : 'at most'} ${String(params.limit)} items; got ${Array.isArray(error.data) ? error.data.length : got}`,
      };
    case 'const':
      return { field, message: `\`${name}\` must be ${JSON.stringify(params.allowedValue)}; got ${got}` };
    case 'enum':
      return {
        field,
        message: `\`${name}\` must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}; got ${got}`,
      };
    case 'pattern':
      return { field, message: `\`${name}\` must match ${String(params.pattern)}; got ${got}` };
    case 'discriminator': {
      const tag = String(params.tag);
      const tagPath = joinPath(field, tag);
      const schema = error.parentSchema as { oneOf?: Array<{ properties?: Record<string, { const?: unknown }> }> } | undefined;
      const allowed = (schema?.oneOf ?? []).map((branch) => branch.properties?.[tag]?.const).filter((value) => value !== undefined);
      const value = (error.data as Record<string, unknown> | null)?.[tag];
      return {
        field: tagPath,
        message: `\`${tagPath}\` must be one of ${allowed.map((entry) => JSON.stringify(entry)).join(', ')}; got ${describeValue(value)}`,
      };
    }
    default:
      return { field, message: `\`${name}\` ${error.message ?? 'is invalid'}; got ${got}` };
  }
}

/** A plain union (anyOf of literals) reports one `const` error per branch: merge them into one enum message. */
function collapseUnionIssues(issues: FieldIssue[]): FieldIssue[] {
  const constPattern = /^`([^`]*)` must be (".*"|[^;]+); got (.*)$/;
  const merged = new Map<string, { values: string[]; got: string; index: number }>();
  const out: Array<FieldIssue | undefined> = [];
  for (const issue of issues) {
    const match = constPattern.exec(issue.message);
    if (match?.[2]?.startsWith('"')) {
      const entry = merged.get(issue.field);
      if (entry) {
        entry.values.push(match[2]);
        continue;
      }
      merged.set(issue.field, { values: [match[2]], got: match[3] ?? '', index: out.length });
      out.push(undefined);
      continue;
    }
    out.push(issue);
  }
  for (const [field, entry] of merged) {
    out[entry.index] =
      entry.values.length === 1
        ? { field, code: 'invalid_enum_value', message: `\`${field}\` must be ${entry.values[0]}; got ${entry.got}` }
        : { field, code: 'invalid_enum_value', message: `\`${field}\` must be one of ${entry.values.join(', ')}; got ${entry.got}` };
  }
  // A field that failed its literal branches and also a type check on another branch: keep the literal message.
  const fieldsWithEnum = new Set(merged.keys());
  return out.filter(
    (issue): issue is FieldIssue => issue !== undefined && !(fieldsWithEnum.has(issue.field) && / must be an? (object|array)/.test(issue.message)),
  );
}

function pointerToPath(pointer: string): string {
  if (!pointer) return '';
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

function joinPath(prefix: string, path: string): string {
  if (!prefix) return path;
  if (!path) return prefix;
  return path.startsWith('[') ? `${prefix}${path}` : `${prefix}.${path}`;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** A short, safe description of what arrived: never a whole body. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  return `${typeof value} ${String(value)}`;
}

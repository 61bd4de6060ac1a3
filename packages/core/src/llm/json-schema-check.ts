import type { ErrorObject, ValidateFunction, Ajv } from 'ajv';
import { createRequire } from 'node:module';
import type { FieldIssue } from '../errors.js';
import type { JsonSchema } from '../ports/search-provider.js';

/**
 * The caller's JSON Schema, checked before any page is fetched, and model output checked against
 * it after. One ajv instance for both: unknown keywords are tolerated (`strict: false`, as
 * Firecrawl tolerates them), formats are known (ajv-formats), every error is reported.
 *
 * Limits keep one request from costing the model (or ajv) an unbounded amount: a schema has at
 * most `maxNodes` subschemas and nests at most `maxDepth` deep, counted over every keyword that
 * holds subschemas.
 */
export const schemaLimits = { maxNodes: 500, maxDepth: 12 } as const;

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();
const maxCompiled = 200;

function instance(): Ajv {
  if (!ajv) {
    // ajv loads here, at the first caller's schema, not with the engine (issue 14, sixth pass).
    const { Ajv } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
    ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true, logger: false });
    (createRequire(import.meta.url)('ajv-formats') as typeof import('ajv-formats')).default(ajv);
  }
  return ajv;
}

/** Keywords whose value is a subschema, a list of them, or a record of them. */
const subschemaKeywords = {
  single: [
    'items',
    'additionalProperties',
    'not',
    'if',
    'then',
    'else',
    'contains',
    'propertyNames',
    'additionalItems',
    'unevaluatedItems',
    'unevaluatedProperties',
  ],
  list: ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'],
  record: ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'],
} as const;

/**
 * Issues with a caller's schema at `field` (e.g. `formats[0].schema` or `jsonOptions.schema`):
 * not an object schema, over the node or depth budget, or not a valid JSON Schema (ajv cannot
 * compile it: unknown `type`, unresolvable `$ref`...). Empty when the schema is usable.
 */
export function checkJsonSchema(schema: unknown, field: string): FieldIssue[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return [
      { field, message: `\`${field}\` must be a JSON Schema object; got ${schema === null ? 'null' : Array.isArray(schema) ? 'an array' : typeof schema}` },
    ];
  }
  const size = measureSchema(schema as JsonSchema);
  if (size.nodes > schemaLimits.maxNodes) {
    return [{ field, message: `\`${field}\` is too large: ${size.nodes} schema nodes, at most ${schemaLimits.maxNodes} are allowed` }];
  }
  if (size.depth > schemaLimits.maxDepth) {
    return [{ field, message: `\`${field}\` is nested too deep: ${size.depth} levels (at ${size.deepestPath}), at most ${schemaLimits.maxDepth} are allowed` }];
  }
  const type = (schema as JsonSchema).type;
  if (type !== undefined && type !== 'object') {
    return [{ field, message: `\`${field}\` must describe an object (\`type: "object"\`); got type ${JSON.stringify(type)}` }];
  }
  try {
    compile(schema as JsonSchema);
  } catch (error) {
    return [{ field, message: `\`${field}\` is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}` }];
  }
  return [];
}

export interface SchemaSize {
  nodes: number;
  depth: number;
  deepestPath: string;
}

/** Subschemas in a schema and how deep they nest (the root is depth 1). */
export function measureSchema(schema: JsonSchema): SchemaSize {
  const size: SchemaSize = { nodes: 0, depth: 0, deepestPath: '' };
  const visit = (node: unknown, depth: number, path: string) => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
    size.nodes++;
    if (depth > size.depth) {
      size.depth = depth;
      size.deepestPath = path || '(root)';
    }
    // Stop counting early: a hostile schema may be huge.
    if (size.nodes > schemaLimits.maxNodes || depth > schemaLimits.maxDepth) return;
    const record = node as Record<string, unknown>;
    for (const keyword of subschemaKeywords.single) {
      if (!Array.isArray(record[keyword])) visit(record[keyword], depth + 1, joinPath(path, keyword));
    }
    for (const keyword of subschemaKeywords.list) {
      const value = record[keyword];
      if (Array.isArray(value)) value.forEach((item, index) => visit(item, depth + 1, `${joinPath(path, keyword)}[${index}]`));
    }
    for (const keyword of subschemaKeywords.record) {
      const value = record[keyword];
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        for (const [name, child] of Object.entries(value)) visit(child, depth + 1, joinPath(path, `${keyword}.${name}`));
      }
    }
  };
  visit(schema, 1, '');
  return size;
}

/** Whether `value` follows `schema`, and if not, one line per problem (path and reason). */
export function validateAgainstSchema(schema: JsonSchema, value: unknown): { valid: boolean; problems: string[] } {
  const check = compile(schema);
  if (check(value)) return { valid: true, problems: [] };
  return { valid: false, problems: (check.errors ?? []).slice(0, 20).map(describeProblem) };
}

function compile(schema: JsonSchema): ValidateFunction {
  const key = JSON.stringify(schema);
  let check = compiled.get(key);
  if (!check) {
    // `$id` would register the schema globally in ajv (a second compile would then fail): drop it.
    const { $id: _id, ...anonymous } = schema;
    check = instance().compile(anonymous);
    if (compiled.size >= maxCompiled) compiled.delete(compiled.keys().next().value as string);
    compiled.set(key, check);
  }
  return check;
}

function describeProblem(error: ErrorObject): string {
  const path = error.instancePath ? error.instancePath.slice(1).replace(/\//g, '.') : '(root)';
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return `${path}: missing required property "${String(params.missingProperty)}"`;
  if (error.keyword === 'additionalProperties') return `${path}: unexpected property "${String(params.additionalProperty)}"`;
  return `${path}: ${error.message ?? 'is invalid'}`;
}

const joinPath = (path: string, name: string) => (path ? `${path}.${name}` : name);

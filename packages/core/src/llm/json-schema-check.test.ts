import { describe, expect, it } from 'vitest';
import type { ValidationError } from '../errors.js';
import { parseScrapeOptions } from '../options/normalize-scrape-options.js';
import { checkJsonSchema, measureSchema, schemaLimits, validateAgainstSchema } from './json-schema-check.js';

const deep = (levels: number): Record<string, unknown> => (levels <= 1 ? { type: 'string' } : { type: 'object', properties: { a: deep(levels - 1) } });
const wide = (count: number) => ({
  type: 'object',
  properties: Object.fromEntries(Array.from({ length: count }, (_, index) => [`f${index}`, { type: 'string' }])),
});

describe('checkJsonSchema', () => {
  it('accepts an object schema, tolerating keywords it does not know', () => {
    expect(checkJsonSchema({ type: 'object', properties: { name: { type: 'string', 'x-label': 'Name' } }, 'x-extra': 1 }, 's')).toEqual([]);
  });

  it('names the field of a malformed schema', () => {
    expect(checkJsonSchema({ type: 'object', properties: { name: { type: 'strng' } } }, 'formats[0].schema')).toEqual([
      { field: 'formats[0].schema', message: expect.stringMatching(/^`formats\[0\]\.schema` is not a valid JSON Schema: .*type/) },
    ]);
    expect(checkJsonSchema({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }, 's')[0]?.message).toMatch(/not a valid JSON Schema/);
    expect(checkJsonSchema('nope', 's')[0]?.message).toBe('`s` must be a JSON Schema object; got string');
    expect(checkJsonSchema({ type: 'array', items: {} }, 's')[0]?.message).toBe('`s` must describe an object (`type: "object"`); got type "array"');
  });

  it('refuses schemas over the node or depth budget', () => {
    expect(checkJsonSchema(wide(schemaLimits.maxNodes), 's')[0]?.message).toBe(
      `\`s\` is too large: ${schemaLimits.maxNodes + 1} schema nodes, at most ${schemaLimits.maxNodes} are allowed`,
    );
    expect(checkJsonSchema(deep(schemaLimits.maxDepth + 1), 's')[0]?.message).toMatch(/^`s` is nested too deep: 13 levels \(at properties\.a\.properties\.a/);
    expect(checkJsonSchema(deep(schemaLimits.maxDepth), 's')).toEqual([]);
  });

  it('counts subschemas under every keyword that holds them', () => {
    expect(
      measureSchema({
        type: 'object',
        properties: { a: { anyOf: [{ type: 'string' }, { type: 'null' }] }, b: { type: 'array', items: { type: 'number' } } },
        $defs: { c: {} },
      }),
    ).toMatchObject({ nodes: 7, depth: 3 });
  });
});

describe('validateAgainstSchema', () => {
  it('lists each problem with its path', () => {
    const schema = { type: 'object', properties: { price: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } }, required: ['name'] };
    expect(validateAgainstSchema(schema, { price: '3', tags: ['a', 1] })).toEqual({
      valid: false,
      problems: ['(root): missing required property "name"', 'price: must be number', 'tags.1: must be string'],
    });
    expect(validateAgainstSchema(schema, { name: 'x', price: 3 }).valid).toBe(true);
  });

  it('knows formats and compiles a schema with $id more than once', () => {
    const schema = { $id: 'https://example.com/s', type: 'object', properties: { at: { type: 'string', format: 'date' } } };
    expect(validateAgainstSchema(schema, { at: 'yesterday' }).valid).toBe(false);
    expect(validateAgainstSchema({ ...schema, title: 'again' }, { at: '2024-01-02' }).valid).toBe(true);
  });
});

describe('scrape options with a json format', () => {
  const issuesOf = (version: 'v1' | 'v2', input: unknown) => {
    try {
      parseScrapeOptions(version, input);
      return [];
    } catch (error) {
      return (error as ValidationError).issues;
    }
  };

  it('answers 400 naming the v2 format, the v1 jsonOptions or extract field', () => {
    const bad = { type: 'object', properties: { a: { type: 'nope' } } };
    expect(issuesOf('v2', { formats: ['markdown', { type: 'json', schema: bad }] }).map((issue) => issue.field)).toEqual(['formats[1].schema']);
    expect(issuesOf('v1', { formats: ['json'], jsonOptions: { schema: bad } }).map((issue) => issue.field)).toEqual(['jsonOptions.schema']);
    expect(issuesOf('v1', { formats: ['extract'], extract: { schema: bad } }).map((issue) => issue.field)).toEqual(['extract.schema']);
    expect(issuesOf('v2', { formats: [{ type: 'json', schema: deep(20) }] })[0]?.message).toMatch(/nested too deep/);
  });

  it('answers 400 for a prompt over 10 000 characters, and v2 refuses systemPrompt', () => {
    expect(issuesOf('v2', { formats: [{ type: 'json', prompt: 'x'.repeat(10_001) }] }).map((issue) => issue.field)).toEqual(['formats[0].prompt']);
    expect(issuesOf('v1', { formats: ['json'], jsonOptions: { prompt: 'x'.repeat(10_001) } }).map((issue) => issue.field)).toEqual(['jsonOptions.prompt']);
    expect(issuesOf('v2', { formats: [{ type: 'json', prompt: 'p', systemPrompt: 's' }] }).length).toBeGreaterThan(0);
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { parseServerConfig, renderEnvTable, serverConfigSchema } from './server-config.js';

describe('server config', () => {
  it('fills defaults and coerces numbers', () => {
    const config = parseServerConfig({ PORT: '4000' });
    expect(config.PORT).toBe(4000);
    expect(config.HOST).toBe('127.0.0.1');
    expect(config.QUARRY_DATA_DIR).toBe('./.quarry');
  });

  it('names the variable that is wrong', () => {
    expect(() => parseServerConfig({ PORT: 'eighty' })).toThrow(ValidationError);
    expect(() => parseServerConfig({ PORT: 'eighty' })).toThrow(/PORT must be an integer/);
  });

  it('matches the table in the README', () => {
    const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
    const section = /<!-- env-table:start -->\n([\s\S]*?)\n<!-- env-table:end -->/.exec(readme)?.[1];
    if (process.env.UPDATE_FIXTURES && section !== renderEnvTable()) {
      writeFileSync(
        new URL('../../../../README.md', import.meta.url),
        readme.replace(/<!-- env-table:start -->[\s\S]*?<!-- env-table:end -->/, `<!-- env-table:start -->\n${renderEnvTable()}\n<!-- env-table:end -->`),
      );
      return;
    }
    expect(section, 'README env table is stale: run UPDATE_FIXTURES=1 npx vitest run server-config').toBe(renderEnvTable());
  });
});

/** What compiling the whole schema gives (the reading before it validated only the variables set). */
function wholeSchema(env: Record<string, string>): unknown {
  const check = new Ajv({ useDefaults: true, coerceTypes: true, allErrors: true, strict: false, verbose: true }).compile(serverConfigSchema);
  const value = { ...env };
  expect(check(value)).toBe(true);
  return value;
}

describe('server config, read from the variables set', () => {
  it.each([
    ['nothing set', {}],
    ['a few variables set', { QUARRY_TRANSFORM_HEAP_MB: '256', QUARRY_AUTH: 'off', QUARRY_MAX_BODY_BYTES: '2048', QUARRY_ROLE: 'api' }],
  ])('with %s, reads what validating the whole schema reads, in the schema order', (_name, env) => {
    const config = parseServerConfig(env);
    expect(config).toEqual(wholeSchema(env));
    expect(Object.keys(config)).toEqual(Object.keys(serverConfigSchema.properties).filter((name) => name in config));
    expect(config.QUARRY_TRANSFORM_HEAP_MB).toBe('QUARRY_TRANSFORM_HEAP_MB' in env ? 256 : 128);
  });

  it('refuses a variable outside its schema, naming it', () => {
    expect(() => parseServerConfig({ QUARRY_TRANSFORM_HEAP_MB: 'lots' })).toThrow(/environment variable QUARRY_TRANSFORM_HEAP_MB/);
    expect(() => parseServerConfig({ QUARRY_AUTH: 'sometimes' })).toThrow(/QUARRY_AUTH/);
  });

  it('gives every call its own copy of a default', () => {
    const first = parseServerConfig({}) as Record<string, unknown>;
    const second = parseServerConfig({}) as Record<string, unknown>;
    for (const [name, fallback] of Object.entries(first)) if (typeof fallback === 'object' && fallback !== null) expect(second[name]).not.toBe(fallback);
  });
});

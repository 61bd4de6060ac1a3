import type { Ajv, ValidateFunction } from 'ajv';
import { createRequire } from 'node:module';
import type { TSchema } from '@sinclair/typebox';

/**
 * One ajv instance for every option schema: defaults applied (`useDefaults`), every error
 * reported (`allErrors`), discriminated unions understood. Compiled validators are cached per
 * schema object, so validating a request costs one function call.
 */
let ajv: Ajv | undefined;
const compiled = new WeakMap<object, ValidateFunction>();
const generated = new WeakMap<object, ValidateFunction>();

/**
 * ajv itself loads at the first schema compiled at run time: a crawl's validators and the server
 * configuration's are generated at build time, so a `quarry crawl` loads none of it (~40 ms).
 */
export function loadAjv(): typeof Ajv {
  return (createRequire(import.meta.url)('ajv') as typeof import('ajv')).Ajv;
}

/** The options every validator is compiled with, here or ahead of time (scripts/validator-code.ts). */
export const ajvOptions = { useDefaults: true, allErrors: true, discriminator: true, strict: false, verbose: true, validateSchema: false } as const;

/** How the server configuration is read: defaults written, strings coerced to the schema's types. */
export const serverConfigOptions = { useDefaults: true, coerceTypes: true, allErrors: true, strict: false, verbose: true, validateSchema: false } as const;

function instance(): Ajv {
  // Only Quarry's own schemas come here (a caller's JSON schema goes to llm/json-schema-check.ts),
  // so they are not checked against ajv's meta-schema: compiling that took ~40 ms of every start.
  ajv ??= new (loadAjv())(ajvOptions);
  return ajv;
}

/** The validator of `schema`: generated at build time (`usePrecompiled`), else compiled once here. */
export function validatorFor(schema: TSchema): ValidateFunction {
  let check = compiled.get(schema);
  if (!check) {
    check = instance().compile(schema);
    compiled.set(schema, check);
  }
  return check;
}

/**
 * Uses `check`, generated from `schema` at build time (ajv standalone code), instead of compiling
 * the schema at its first use (`precompiled.ts`).
 */
export function usePrecompiled(schema: TSchema, check: ValidateFunction): void {
  compiled.set(schema, check);
  generated.set(schema, check);
}

/** The validator generated at build time for `schema`, if any. */
export function precompiled(schema: TSchema): ValidateFunction | undefined {
  return generated.get(schema);
}

/**
 * Writes core's option validators as ajv standalone code into packages/core/src/options/ (the code
 * comes from packages/core/scripts/validator-code.ts). Run by core's `npm run build`; it lives here,
 * not in core, because core does no file I/O.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serverConfigValidatorCode, validatorCode } from '../packages/core/scripts/validator-code.js';

for (const [file, code] of [
  ['precompiled-validators.generated.js', validatorCode()],
  ['server-config-validator.generated.js', serverConfigValidatorCode()],
] as const) {
  const target = fileURLToPath(new URL(`../packages/core/src/options/${file}`, import.meta.url));
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {}
  if (current !== code) writeFileSync(target, code);
}

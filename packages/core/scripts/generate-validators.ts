/** Writes the crawl's option validators as ajv standalone code (see validator-code.ts). Run by `npm run build`. */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serverConfigValidatorCode, validatorCode } from './validator-code.js';

for (const [file, code] of [
  ['precompiled-validators.generated.js', validatorCode()],
  ['server-config-validator.generated.js', serverConfigValidatorCode()],
] as const) {
  const target = fileURLToPath(new URL(`../src/options/${file}`, import.meta.url));
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {}
  if (current !== code) writeFileSync(target, code);
}

/** Writes the crawl's option validators as ajv standalone code (see validator-code.ts). Run by `npm run build`. */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validatorCode } from './validator-code.js';

const target = fileURLToPath(new URL('../src/options/precompiled-validators.generated.js', import.meta.url));
const code = validatorCode();
let current = '';
try {
  current = readFileSync(target, 'utf8');
} catch {}
if (current !== code) writeFileSync(target, code);

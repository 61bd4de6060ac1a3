import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The built `dist/header-generator.cjs` (tsup.config.ts) reads header-generator's networks from
 * gzipped JSON written at build time, not from its zip files through adm-zip: the networks it builds
 * must be the package's, and it must generate the same headers from the same random numbers.
 */
const require = createRequire(import.meta.url);
const bundlePath = fileURLToPath(new URL('../dist/header-generator.cjs', import.meta.url));
type Generator = { getHeaders(): Record<string, string> } & Record<string, unknown>;
const generatorOf = (path: string): Generator => {
  const { HeaderGenerator } = require(path) as { HeaderGenerator: new () => Generator };
  return new HeaderGenerator();
};

/** A fixed stream of numbers in [0, 1) in place of Math.random. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const random = Math.random;
afterEach(() => {
  Math.random = random;
});

describe('header-generator bundle', () => {
  it('builds the networks of the package, without adm-zip', () => {
    const bundled = generatorOf(bundlePath);
    const original = generatorOf('header-generator');
    for (const network of ['inputGeneratorNetwork', 'headerGeneratorNetwork']) {
      expect(JSON.stringify(bundled[network])).toBe(JSON.stringify(original[network]));
    }
    expect(bundled['headersOrder']).toEqual(original['headersOrder']);
    expect(readFileSync(bundlePath, 'utf8')).not.toContain('node_modules/adm-zip/');
  });

  it('generates the same headers from the same random numbers', () => {
    const bundled = generatorOf(bundlePath);
    const original = generatorOf('header-generator');
    for (let seed = 1; seed <= 100; seed++) {
      Math.random = seededRandom(seed);
      const expected = original.getHeaders();
      Math.random = seededRandom(seed);
      expect(bundled.getHeaders()).toEqual(expected);
    }
  });
});

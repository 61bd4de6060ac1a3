import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The README's figures come from the benchmark READMEs: in every paragraph, list item or table row
 * of the README that names one benchmark (`benchmarks/NAME`), each number must appear in
 * benchmarks/NAME/README.md. A benchmark re-run that changes a figure fails this test until the
 * README quotes the new one.
 */
const root = new URL('../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');

/** Paragraphs, list items and table rows. */
function blocks(markdown: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length) out.push(current.join(' '));
    current = [];
  };
  for (const line of markdown.split('\n')) {
    if (line.trim() === '' || line.startsWith('#') || line.startsWith('```')) flush();
    else if (line.startsWith('|') || /^\s*([-*]|\d+\.)\s/.test(line)) {
      flush();
      current.push(line);
    } else current.push(line);
  }
  flush();
  return out;
}

/** Numbers as written, thousands separators dropped: `5,000` -> `5000`, `x2.67` -> `2.67`. */
const numbersIn = (text: string) => new Set([...text.matchAll(/\d[\d,]*(?:\.\d+)?/g)].map((match) => match[0].replace(/,(?=\d{3})/g, '').replace(/,$/, '')));

export function unquotedFigures(markdown: string, benchmarkReadme: (name: string) => string): Array<{ benchmark: string; figure: string; block: string }> {
  const missing: Array<{ benchmark: string; figure: string; block: string }> = [];
  for (const block of blocks(markdown)) {
    const named = new Set([...block.matchAll(/benchmarks\/([a-z0-9-]+)(?![\w./-])/g)].map((match) => match[1]!));
    if (named.size !== 1) continue;
    const [benchmark] = named as Set<string>;
    const source = numbersIn(benchmarkReadme(benchmark!));
    const prose = block.replace(/`[^`]*`/g, ' ');
    for (const figure of numbersIn(prose)) if (!source.has(figure)) missing.push({ benchmark: benchmark!, figure, block: block.slice(0, 120) });
  }
  return missing;
}

const benchmarkReadme = (name: string) => readFileSync(new URL(`benchmarks/${name}/README.md`, root), 'utf8');

describe('README figures', () => {
  it('every figure next to a benchmark is in that benchmark’s README', () => {
    expect(unquotedFigures(readme, benchmarkReadme)).toEqual([]);
  });

  it('catches a stale figure', () => {
    const stale = '| `benchmarks/crawl-throughput` | Quarry 2.33x Crawlee in pages/s |';
    expect(unquotedFigures(stale, () => 'pages/s x2.67')).toEqual([{ benchmark: 'crawl-throughput', figure: '2.33', block: stale }]);
  });
});

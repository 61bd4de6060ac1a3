/**
 * Hostile page shapes: does the whole transform stay linear in the page's size? For each shape
 * (deep nesting, unclosed tags, thousands of siblings of one kind), the page is built at doubling
 * sizes and converted by Quarry's `transformHtml` (parse, main content, markdown: what a scrape
 * runs) and by turndown + turndown-plugin-gfm (its own parse) in the same process. Printed: CPU ms
 * per size and the growth of the last doubling (about 2 is linear, 4 is quadratic).
 *
 *   npx tsx benchmarks/html-to-markdown/hostile-scaling.ts [--sizes 8000,16000,32000] [--only nest] [--no-peer]
 *
 * A shape whose growth stays above 3 on a quiet machine is a page that can hold a transform
 * worker until its deadline.
 */
// @ts-expect-error turndown ships no types (and @types/turndown is not a dependency); typed below
import TurndownServiceUntyped from 'turndown';
// @ts-expect-error turndown-plugin-gfm ships no types
import { gfm } from 'turndown-plugin-gfm';
import { transformHtml } from '../../packages/core/src/transform.js';
import { argument, cpuMs } from './script-tools.js';

const repeat = (text: string, times: number): string => text.repeat(times);
const words = (count: number): string => Array.from({ length: count }, (_, index) => `word${index % 97}`).join(' ');

/** Each shape's page at size n (n is about the number of elements of the repeated unit). */
const shapes: Record<string, (n: number) => string> = {
  'nested div': (n) => `<body>${repeat('<div>', n)}x ${words(50)}${repeat('</div>', n)}`,
  'unclosed div+p': (n) => `<body>${repeat('<div><p>t ', n)}`,
  'nested list': (n) => `<body>${repeat('<ul><li>item ', n)}${repeat('</li></ul>', n)}`,
  'unclosed b+i': (n) => `<body><p>${repeat('<b><i>s ', n)}</p>`,
  'nested links': (n) => `<body><p>${repeat('<a href="/x">s ', n)}</p>`,
  'nested tables': (n) => `<body>${repeat('<table><tr><td>c ', n)}${repeat('</td></tr></table>', n)}`,
  'nested sections': (n) => `<body>${repeat(`<section><h2>h</h2><p>${words(5)}</p>`, n)}${repeat('</section>', n)}`,
  'nested dl': (n) => `<body>${repeat('<dl><dt>t</dt><dd>d ', n)}${repeat('</dd></dl>', n)}`,
  'unclosed span+div': (n) => `<body><span>${repeat('<div>d</div><span>s', n)}</span>`,
  paragraphs: (n) => `<body><article>${repeat(`<p>${words(12)}</p>`, n)}</article>`,
  'link rows': (n) => `<body>${repeat('<div><a href="/a">link</a> text here</div>', n)}`,
  headings: (n) => `<body><main>${repeat(`<h3>H</h3><p>${words(8)}</p>`, n)}</main>`,
  'table rows': (n) => `<body><table>${repeat(`<tr>${repeat('<td>cell</td>', 10)}</tr>`, Math.ceil(n / 10))}</table>`,
  lists: (n) => `<body>${repeat('<ul><li><a href="/x">a</a></li><li>b</li></ul>', n)}`,
  figures: (n) => `<body><article>${repeat(`<figure><img src="/i.png"><figcaption>cap</figcaption></figure><p>${words(6)}</p>`, n)}</article>`,
  'code blocks': (n) => `<body>${repeat('<pre><code class="language-js">x=1\n</code></pre>', n)}`,
  emphasis: (n) => `<body><p>${repeat('<em>e</em><strong>s</strong>', n)}</p>`,
  forms: (n) => `<body>${repeat(`<form><input><label>l</label></form><p>${words(4)}</p>`, n)}`,
  footers: (n) => `<body><article>${repeat(`<p>${words(6)}</p><footer>f</footer>`, n)}</article>`,
  'nav and aside': (n) => `<body>${repeat('<nav><a href="/1">1</a></nav><aside>a</aside>', n)}`,
  'headings in links': (n) => `<body>${repeat('<a href="/x"><h2>t</h2><p>p</p></a>', n)}`,
  'stray cells': (n) => `<body>${repeat('<td>cell', n)}`,
  'comments after article': (n) =>
    `<body><main><h1>Title of the story</h1><article>${repeat(`<p>${words(40)}.</p>`, 20)}</article>${repeat(`<div><p>${words(9)}.</p><a href="/reply">Reply</a></div>`, n)}</main>`,
};

interface TurndownService {
  use(plugin: unknown): TurndownService;
  remove(filter: string[]): TurndownService;
  turndown(html: string): string;
}
const TurndownService = TurndownServiceUntyped as new (options: Record<string, string>) => TurndownService;

function quarry(html: string): void {
  transformHtml({
    html,
    url: 'http://127.0.0.1/page',
    onlyMainContent: true,
    includeTags: [],
    excludeTags: [],
    removeBase64Images: true,
    want: { markdown: true, html: false, links: true, images: false, signals: true },
  });
}

/** Past this, a variant's larger sizes are skipped (it would only measure the same growth slower). */
const giveUpMs = 20_000;

function main(): void {
  const sizes = (argument('--sizes') ?? '8000,16000,32000').split(',').map(Number);
  const only = argument('--only');
  const withPeer = !process.argv.includes('--no-peer');
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' }).use(gfm);
  turndown.remove(['script', 'style']);
  const variants: [string, (html: string) => void][] = [['quarry', quarry]];
  if (withPeer) variants.push(['turndown', (html) => void turndown.turndown(html)]);

  console.log(`CPU ms per page at n = ${sizes.join(', ')}; growth = last doubling's ratio (2 linear, 4 quadratic)\n`);
  console.log(
    `${'shape'.padEnd(24)}${variants.map(([name]) => `${name.padEnd(10)}${sizes.map((size) => String(size).padStart(9)).join('')}   growth`).join('   |   ')}`,
  );
  for (const [shape, build] of Object.entries(shapes)) {
    if (only && !shape.includes(only)) continue;
    const cells: string[] = [];
    for (const [, convert] of variants) {
      const times: number[] = [];
      for (const size of sizes) {
        if (times.length > 0 && times.at(-1)! > giveUpMs) break;
        const html = build(size);
        let failed = false;
        const ms = cpuMs(() => {
          try {
            convert(html);
          } catch {
            failed = true;
          }
        });
        times.push(failed ? Number.NaN : ms);
      }
      const cellsOfSizes = sizes.map((_, index) =>
        (times[index] === undefined ? 'skipped' : Number.isNaN(times[index]) ? 'error' : times[index]!.toFixed(0)).padStart(9),
      );
      const [previous, last] = [times.at(-2), times.at(-1)];
      const growth = previous && last && times.length === sizes.length ? (last / previous).toFixed(1) : '-';
      cells.push(`${''.padEnd(10)}${cellsOfSizes.join('')}   ${growth.padStart(6)}`);
    }
    console.log(`${shape.padEnd(24)}${cells.join('   |   ')}`);
  }
}

main();

/**
 * Hostile pages through the WHOLE html transform a scrape runs (`transformHtml`: limits, parse,
 * metadata, links, page signals, include/exclude tags, main content or not, markdown, html,
 * images), each shape built at doubling sizes, with `onlyMainContent` true and false. Printed per
 * shape and mode: CPU ms per size, the growth of the last doubling (about 2 is linear, 4
 * quadratic), and the largest output (markdown + html + links + images + metadata, in characters)
 * over the page's size: a transform whose output outgrows its input balloons the server's memory.
 *
 *   npx tsx benchmarks/html-to-markdown/hostile-transform.ts [--sizes 4000,8000,16000,32000] [--only 'table|pre'] [--mode main|all] [--repeat 3] [--decode]
 *
 * After the transform shapes, byte shapes go through `decodeBody` alone (`--decode`: only those).
 *
 * `--repeat k` keeps the least CPU time of k runs per size (a shared machine's noise only adds time).
 *
 * Flagged (`!`): growth above 2.6 at the top doubling, or output above 4x the page. Sizes stay
 * under the page limits (500,000 elements, 200,000 cells) where the shape allows; a page past a
 * limit is timed to its `too-large` answer (printed `limit`).
 */
import { decodeBody } from '../../packages/core/src/html/decode-body.js';
import { transformHtml } from '../../packages/core/src/transform.js';
import { argument, cpuMs } from './script-tools.js';

const repeat = (text: string, times: number): string => text.repeat(Math.max(0, Math.round(times)));
const words = (count: number): string => Array.from({ length: count }, (_, index) => `word${index % 97}`).join(' ');

/** Each shape's page at size n (about the number of repeated units; the bytes grow with n). */
const shapes: Record<string, (n: number) => string> = {
  'sibling blocks': (n) => `<body>${repeat('<div class="c"><span>a bit of text here.</span></div>', n)}`,
  'sibling articles': (n) => `<body>${repeat(`<article><h2>Title</h2><p>${words(6)}</p></article>`, n)}`,
  'table 10 cols': (n) => `<body><table>${repeat(`<tr>${repeat('<td>cell</td>', 10)}</tr>`, n / 10)}</table>`,
  'table with head': (n) => `<body><table><thead><tr><th>a</th><th>b</th></tr></thead><tbody>${repeat('<tr><td>x</td><td>y</td></tr>', n / 2)}</tbody></table>`,
  'wide row': (n) => `<body><table><tr>${repeat('<td>c</td>', n)}</tr></table>`,
  'wide head, 2 rows': (n) => `<body><table><tr>${repeat('<th>h</th>', n / 2)}</tr><tr>${repeat('<td>c</td>', n / 2)}</tr></table>`,
  'tables in cells': (n) => `<body><table><tr>${repeat('<td><table><tr><td>in</td><td>ner</td></tr></table></td>', n / 3)}</tr></table>`,
  'nested tables': (n) => `<body>${repeat('<table><tr><td>c ', n / 3)}${repeat('</td></tr></table>', n / 3)}`,
  'colspan 1e9': (n) => `<body><table>${repeat('<tr><td colspan="1000000000">c</td><td rowspan="1000000000">r</td></tr>', n / 3)}</table>`,
  'colspan 1e9 head': (n) => `<body><table><tr><th colspan="1000000000">h</th></tr>${repeat('<tr><td colspan="1000000000">c</td></tr>', n / 2)}</table>`,
  'nested lists': (n) => `<body>${repeat('<ul><li>item ', n / 2)}${repeat('</li></ul>', n / 2)}`,
  'nested ol': (n) => `<body>${repeat('<ol start="999999999"><li>item ', n / 2)}${repeat('</li></ol>', n / 2)}`,
  'nested quotes': (n) => `<body>${repeat('<blockquote><p>q ', n / 2)}${repeat('</p></blockquote>', n / 2)}`,
  'list in quote chain': (n) => `<body>${repeat('<blockquote><ul><li>q ', n / 3)}`,
  'giant text node': (n) => `<body><p>${words(n * 4)}</p>`,
  'giant word': (n) => `<body><p>${repeat('x', n * 20)}</p>`,
  'many links': (n) => `<body>${repeat('<a href="/p/1">l</a> ', n)}`,
  'distinct links': (n) => `<body>${Array.from({ length: n }, (_, index) => `<a href="/p/${index}">l${index}</a> `).join('')}`,
  'huge attribute': (n) => `<body><div data-x="${repeat('a', n * 20)}" class="${repeat('c ', n * 5)}"><p>${words(50)}</p></div>`,
  'huge href': (n) => `<body><p><a href="/${repeat('a', n * 20)}">x</a> ${words(50)}</p>`,
  'many headings': (n) => `<body><main>${repeat('<h2>Heading</h2>', n)}</main>`,
  'headings+para': (n) => `<body>${repeat(`<h3>H</h3><p>${words(3)}</p>`, n / 2)}`,
  'b/i run (closed)': (n) => `<body><p>${repeat('<b><i>', n / 2)}x${repeat('</i></b>', n / 2)}</p>`,
  'b/i run (unclosed)': (n) => `<body><p>${repeat('<b><i>s', n / 2)}</p><p>${words(50)}</p>`,
  'em siblings': (n) => `<body><p>${repeat('<em>a</em><strong>b</strong><code>c</code>', n / 3)}</p>`,
  'em spaces': (n) => `<body><p>${repeat('<em>  \n\t </em><b> </b>  ', n / 2)}${words(20)}</p>`,
  'em edge spaces': (n) => `<body><p>${repeat('<em> a </em><strong>\t b\n</strong>', n / 2)}</p>`,
  'many br': (n) => `<body><p>${repeat('<br>', n)}x</p>`,
  'br in pre': (n) => `<body><pre>${repeat('line<br>', n)}</pre>`,
  '1-word paragraphs': (n) => `<body>${repeat('<p>word</p>', n)}`,
  'huge pre': (n) => `<body><pre><code>${repeat('const x = 1; // ```\n', n)}</code></pre>`,
  'pre of backticks': (n) => `<body><pre>${Array.from({ length: n }, (_, index) => '`'.repeat((index % 50) + 1)).join('\n')}</pre>`,
  'inline code ticks': (n) => `<body><p>${Array.from({ length: n / 2 }, (_, index) => `<code>${'`'.repeat((index % 40) + 1)}</code>`).join(' ')}</p>`,
  'markdown chars': (n) => `<body><p>${repeat('*_[]#`<>\\|-+!~ ', n)}</p>`,
  'template blocks': (n) =>
    `<body>${repeat(`<div class="card"><img src="/i.png" alt="a"><h4>Product</h4><p>${words(4)}</p><a href="/buy">Buy</a><span>$9</span></div>`, n / 6)}`,
  'huge srcset': (n) =>
    `<body><article><p>${words(40)}</p><img src="/a.png" srcset="${Array.from({ length: n }, (_, index) => `/i${index}.png ${index + 1}w`).join(', ')}"></article>`,
  'data: urls': (n) => `<body><article><p>${words(40)}</p>${repeat(`<img src="data:image/png;base64,${repeat('QUFB', 50)}">`, n / 10)}</article>`,
  'one huge data: url': (n) => `<body><article><p>${words(40)}</p><img src="data:image/png;base64,${repeat('QUFB', n * 5)}"></article>`,
  'huge title+meta': (n) =>
    `<head><title>${words(n)}</title><meta name="description" content="${words(n)}"><meta property="og:title" content="${words(n)}"></head><body><p>${words(50)}</p>`,
  'many meta': (n) => `<head>${repeat('<meta name="keywords" content="a, b, c">', n)}</head><body><p>${words(50)}</p>`,
  'many base': (n) => `<head>${repeat('<base href="http://127.0.0.1/b/">', n)}</head><body><p><a href="x">x</a> ${words(50)}</p>`,
  'json-ld': (n) =>
    `<head><script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'Article', headline: 'h', articleBody: words(n * 5), items: Array.from({ length: n / 4 }, (_, index) => ({ '@type': 'Thing', name: `n${index}` })) })}</script></head><body><p>${words(50)}</p>`,
  'json-ld many': (n) =>
    `<head>${repeat('<script type="application/ld+json">{"@type":"Article","headline":"h","author":{"name":"a"}}</script>', n / 2)}</head><body><p>${words(50)}</p>`,
  'json-ld deep': (n) => `<head><script type="application/ld+json">${repeat('{"a":', n * 2)}1${repeat('}', n * 2)}</script></head><body><p>${words(50)}</p>`,
  'many scripts': (n) => `<body>${repeat('<script>var a=1</script><noscript>n</noscript>', n / 2)}<p>${words(50)}</p>`,
  'many iframes': (n) => `<body>${repeat('<iframe src="/f"></iframe>', n)}<p>${words(50)}</p>`,
  'many images': (n) => `<body><article>${Array.from({ length: n / 2 }, (_, index) => `<img src="/i${index}.png" alt="a">`).join('')}</article>`,
  'dl chain': (n) => `<body>${repeat('<dl><dt>t</dt><dd>d ', n / 3)}`,
  'sections chain': (n) => `<body>${repeat(`<section><h2>h</h2><p>${words(5)}</p>`, n / 3)}`,
  'select options': (n) => `<body><select>${repeat('<option>o</option>', n)}</select><p>${words(50)}</p>`,
  'svg paths': (n) => `<body><svg>${repeat('<path d="M0 0L1 1"/>', n)}</svg><p>${words(50)}</p>`,
  entities: (n) => `<body><p>${repeat('&amp;&lt;&#x1F600;&nbsp;&unknown;', n)}</p>`,
  'unicode mix': (n) => `<body><p>${repeat('\u200b\u202e\ud83d\ude00\u0000e\u0301 ', n)}</p>`,
  // Page stylesheets (`page-styles.ts`), the title lead, author boxes and chrome lines (session 13h).
  'style unclosed /*': (n) => `<head><style>.x{display:none} ${repeat('/* c ', n)}</style></head><body><p class="x">hidden</p><p>${words(50)}</p>`,
  'style selector list': (n) =>
    `<head><style>${Array.from({ length: n }, (_, index) => `.h${index}`).join(',')}{display:none}</style></head><body><p class="h1">x</p><p>${words(50)}</p>`,
  'style many rules': (n) =>
    `<head><style>${Array.from({ length: n }, (_, index) => `.h${index}{display:none}.s${index} .h${index}{display:block}`).join('')}</style></head><body><p>${words(50)}</p>`,
  'style escaped token': (n) =>
    `<head><style>.a${repeat('\\:', n * 5)}b{display:none} .c${repeat('\\', n * 5)}{display:none}</style></head><body><p>${words(50)}</p>`,
  'style nested @media': (n) => `<head><style>${repeat('@media screen{', n)}.x{display:none}</style></head><body><p class="x">x</p><p>${words(50)}</p>`,
  'style open braces': (n) => `<head><style>.x{display:none}${repeat('.y{', n)}</style></head><body><p>${words(50)}</p>`,
  'many style elements': (n) =>
    `<body>${Array.from({ length: n / 2 }, (_, index) => `<style>.h${index}{display:none}</style><div class="h${index}">x</div>`).join('')}<p>${words(50)}</p>`,
  'style hides many': (n) =>
    `<head><style>.h{display:none}.g{visibility:hidden}</style></head><body>${repeat(`<div class="h"><p>${words(3)}</p></div><p class="g">${words(3)}</p><p>${words(6)}</p>`, n / 4)}`,
  'style hides each once': (n) =>
    `<head><style>${Array.from({ length: n / 2 }, (_, index) => `#i${index}{display:none}`).join('')}</style></head><body>${Array.from({ length: n / 2 }, (_, index) => `<div id="i${index}">x</div><p>${words(4)}</p>`).join('')}`,
  'class 100k tokens': (n) =>
    `<head><style>.h{display:none}.s{display:block}</style></head><body>${repeat(`<div class="${Array.from({ length: 100 }, (_, index) => `t${index}`).join(' ')} h"><p>${words(3)}</p></div>`, n / 100)}<div class="${Array.from({ length: n * 4 }, (_, index) => `t${index}`).join(' ')}"><p>${words(50)}</p></div>`,
  'lead paragraphs': (n) =>
    `<body><h1>The title of it</h1><div>${repeat(`<div><p>${words(20)} and so it ends.</p></div>`, n / 20)}</div><article><h2>Part</h2>${repeat(`<p>${words(40)}.</p>`, n / 10)}</article>`,
  'lead siblings': (n) =>
    `<body><div><h1>The title of it</h1>${repeat(`<p>${words(20)} and so it ends.</p>`, n / 20)}</div><main><h2>Part</h2>${repeat(`<p>${words(40)}.</p>`, n / 10)}</main>`,
  'author headings': (n) =>
    `<body><article><h1>T</h1>${repeat(`<div><div><h3><a rel="author" href="/a">Name</a></h3><p>${words(8)}</p></div><p>${words(30)}</p></div>`, n / 10)}</article>`,
  'headings after prose': (n) =>
    `<body><article><h1>T</h1><p>${words(40)}.</p><p>${words(40)}.</p>${repeat('<h3>Heading</h3>', n)}<address>1 Main St</address></article>`,
  'empty headings': (n) => `<body><article><h1>T</h1><p>${words(40)}.</p>${repeat('<h3> </h3><span> </span>', n / 2)}<p>${words(40)}.</p></article>`,
  'empty sections': (n) => `<body><article><h1>T</h1><p>${words(40)}.</p>${repeat('<section><h2>Heading</h2></section>', n / 2)}<p>${words(40)}.</p></article>`,
  'date lines': (n) => `<body><article><h1>T</h1>${repeat(`<p>12 March 2024</p><p>${words(12)}.</p>`, n / 4)}</article>`,
  // API-page rules of the sixteenth session (13g, 13i): a grid of name and description cells, link-only
  // cells beside each other, and a heading of symbol permalinks (each was quadratic in its count).
  'name and description cells': (n) =>
    `<body><article><p>${words(40)}.</p><div>${repeat('<div><a href="/a">name</a></div><div>A description of the item.</div>', n / 4)}</div></article>`,
  'link-only cells': (n) => `<body><article><p>${words(40)}.</p><div>${repeat('<div><a href="/a">name</a></div>', n / 2)}</div></article>`,
  'heading of symbol links': (n) => `<body><article><h2>Title ${repeat('<a href="#x">\u25c6</a>', n / 2)}</h2><p>${words(40)}.</p></article>`,
  // Session 13m: thousands of containers the cleanup removes, each before thousands of blocks it keeps.
  'empty blocks among kept': (n) => `<body><article>${repeat(`<div></div><section></section><p>${words(5)}</p>`, n / 3)}</article>`,
  'pictures, then link blocks': (n) =>
    `<body><article><p>${words(40)}.</p>${repeat('<div><img src="/i.png"></div>', n / 2)}${repeat('<div><a href="/x">a link</a></div>', n / 2)}</article>`,
  'link blocks among kept': (n) => `<body><article>${repeat(`<div><a href="/x">a link here</a></div><p>${words(5)}</p>`, n / 2)}</article>`,
  // Section divs, each with a link block the cleanup removes (seventeenth session): every removal
  // made the sections' parent be read again whole.
  'section divs with link blocks': (n) =>
    `<body><div>${repeat(`<div><h2>h</h2><p>${words(12)}</p><div><a href="/x">l</a> <a href="/y">m</a></div></div>`, n / 8)}</div>`,
  'wrapped section headings': (n) =>
    `<body><div>${repeat(`<div><div><div><h2>h</h2></div></div><p>${words(12)}</p><div><a href="/x">l</a> <a href="/y">m</a></div></div>`, n / 10)}</div>`,
  // Session 13p: link-dense blocks nested past the parser's depth cut (1,024), each kept by a rule
  // that read its whole subtree (`isMostlyAddresses`, `isProseBesideCodeTerms`, `isHeadingsWithLinkedWords`).
  'nested mailto divs': (n) => `<body><article><p>${words(40)}.</p>${repeat('<div><a href="mailto:a@b.c">a@b.c</a> ', n / 2)}</article>`,
  'nested code-term divs': (n) => `<body><article><p>${words(40)}.</p>${repeat('<div>See <a href="/x"><code>f()</code></a>.', n / 2)}</article>`,
  'nested divs of linked headings': (n) => `<body><article><p>${words(40)}.</p>${repeat('<div><h3>impl <a href="/x">Copy</a> for bool</h3>', n / 2)}</article>`,
  // Session 19c: chrome lines and link runs among kept paragraphs (each spliced out before the
  // paragraphs after it), and cards between the empty blocks the clutter walk removes (each removal
  // had the cards' parent recounted; linear on main only because 13t's teaser rule takes them first).
  'link runs among kept': (n) =>
    `<body><article>${repeat(`<p><a href="/s">Read the next story</a></p><p><a href="/t">And another one</a></p><p>${words(12)}.</p>`, n / 3)}</article>`,
  'headings among chrome lines': (n) => `<body><article>${repeat(`<h3>Part</h3><p>Share</p><p>${words(12)}.</p>`, n / 3)}</article>`,
  'chrome lines among kept': (n) => `<body><article>${repeat(`<div>Edit this page</div><p>${words(12)}.</p>`, n / 2)}</article>`,
  'cards among empty blocks': (n) =>
    `<body><article><h1>T</h1><p>${words(40)}.</p><div><h4>More</h4><section>${repeat('<div><div><div class="i"></div><h2>Story headline for the carousel</h2></div><a href="/s">Read the story</a></div><div></div><div></div>', n / 6)}</section></div><p>${words(40)}.</p></article>`,
};

/**
 * Byte shapes for the charset prescan (`decodeBody`, run on every fetched body before the
 * transform; it walks the whole `<head>` past the first 1024 bytes). Timed alone, content type
 * `text/html` without a charset, so the prescan runs; `--decode` runs only these.
 */
const decodeShapes: Record<string, (n: number) => string> = {
  'head of tiny tags': (n) => `<head>${repeat('<meta a>', n * 2)}<meta charset="koi8-r"></head>`,
  'meta of n attributes': (n) => `<head><meta ${repeat('content="text/html" ', n)}charset="koi8-r"></head>`,
  'meta long content': (n) => `<head>${repeat(`<meta http-equiv="content-type" content="${repeat('charsetx', 200)}">`, n / 64)}</head>`,
  'unclosed comment': (n) => `<head><!--${repeat('<meta charset="x"> ', n)}`,
  'many comments': (n) => `<head>${repeat('<!-- a --><!---->', n)}<meta charset="koi8-r">`,
  'unclosed script': (n) => `<head><script>${repeat('</scrip <x ', n)}`,
  'many scripts': (n) => `<head>${repeat('<script>a<b</script><style>c</style>', n / 2)}<meta charset="koi8-r">`,
  'unclosed quotes': (n) => `<head>${repeat('<link href="a>', n)}`,
  'long tag name': (n) => `<head><${repeat('a', n * 20)}>`,
  'lone <': (n) => `<head>${repeat('< <! </ <? ', n)}`,
  'bang tags': (n) => `<head>${repeat('<!x><?y></z>', n)}<meta charset="koi8-r">`,
  'huge data url': (n) => `<head><link rel="icon" href="data:image/png;base64,${repeat('QUFB', n * 5)}"><meta charset="koi8-r">`,
  'huge body, no head': (n) => `<p>${repeat('<b>x</b> ', n * 2)}</p>`,
};

function timeDecode(sizes: number[], only: string | undefined, times: number): string[] {
  const flagged: string[] = [];
  console.log(`\ndecodeBody (charset prescan): CPU ms at n = ${sizes.join(', ')}`);
  for (const [shape, build] of Object.entries(decodeShapes)) {
    if (only && !only.split('|').some((part) => shape.includes(part))) continue;
    const row: number[] = [];
    let kb = 0;
    for (const size of sizes) {
      const bytes = new TextEncoder().encode(build(size));
      kb = Math.round(bytes.length / 1024);
      let ms = Number.POSITIVE_INFINITY;
      for (let run = 0; run < times; run++)
        ms = Math.min(
          ms,
          cpuMs(() => decodeBody(bytes, 'text/html')),
        );
      row.push(ms);
    }
    const growth = row.length > 1 ? row.at(-1)! / Math.max(row.at(-2)!, 1) : undefined;
    const bad = growth !== undefined && growth > 2.6 && row.at(-1)! > 50;
    if (bad) flagged.push(`${shape} (decode)`);
    console.log(
      `${shape.padEnd(22)}${String(kb).padStart(7)}  ${row.map((ms) => ms.toFixed(0).padStart(7)).join('')} ${(growth?.toFixed(1) ?? '-').padStart(6)}${bad ? '!' : ''}`,
    );
  }
  return flagged;
}

/** Characters of everything the transform answers: what a response would hold in memory. */
function outputChars(out: ReturnType<typeof transformHtml>): number {
  return (
    (out.markdown?.length ?? 0) +
    (out.html?.length ?? 0) +
    (out.links ?? []).reduce((sum, link) => sum + link.length, 0) +
    (out.images ?? []).reduce((sum, image) => sum + image.length, 0) +
    JSON.stringify(out.metadata).length
  );
}

function transform(html: string, onlyMainContent: boolean): number {
  const out = transformHtml({
    html,
    url: 'http://127.0.0.1/page',
    onlyMainContent,
    includeTags: [],
    excludeTags: ['.never-present'],
    removeBase64Images: true,
    want: { markdown: true, html: true, links: true, images: true, signals: true },
  });
  return outputChars(out);
}

/** Past this, a variant's larger sizes are skipped (it would only measure the same growth slower). */
const giveUpMs = 15_000;

function main(): void {
  const sizes = (argument('--sizes') ?? '4000,8000,16000,32000').split(',').map(Number);
  const only = argument('--only');
  const mode = argument('--mode');
  const repeat = Number(argument('--repeat') ?? 1);
  const modes: [string, boolean][] = [];
  if (mode !== 'all') modes.push(['main', true]);
  if (mode !== 'main') modes.push(['all', false]);

  console.log(`CPU ms per page at n = ${sizes.join(', ')}; growth = last doubling's ratio (2 linear, 4 quadratic);`);
  console.log('out/in = largest output over page characters; ! = growth > 2.6 or out/in > 4\n');
  console.log(
    `${'shape'.padEnd(20)}${'KB'.padStart(7)}  ${modes.map(([name]) => `${name.padEnd(5)}${sizes.map((size) => String(size).padStart(7)).join('')} growth out/in`).join('  | ')}`,
  );
  const flagged: string[] = [];
  for (const [shape, build] of Object.entries(process.argv.includes('--decode') ? {} : shapes)) {
    if (only && !only.split('|').some((part) => shape.includes(part))) continue;
    const cells: string[] = [];
    let topKb = 0;
    for (const [modeName, onlyMain] of modes) {
      const times: (number | string)[] = [];
      let ratio = 0;
      for (const size of sizes) {
        const last = times.at(-1);
        if (typeof last === 'number' && last > giveUpMs) break;
        const html = build(size);
        topKb = Math.round(html.length / 1024);
        let outcome: number | string = 0;
        let ms = Number.POSITIVE_INFINITY;
        for (let run = 0; run < repeat; run++) {
          ms = Math.min(
            ms,
            cpuMs(() => {
              try {
                outcome = transform(html, onlyMain);
              } catch (error) {
                outcome = (error as { code?: string }).code === 'too-large' ? 'limit' : 'error';
              }
            }),
          );
          if (typeof outcome === 'string') break;
        }
        if (typeof outcome === 'number') {
          ratio = Math.max(ratio, outcome / html.length);
          times.push(ms);
        } else times.push(outcome);
      }
      const cellsOfSizes = sizes.map((_, index) => {
        const time = times[index];
        return (time === undefined ? 'skip' : typeof time === 'string' ? time : time.toFixed(0)).padStart(7);
      });
      const [previous, last] = [times.at(-2), times.at(-1)];
      const growth = typeof previous === 'number' && typeof last === 'number' && times.length === sizes.length ? last / Math.max(previous, 1) : undefined;
      const bad = (growth !== undefined && growth > 2.6 && Number(last) > 50) || ratio > 4;
      if (bad) flagged.push(`${shape} (${modeName})`);
      cells.push(`${''.padEnd(5)}${cellsOfSizes.join('')} ${(growth?.toFixed(1) ?? '-').padStart(6)} ${ratio.toFixed(2).padStart(5)}${bad ? '!' : ' '}`);
    }
    console.log(`${shape.padEnd(20)}${String(topKb).padStart(7)}  ${cells.join(' | ')}`);
  }
  flagged.push(...timeDecode(sizes, only, repeat));
  console.log(`\nflagged: ${flagged.length === 0 ? 'none' : flagged.join(', ')}`);
}

main();

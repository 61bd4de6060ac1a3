/**
 * Hostile page shapes through the whole transform (`transformHtml`, onlyMainContent on and off),
 * each size in a fresh process: prints CPU seconds, seconds per MB, the growth of the resident set
 * and the markdown's length against the page's. A shape whose seconds per MB grow with its size is
 * superlinear somewhere.
 *
 *   node benchmarks/crawl-real-site/hostile-shapes.mjs [--shapes a,b] [--sizes 1,2,4,8] [--modes main,whole]
 *        [--core packages/core/dist] [--timeout 60] [--max-elements N] [--max-cells N] [--max-markdown N]
 *
 * `--max-*` set the page bounds (`PageLimits`: QUARRY_MAX_PAGE_ELEMENTS, _TABLE_CELLS, _MARKDOWN_CHARS);
 * a page past one is cut there and its first part converted (the `cut` column: characters kept).
 *
 * One run: node hostile-shapes.mjs --one SHAPE MB MODE CORE_DIST
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const prose = '<p>The lake lies in a valley between two ridges, and its water stays cold well into the summer, which keeps the fish deep.</p>';

/** Repeats `unit(i)` until the page reaches `bytes`. */
function fill(bytes, unit, head = '', tail = '') {
  const parts = [head];
  let length = head.length + tail.length;
  for (let index = 0; length < bytes; index++) {
    const part = unit(index);
    parts.push(part);
    length += part.length;
  }
  parts.push(tail);
  return parts.join('');
}

/** A share bar (the article-share-row-above-and-below fixture's shape): an icon, three buttons and a label. */
const shareRow = (label) =>
  `<div class="u5"><div><div><img src="/share.png" width="53" height="53" alt="Share"></div><div><div>Link</div><div>Mail</div><div>${label}</div></div></div><div>Share this</div></div>`;
const page = (body) => `<!doctype html><html><head><title>Hostile</title></head><body>${body}</body></html>`;
const wrap = (head, tail) => [`<!doctype html><html><head><title>Hostile</title></head><body>${prose}${head}`, `${tail}${prose}</body></html>`];

/** Each shape: bytes -> html. */
export const shapes = {
  'div-sections': (n) =>
    fill(
      n,
      () => `<div><h2>Part</h2><p><a href="/a">Read the next story</a></p><p><a href="/b">And another one</a></p>${prose}</div>`,
      ...wrap('<div>', '</div>'),
    ),
  'div-sections-nested': (n) =>
    fill(n, () => `<div><h2>Part</h2><p><a href="/a">Read the next story</a></p><p><a href="/b">And another one</a></p>${prose}`, ...wrap('<div>', '</div>')),
  'nested-lists': (n) => fill(n, (i) => `<ul><li>item ${i}`, ...wrap('', '')),
  'nested-lists-closed': (n) => {
    const depth = Math.floor(n / 40);
    return page(`${'<ul><li>item'.repeat(depth)}${'</li></ul>'.repeat(depth)}`);
  },
  'nested-ol': (n) => fill(n, () => '<ol start="999999999"><li>item ', ...wrap('', '')),
  'deep-chain': (n) => fill(n, () => '<div>', ...wrap('', 'deep')),
  'deep-chain-mixed': (n) => fill(n, (i) => ['<div>', '<span>', '<section>', '<b>', '<article>'][i % 5], ...wrap('', 'deep')),
  'inline-siblings': (n) => fill(n, (i) => `<b>w${i}</b> `, ...wrap('<p>', '</p>')),
  'huge-attribute': (n) => page(`${prose}<div title="${'a'.repeat(n)}" data-x="y">text</div>${prose}`),
  'many-attributes': (n) => fill(n, (i) => ` data-a${i}="v"`, `${page('').slice(0, -14)}<div`, `>text</div>${prose}</body></html>`),
  'br-flood': (n) => fill(n, () => '<br>', ...wrap('<p>', 'end</p>')),
  'br-text-flood': (n) => fill(n, () => 'a<br>', ...wrap('<p>', '</p>')),
  'wide-table': (n) => {
    const columns = 10_000;
    const row = `<tr>${'<td>c</td>'.repeat(columns)}</tr>`;
    return fill(n, () => row, ...wrap(`<table><tr>${'<th>h</th>'.repeat(columns)}</tr>`, '</table>'));
  },
  'span-table': (n) =>
    fill(n, () => '<tr><td colspan="65535" rowspan="65535">c</td><td>d</td></tr>', ...wrap('<table><tr><th>a</th><th>b</th></tr>', '</table>')),
  'span-table-col': (n) => fill(n, () => '<tr><td colspan="65535">c</td></tr><tr><td>d</td></tr>', ...wrap('<table>', '</table>')),
  'nested-tables': (n) => fill(n, (i) => `<table><tr><td>cell ${i}`, ...wrap('', '')),
  'nested-tables-closed': (n) => {
    const depth = Math.floor(n / 60);
    return page(`${'<table><tr><td>cell '.repeat(depth)}${'</td></tr></table>'.repeat(depth)}`);
  },
  'iframe-flood': (n) => fill(n, () => '<iframe src="/x"></iframe><noscript><p>js</p></noscript><template><p>t</p></template>', ...wrap('', '')),
  'text-node': (n) => page(`${prose}<p>${'x'.repeat(n)}</p>`),
  'text-node-special': (n) => page(`${prose}<p>${'*_[]`#\\'.repeat(n / 8)}</p>`),
  'same-headings': (n) => fill(n, () => `<h2>Overview</h2>${prose}`, ...wrap('', '')),
  'empty-headings': (n) => fill(n, () => '<h2>Overview</h2>', ...wrap('', '')),
  'entity-flood': (n) => fill(n, () => '&amp;', ...wrap('<p>', '</p>')),
  'entity-nbsp': (n) => fill(n, () => '&nbsp;', ...wrap('<p>', '</p>')),
  'comment-flood': (n) => fill(n, () => '<!-- c -->', ...wrap('<p>', '</p>')),
  'comment-tags': (n) => fill(n, (i) => `<p>para ${i}</p><!-- <b>x</b><i>y</i> -->`, ...wrap('<div>', '</div>')),
  'quoted-tags': (n) => fill(n, (i) => `<p title="<b>${i}</b> > <i>">para ${i}</p>`, ...wrap('<div>', '</div>')),
  'unclosed-b': (n) => fill(n, () => '<b>x', ...wrap('<p>', '</p>')),
  'unclosed-p': (n) => fill(n, () => '<p>x', ...wrap('', '')),
  'unclosed-a': (n) => fill(n, (i) => `<a href="/p${i}">x`, ...wrap('', '')),
  'unclosed-li': (n) => fill(n, () => '<li>x', ...wrap('<ul>', '</ul>')),
  'long-href': (n) => page(`${prose}<p><a href="/${'a'.repeat(n)}">link</a> <img src="/${'b'.repeat(64)}" alt="x"></p>`),
  'many-links': (n) => fill(n, (i) => `<a href="/page/${i}">link ${i}</a> `, ...wrap('<p>', '</p>')),
  srcset: (n) => page(`${prose}<p><img src="/a.png" alt="x" srcset="${fill(n, (i) => `/img${i}.png ${i + 1}w, `)}"></p>`),
  'srcset-many': (n) => fill(n, (i) => `<img src="/a${i}.png" alt="x" srcset="/a${i}.png 1x, /b${i}.png 2x">`, ...wrap('<p>', '</p>')),
  'base64-image': (n) => page(`${prose}<p><img src="data:image/png;base64,${'A'.repeat(n)}" alt="x"></p>`),
  'base64-link': (n) => page(`${prose}<p><a href="data:text/plain;base64,${'A'.repeat(n)}">x</a></p>`),
  'pre-lines': (n) => fill(n, (i) => `line ${i}\n`, ...wrap('<pre>', '</pre>')),
  'pre-code-backticks': (n) => fill(n, (i) => `${'`'.repeat((i % 40) + 1)} `, ...wrap('<p><code>', '</code></p>')),
  'code-spans-backticks': (n) => fill(n, (i) => `<code>${'`'.repeat((i % 20) + 1)}</code> `, ...wrap('<p>', '</p>')),
  'rtl-zero-width': (n) => fill(n, () => '\u202e\u200b\u200d\u2067a', ...wrap('<p>', '</p>')),
  'whitespace-flood': (n) => page(`${prose}<p>a${' \t\n'.repeat(n / 3)}b</p>`),
  'blockquote-nest': (n) => fill(n, () => '<blockquote>q ', ...wrap('', '')),
  'dl-flood': (n) => fill(n, () => '<dl><dt>term</dt><dd>desc</dd></dl>', ...wrap('', '')),
  'svg-flood': (n) => fill(n, () => '<svg><path d="M0 0L1 1"/></svg>', ...wrap('<p>', '</p>')),
  'class-flood': (n) => page(`${prose}<div class="${fill(n, (i) => `c${i} `)}">text</div>${prose}`),
  'meta-flood': (n) =>
    fill(n, (i) => `<meta property="og:x${i}" content="v">`, '<!doctype html><html><head><title>H</title>', `</head><body>${prose}</body></html>`),
  'title-huge': (n) => `<!doctype html><html><head><title>${'t '.repeat(n / 2)}</title></head><body>${prose}</body></html>`,
  'jsonld-huge': (n) =>
    `<!doctype html><html><head><title>H</title><script type="application/ld+json">{"a":[${fill(n, () => '{"x":1},')}{}]}</script></head><body>${prose}</body></html>`,
  'script-unclosed': (n) => page(`${prose}<script>${'var a = "</scrip";\n'.repeat(n / 20)}`),
  'tag-lines': (n) => fill(n, (i) => `<p>Filed under <a href="/tag/${i}" rel="tag">tag ${i}</a></p>`, ...wrap('<article>', '</article>')),
  'tag-chain': (n) => fill(n, (i) => `<div><a href="/t/${i}" rel="category tag">t</a>`, ...wrap('', '')),
  // Teaser cards (a linked picture and its caption) after a text: side by side, and each one
  // opening two wrappers that close at the page's end (one card per two wrappers, nested).
  'picture-cards': (n) =>
    fill(
      n,
      (i) =>
        `<div class="card"><a href="/story/${i}"><picture><source srcset="/i${i}.webp"><img src="/i${i}.jpg" alt=""></picture></a><p>Caption of story ${i}</p></div>`,
      ...wrap(`<article>${prose}${prose}`, '</article>'),
    ),
  'picture-cards-nested': (n) =>
    fill(
      n,
      (i) =>
        `<div><div class="card"><a href="/story/${i}"><picture><source srcset="/i${i}.webp"><img src="/i${i}.jpg" alt=""></picture></a><p>Caption of story ${i}</p>`,
      ...wrap(`<article>${prose}${prose}`, '</article>'),
    ),
  'picture-figures-nested': (n) =>
    fill(
      n,
      (i) => `<div><div><figure><a href="/story/${i}"><img src="/i${i}.jpg" alt=""></a><figcaption>Caption of story ${i}</figcaption></figure>`,
      ...wrap(`<article>${prose}${prose}`, '</article>'),
    ),
  // A share bar printed above and below each of many texts (one row, many copies), and many distinct
  // rows each printed twice, the copies a page apart (many groups of two).
  'repeated-rows': (n) => fill(n, () => `${shareRow('Whatsapp')}<h2>Part</h2>${prose}${prose}`, ...wrap('<div><h1>Hostile</h1>', '</div>')),
  'repeated-rows-distinct': (n) => {
    const half = fill(n / 2, (i) => `${shareRow(i)}<h2>Part ${i}</h2>${prose}${prose}`);
    const count = (half.match(/class="u5"/g) ?? []).length;
    return page(`<div><h1>Hostile</h1>${prose}${half}${Array.from({ length: count }, (_, i) => `${shareRow(i)}<h2>Part</h2>${prose}${prose}`).join('')}</div>`);
  },
  'mixed-article': (n) =>
    fill(
      n,
      (i) => `<h2>Section ${i}</h2>${prose}<ul><li><a href="/x${i}">x</a></li><li>y</li></ul><table><tr><td>a</td><td>b</td></tr></table>`,
      ...wrap('<article>', '</article>'),
    ),
};

async function runOne(shape, megabytes, mode, coreDist) {
  const { transformHtml } = await import(pathToFileURL(resolve(coreDist, 'transform.js')).href);
  const bounds = JSON.parse(process.env.HOSTILE_LIMITS ?? '{}');
  const html = shapes[shape](Math.round(megabytes * 1024 * 1024));
  globalThis.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const started = process.cpuUsage();
  let markdown = 0;
  let cut = '';
  let error = '';
  try {
    const output = transformHtml({
      html,
      url: 'http://127.0.0.1/hostile.html',
      onlyMainContent: mode === 'main',
      includeTags: [],
      excludeTags: [],
      removeBase64Images: true,
      want: { markdown: true, html: false, links: true, images: false },
      ...(Object.keys(bounds).length > 0 ? { limits: { maxElements: 500_000, maxTableCells: 200_000, maxMarkdownChars: 20_000_000, ...bounds } } : {}),
    });
    markdown = output.markdown?.length ?? 0;
    cut = /only its first (\d+) of/.exec(output.warning ?? '')?.[1] ?? '';
  } catch (caught) {
    if (process.env.HOSTILE_STACK) console.error(caught?.stack);
    error = caught?.code ?? caught?.kind ?? caught?.message?.slice(0, 40) ?? String(caught);
  }
  const { user, system } = process.cpuUsage(started);
  const peakMb = (process.resourceUsage().maxRSS * 1024 - rssBefore) / 1048576;
  console.log(JSON.stringify({ seconds: (user + system) / 1e6, peakMb: Math.round(peakMb), markdown, input: html.length, cut, error }));
}

async function runAll(options) {
  const names = options.shapes ?? Object.keys(shapes);
  console.log(`shape                 mode   MB    s      s/MB   +RSS MB  out/in  cut        error`);
  for (const shape of names) {
    for (const mode of options.modes) {
      for (const megabytes of options.sizes) {
        let line;
        try {
          const out = execFileSync(
            process.execPath,
            ['--expose-gc', '--stack-size=984', import.meta.filename, '--one', shape, String(megabytes), mode, options.core],
            {
              timeout: options.timeout * 1000,
              encoding: 'utf8',
            },
          );
          line = JSON.parse(out.trim().split('\n').at(-1));
        } catch (caught) {
          line = {
            seconds: NaN,
            peakMb: NaN,
            markdown: 0,
            input: NaN,
            error: caught.signal
              ? `timeout ${options.timeout}s`
              : String(caught.stderr ?? caught)
                  .split('\n')
                  .find((l) => /Error/.test(l))
                  ?.slice(0, 60),
          };
        }
        const perMb = line.seconds / megabytes;
        console.log(
          `${shape.padEnd(21)} ${mode.padEnd(6)} ${String(megabytes).padEnd(5)} ${line.seconds.toFixed(2).padEnd(6)} ${perMb.toFixed(2).padEnd(6)} ${String(line.peakMb).padEnd(8)} ${(line.markdown / line.input).toFixed(2).padEnd(7)} ${String(line.cut ?? '').padEnd(10)} ${line.error}`,
        );
        if (line.error?.startsWith('timeout')) break;
      }
    }
  }
}

// Run as a script (imported, it only lends its shapes).
if (import.meta.filename === resolve(process.argv[1] ?? '')) {
  const argv = process.argv.slice(2);
  if (argv[0] === '--one') await runOne(argv[1], Number(argv[2]), argv[3], argv[4]);
  else if (argv.includes('--help') || argv.includes('-h')) {
    // The usage is this file's opening comment; a full run of every shape takes many minutes.
    const source = (await import('node:fs')).readFileSync(import.meta.filename, 'utf8');
    console.log(
      source
        .slice(source.indexOf('/**') + 3, source.indexOf('*/'))
        .replace(/^ \* ?/gm, '')
        .trim(),
    );
    console.log(`\nshapes: ${Object.keys(shapes).join(', ')}`);
  } else {
    const flag = (name, fallback) => {
      const at = argv.indexOf(`--${name}`);
      return at === -1 ? fallback : argv[at + 1];
    };
    // The children read the bounds from the environment they inherit.
    const bounds = { maxElements: flag('max-elements'), maxTableCells: flag('max-cells'), maxMarkdownChars: flag('max-markdown') };
    process.env.HOSTILE_LIMITS = JSON.stringify(Object.fromEntries(Object.entries(bounds).flatMap(([key, value]) => (value ? [[key, Number(value)]] : []))));
    await runAll({
      shapes: flag('shapes')?.split(','),
      sizes: flag('sizes', '1,2,4,8').split(',').map(Number),
      modes: flag('modes', 'main,whole').split(','),
      core: resolve(flag('core', resolve(import.meta.dirname, '../../packages/core/dist'))),
      timeout: Number(flag('timeout', '60')),
    });
  }
}

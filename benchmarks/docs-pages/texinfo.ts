/**
 * Ground truth for a Texinfo manual's HTML pages (makeinfo's HTML output, one page per node), read
 * from the Info file the same package ships (`octave-doc`: `/usr/share/info/octave.info*.gz`
 * beside `/usr/share/doc/octave/octave.html/`). Info is makeinfo's plain-text rendering of the same
 * `.texi`: it states each node's section titles (a line underlined with `*`, `=`, `-` or `.`), its
 * example blocks (indented five columns past the text around them), its URLs (`<https://...>`) and
 * its prose. No Texinfo is read here and no page: a node becomes the Sphinx part's four features
 * (`RstTruth`: heading text, code text, external links, text), which `run-real.ts` scores as it
 * scores docutils' pages.
 *
 * What Info writes differently from the HTML, folded here (each also stated in the README):
 * - cross references: `*Note Node::` is "See Node", `(*note Node::)` "(see Node)", `*note Label:
 *   Node.` "Label"; the node name is not shown.
 * - `@var{x}` is upper-cased in Info (`X`) and not in HTML: the site is scored case-folded
 *   (`RealSite.foldsCase`), on both extractors alike.
 * - `@emph`/`@strong` are `_x_`/`*x*`, list bullets `•` and numbers `1.` are text in Info: dropped.
 * - menus (`* Menu:`) and Info's footnote rule are navigation Info writes: not in the truth; the
 *   HTML's menu tables and footnote heading are excused (`texinfoGenerated`).
 * - an `@uref{url, text}` is "text (url)" in Info: the text is kept, the address dropped, and no
 *   link is expected (where the text starts is not stated); `@url{url}` (`<url>`) is a link whose
 *   text is the address, as the HTML writes it.
 * Known ambiguity: `@quotation`, `@display` and `@multitable` are indented as examples are, so
 * such a block standing alone after prose is read as code.
 */
import { shingleBreak } from '../main-content/metrics.js';
import { canonical, codeKey, emptyTruth, type RstTruth, sectionTitle } from './rst.js';

/** The HTML's generated regions: menu tables and comments, the footnotes heading. */
export const texinfoGenerated: readonly RegExp[] = [/(?:^|\s)menu(?:-[\w-]+)?(?:\s|$)/, /(?:^|\s)footnotes-heading(?:\s|$)/];

export interface InfoNode {
  name: string;
  /** The node's lines after its `File: ..., Node: ...` header. */
  body: string;
}

/** The nodes of an Info file (its parts concatenated), without the tag tables. */
export function infoNodes(info: string): InfoNode[] {
  const nodes: InfoNode[] = [];
  for (const chunk of info.split('\u001f')) {
    const header = /^\n?File: [^,]+,\s+Node: ([^,\n]+)[^\n]*\n/.exec(chunk);
    if (!header) continue;
    nodes.push({ name: header[1]!.trim(), body: chunk.slice(header[0].length) });
  }
  return nodes;
}

/** An index node (Info marks its menu with `^@^H[index^@^H]`): generated, not a page to score. */
export const isIndexNode = (node: InfoNode): boolean => node.body.includes('\u0000\u0008[index\u0000\u0008]');

/**
 * The HTML file makeinfo writes for a node (Texinfo's "HTML Xref Node Name Expansion"): letters and
 * digits kept, each run of spaces one `-`, any other character `_` and its code point in four hex
 * digits; `Top` is `index.html`.
 */
export function nodeFileName(name: string): string {
  const collapsed = name.replace(/\s+/g, ' ').trim();
  if (collapsed === 'Top') return 'index.html';
  let file = '';
  for (const character of collapsed) {
    if (/[A-Za-z0-9]/.test(character)) file += character;
    else if (character === ' ') file += '-';
    else file += `_${character.codePointAt(0)!.toString(16).padStart(4, '0')}`;
  }
  return `${file}.html`;
}

const indentOf = (line: string): number => line.length - line.trimStart().length;

/** Prose as the HTML shows it: cross references, URLs, emphasis marks, bullets folded. */
export function infoInline(text: string): string {
  return (
    text
      .replace(/\u0000\u0008\[[^\u0000]*\u0000\u0008\]/g, ` ${shingleBreak} `)
      // `*note Label: Node.` (or `,`): the label; `*Note Node::`: the node, after "See" for `@xref`
      // and after "see" inside parentheses (`@pxref`).
      .replace(/(\(?)\*([Nn])ote\s+([^:*]+?)::/g, (_whole, open: string, n: string, node: string) => `${open}${n === 'N' ? 'See ' : open ? 'see ' : ''}${node}`)
      .replace(
        /(\(?)\*([Nn])ote\s+([^:*]+?):\s+[^.,*]+?([.,])/g,
        (_whole, open: string, n: string, label: string, stop: string) => `${open}${n === 'N' ? 'See ' : open ? 'see ' : ''}${label}${stop}`,
      )
      // `@uref{url, text}`: "text (url)"; `@url{url}`: "<url>".
      .replace(/\s*\((?:https?|ftp):\/\/[^\s)]+\)/g, '')
      .replace(/<((?:https?|ftp):\/\/[^\s>]+)>/g, '$1')
      .replace(/(^|[\s(‘'"“/])_([^_\s](?:[^_]*[^_\s])?)_(?=$|[\s.,;:!?)’'"”/])/g, '$1$2')
      .replace(/(^|[\s(‘'"“/])\*([^*\s](?:[^*]*[^*\s])?)\*(?=$|[\s.,;:!?)’'"”/])/g, '$1$2')
  );
}

/** The URLs a text states as `<url>` (`@url`), as links whose text is the address. */
function urlsOf(text: string): string[] {
  return [...text.matchAll(/<((?:https?|ftp):\/\/[^\s>]+)>/g)].map((match) => match[1]!);
}

const add = (map: Map<string, number>, key: string): void => {
  if (key !== '') map.set(key, (map.get(key) ?? 0) + 1);
};

/** One node's truth in the Sphinx part's four features. */
export function infoTruth(body: string): RstTruth {
  const truth = emptyTruth();
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  // Menus and the footnote rule are Info's navigation: out.
  const kept: string[] = [];
  let inMenu = false;
  for (const line of lines) {
    if (/^\s*-{5,} Footnotes -{5,}\s*$/.test(line)) {
      inMenu = false;
      kept.push('');
      continue;
    }
    if (/^\* Menu:/.test(line)) {
      inMenu = true;
      kept.push('');
      continue;
    }
    if (inMenu) {
      if (line.trim() === '' || line.startsWith('* ') || /^\s/.test(line)) continue;
      inMenu = false;
    }
    kept.push(line);
  }
  // Blocks between blank lines; a title and its underline are a heading.
  const blocks: string[][] = [];
  let current: string[] = [];
  const textParts: string[] = [];
  const flush = (): void => {
    if (current.length > 0) blocks.push(current);
    current = [];
  };
  kept.forEach((line, index) => {
    const next = kept[index + 1] ?? '';
    if (/^([*=\-.])\1+$/.test(next) && line.trim() !== '' && next.length === [...line].length && indentOf(line) === 0) {
      flush();
      blocks.push([`\u0001${line}`]);
      return;
    }
    if (/^([*=\-.])\1+$/.test(line) && blocks.at(-1)?.[0]?.startsWith('\u0001') && current.length === 0) return;
    if (line.trim() === '') flush();
    else current.push(line);
  });
  flush();
  // The indentation text continues at after a block: an item's text after its bullet or number, a
  // definition's or table entry's body (its later lines), a paragraph's column (a first-line
  // indent of three is Info's paragraph indent).
  const contentIndent = (block: string[]): number => {
    const first = block[0]!;
    const item = /^(\s*(?:•|\d+\.)\s+)/.exec(first);
    if (item) return item[1]!.length;
    // A definition's header (` -- : magic (N)`) or a table's quoted term alone on its line: its
    // body follows, indented by four or five past it, even after a blank line.
    if (block.length === 1 && /^\s*-- /.test(first)) return indentOf(first) + 4;
    if (block.length === 1 && /^\s*‘[^’]*’$/.test(first)) return indentOf(first) + 5;
    if (block.length > 1) return Math.min(...block.slice(1).map(indentOf));
    return indentOf(first) - (indentOf(first) % 5);
  };
  let context = 0;
  let code: string[] | undefined;
  let pendingBlank = 0;
  const closeCode = (): void => {
    if (!code) return;
    // `@print{}` is `⊣` in Info and `-|` in the HTML.
    code = code.map((line) => line.replace(/⊣/g, '-|'));
    add(truth.code, codeKey(code.join('\n')));
    textParts.push(code.join('\n'));
    code = undefined;
  };
  for (const block of blocks) {
    if (block[0]!.startsWith('\u0001')) {
      closeCode();
      const title = infoInline(block[0]!.slice(1));
      add(truth.headings, sectionTitle(title));
      textParts.push(title);
      context = 0;
      continue;
    }
    const indent = Math.min(...block.map(indentOf));
    if (indent >= context + 5) {
      const lines = block.map((line) => line.slice(indent));
      // An example with blank lines in it is one block: Info shows its blank lines as any other.
      if (code) code.push(...Array.from({ length: pendingBlank }, () => ''), ...lines);
      else code = lines;
      pendingBlank = 1;
      continue;
    }
    closeCode();
    context = contentIndent(block);
    for (const line of block) for (const url of urlsOf(line)) add(truth.links, `${canonical(url)} -> ${new URL(url).href}`);
    const prose = block
      .map((line, index) => (index === 0 ? line.replace(/^\s*(?:•|\d+\.)\s+/, '').replace(/^\s*-- /, '') : line))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    textParts.push(infoInline(prose));
  }
  closeCode();
  truth.text = canonical(textParts.join('\n'));
  return truth;
}

/**
 * Ground truth from an AsciiDoc source (git's `Documentation/*.txt`, as `git-doc` ships them beside
 * the pages asciidoc's xhtml11 backend wrote): the source read by a small line parser into the HTML
 * elements the page shows (headings, lists, definition lists, literal and listing blocks, links,
 * emphasis, paragraphs), which `score.ts` then reads as it reads any rendering. No asciidoc here:
 * only what the source states for sure is written; an include the package does not ship is a gap.
 */
import { shingleBreak } from '../main-content/metrics.js';

/** Reads an included file (path as the source writes it), or nothing when it is not shipped. */
export type IncludeReader = (path: string) => string | undefined;

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** asciidoc's predefined character attributes (and git's `{litdd}`). */
const characterAttributes: Record<string, string> = {
  litdd: '--',
  tilde: '~',
  caret: '^',
  startsb: '[',
  endsb: ']',
  apostrophe: "'",
  backslash: '\\',
  empty: '',
  nbsp: '\u00a0',
  amp: '&',
  lt: '<',
  gt: '>',
  plus: '+',
  brvbar: '|',
  vbar: '|',
  'two-colons': '::',
  'two-semicolons': ';;',
  asterisk: '*',
};

/** Includes expanded and conditionals (`ifdef`/`ifndef` on the document's own attributes) resolved. */
function preprocess(source: string, include: IncludeReader, attributes: Map<string, string>, depth = 0): string[] {
  const out: string[] = [];
  const skipping: boolean[] = [];
  const active = (): boolean => !skipping.includes(true);
  for (const line of source.replace(/\r\n?/g, '\n').split('\n')) {
    const conditional = /^(ifdef|ifndef|endif)::([^[]*)\[(.*)\]\s*$/.exec(line);
    if (conditional) {
      const [, kind, names, inline] = conditional;
      if (kind === 'endif') {
        skipping.pop();
        continue;
      }
      const list = names!.split(/[,+]/).filter(Boolean);
      const defined = names!.includes('+') ? list.every((name) => attributes.has(name)) : list.some((name) => attributes.has(name));
      const keep = kind === 'ifdef' ? defined : !defined;
      if (inline) {
        if (keep && active()) out.push(inline);
      } else skipping.push(!keep);
      continue;
    }
    if (!active()) continue;
    const entry = /^:([\w-]+)!?:\s*(.*)$/.exec(line);
    if (entry) attributes.set(entry[1]!, entry[2]!);
    const included = /^include::([^[]+)\[\]\s*$/.exec(line);
    if (included) {
      const text = depth < 5 ? include(included[1]!.replace(/^\{build_dir\}\//, '')) : undefined;
      if (text === undefined) out.push('', shingleBreak, '');
      else out.push(...preprocess(text, include, attributes, depth + 1));
      continue;
    }
    out.push(line);
  }
  return out;
}

/** Inline markup to HTML: links, monospace, emphasis, quotes and asciidoc's replacements. */
export function inlineHtml(text: string, attributes: ReadonlyMap<string, string> = new Map()): string {
  const kept: string[] = [];
  const keep = (html: string): string => `\u0000${kept.push(html) - 1}\u0000`;
  let result = text
    .replace(/\{([\w-]+)\}/g, (whole, name: string) => characterAttributes[name] ?? attributes.get(name) ?? whole)
    // Inline anchors ("OPTIONS[[OPTIONS]]") show nothing.
    .replace(/\[\[[\w-]+\]\]/g, '')
    // Escaped markup shows as written.
    .replace(/\\(\.\.\.|--|[`'*_+#<{}]|linkgit:|https?:|file:)/g, (_whole, mark: string) => keep(escapeHtml(mark)));
  // Monospace first: nothing inside it is markup.
  result = result.replace(/(?<![\w`])`([^`]+?)`(?![\w`])/g, (_whole, code: string) => keep(`<code>${escapeHtml(code)}</code>`));
  result = result.replace(/(?<![\w+])\+([^+\s][^+]*?)\+(?![\w+])/g, (_whole, code: string) => keep(`<code>${escapeHtml(code)}</code>`));
  result = result
    .replace(/linkgit:([\w.-]+)\[(\d+)\]/g, (_whole, name: string, section: string) => keep(`<a href="${name}.html">${escapeHtml(name)}(${section})</a>`))
    .replace(/link:([^\s[]+)\[([^\]]*)\]/g, (_whole, target: string, label: string) => keep(`<a href="${target}">${escapeHtml(label || target)}</a>`))
    .replace(/(?<![\w"=/])((?:https?|ftp):\/\/[^\s[\]<>]+?)(?:\[([^\]]*)\]|(?=[.,;:)]*(?:\s|$)))/g, (_whole, url: string, label?: string) =>
      keep(`<a href="${url}">${escapeHtml(label || url)}</a>`),
    )
    .replace(/<<([\w-]+)(?:,\s*([^>]+))?>>/g, (_whole, id: string, label?: string) => keep(`<a href="#${id}">${escapeHtml(label ?? `[${id}]`)}</a>`));
  result = escapeHtml(result)
    .replace(/``(.+?)''/g, '\u201c$1\u201d')
    .replace(/(?<![\w'])`(.+?)'(?!\w)/g, '\u2018$1\u2019')
    .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
    .replace(/(?<![\w*])\*(\S(?:.*?\S)?)\*(?![\w*])/g, '<strong>$1</strong>')
    .replace(/__(.+?)__/g, '<em>$1</em>')
    .replace(/(?<![\w_])_(\S(?:.*?\S)?)_(?![\w_])/g, '<em>$1</em>')
    .replace(/(?<![\w'])'([^'\s](?:[^']*?[^'\s])?)'(?![\w'])/g, '<em>$1</em>')
    .replace(/(\w)'(\w)/g, '$1\u2019$2')
    .replace(/(^|\s)--(\s|$)/g, '$1\u2014$2')
    .replace(/(\w)--(\w)/g, '$1\u2014$2')
    .replace(/\.\.\./g, '\u2026')
    .replace(/\(C\)/g, '\u00a9')
    .replace(/\(R\)/g, '\u00ae')
    .replace(/\(TM\)/g, '\u2122')
    .replace(/ \+$/gm, '<br>');
  return result.replace(/\u0000(\d+)\u0000/g, (_whole, index: string) => kept[Number(index)]!);
}

const delimiters: Record<string, string> = { '-': 'listing', '.': 'literal', _: 'quote', '=': 'example', '*': 'sidebar', '/': 'comment', '+': 'pass' };
const delimiterOf = (line: string): string | undefined => {
  if (line === '--') return 'open';
  const match = /^([-._=*/+])\1{3,}\s*$/.exec(line);
  return match ? delimiters[match[1]!] : undefined;
};
const underlineLevels: Record<string, number> = { '=': 1, '-': 2, '~': 3, '^': 4, '+': 5 };
const listItem = /^\s*(\*{1,5}|-|\.{1,5}|\d+\.|[a-z]\.)\s+(\S.*)$/;
const labeledItem = /^\s*(\S.*?)(:{2,4}|;;)(?:\s+(\S.*))?$/;
const indentOf = (line: string): number => line.length - line.trimStart().length;

interface ListFrame {
  kind: 'ul' | 'ol' | 'dl';
  marker: string;
  /** Open `li` or `dd`: its HTML so far, closed when the next item or the list ends. */
  open: boolean;
}

/** The page's document title as asciidoc's manpage doctype writes it ("git-mv(1) Manual Page"). */
function titleHeading(title: string): string {
  return /\(\d\)$/.test(title.trim()) ? `${title.trim()} Manual Page` : title.trim();
}

/** The source as the HTML elements the page shows. */
export function asciidocTruthHtml(source: string, include: IncludeReader): string {
  const attributes = new Map<string, string>();
  const lines = preprocess(source, include, attributes);
  const out: string[] = [];
  const lists: ListFrame[] = [];
  let style: string | undefined;
  let continuing = false;
  const inline = (text: string): string => inlineHtml(text, attributes);
  const closeItem = (frame: ListFrame): void => {
    if (frame.open) out.push(frame.kind === 'dl' ? '</dd>' : '</li>');
    frame.open = false;
  };
  const closeLists = (keep = 0): void => {
    while (lists.length > keep) {
      const frame = lists.pop()!;
      closeItem(frame);
      out.push(`</${frame.kind}>`);
    }
  };
  const pre = (body: string[], formatted = false): void => {
    const dedent = Math.min(...body.filter((line) => line.trim() !== '').map(indentOf));
    const text = body.map((line) => line.slice(Number.isFinite(dedent) ? dedent : 0)).join('\n');
    // A verse block's emphasis stays in the page's `pre`, where no markdown can write it: text only.
    out.push(formatted ? `<pre>${inline(text).replace(/<\/?(?:em|strong)>/g, '')}</pre>` : `<pre><code>${escapeHtml(text)}</code></pre>`);
  };
  let index = 0;
  const paragraphLines = (first: number, ownStart: boolean): { text: string[]; end: number } => {
    const text: string[] = [];
    let at = first;
    while (at < lines.length) {
      const line = lines[at]!;
      if (line.trim() === '' || line === '+' || delimiterOf(line.trim()) || ((at > first || !ownStart) && (listItem.test(line) || labeledItem.test(line))))
        break;
      text.push(line.trim());
      at++;
    }
    return { text, end: at };
  };
  while (index < lines.length) {
    const line = lines[index]!;
    const trimmed = line.trim();
    if (trimmed === '') {
      index++;
      continue;
    }
    if (trimmed === shingleBreak) {
      out.push(`<p>${shingleBreak}</p>`);
      index++;
      continue;
    }
    if (/^\/\/(?!\/)/.test(line) || /^:[\w-]+!?:/.test(line) || /^\[\[[^\]]*\]\]$/.test(trimmed)) {
      index++;
      continue;
    }
    if (trimmed === '+') {
      continuing = true;
      index++;
      continue;
    }
    const attributeList = /^\[([^\]]*)\]$/.exec(trimmed);
    if (attributeList && indentOf(line) === 0) {
      style = attributeList[1]!.split(',')[0]!.trim();
      index++;
      continue;
    }
    // Anything after a blank line that is not attached with `+` or indented ends the open lists.
    if (
      !continuing &&
      lists.length > 0 &&
      index > 0 &&
      lines[index - 1]!.trim() === '' &&
      indentOf(line) === 0 &&
      !listItem.test(line) &&
      !labeledItem.test(line)
    )
      closeLists();
    const attached = continuing;
    continuing = false;
    const next = lines[index + 1]?.trim() ?? '';
    const underline = /^([=\-~^+])\1+$/.exec(next);
    if (underline && Math.abs(next.length - trimmed.length) <= 2 && indentOf(line) === 0 && !delimiterOf(trimmed)) {
      closeLists();
      const level = underlineLevels[underline[1]!]!;
      out.push(`<h${level}>${inline(level === 1 ? titleHeading(trimmed) : trimmed)}</h${level}>`);
      index += 2;
      style = undefined;
      continue;
    }
    const oneLine = /^(={1,6})\s+(\S.*?)(?:\s+=+)?$/.exec(line);
    if (oneLine) {
      closeLists();
      const level = oneLine[1]!.length;
      out.push(`<h${level}>${inline(level === 1 ? titleHeading(oneLine[2]!) : oneLine[2]!)}</h${level}>`);
      index++;
      continue;
    }
    const block = delimiterOf(trimmed);
    // A block not attached with `+` stands after the open lists, not in their last item.
    if (block && !attached) closeLists();
    if (block) {
      const body: string[] = [];
      let end = index + 1;
      while (end < lines.length && lines[end]!.trim() !== trimmed) body.push(lines[end++]!);
      index = end + 1;
      if (block === 'listing' || block === 'literal') pre(body, style === 'verse');
      else if (block === 'quote' && style === 'verse') pre(body, true);
      else if (block !== 'comment' && block !== 'pass') out.push(asciidocTruthHtml(body.join('\n'), include));
      style = undefined;
      continue;
    }
    // A block title (".Title") shows as a line of text above its block.
    if (/^\.[A-Za-z`'"]/.test(trimmed) && !listItem.test(line)) {
      out.push(`<p>${inline(trimmed.slice(1))}</p>`);
      index++;
      continue;
    }
    const item = listItem.exec(line);
    const labeled = item ? null : labeledItem.exec(line);
    if (item || labeled) {
      const kind = item ? (/^\d|^\.|^[a-z]\./.test(item[1]!) ? 'ol' : 'ul') : 'dl';
      const marker = item ? item[1]!.replace(/\d+|[a-z]/, '1') : labeled![2]!;
      const at = lists.findIndex((frame) => frame.marker === marker && frame.kind === kind);
      if (at >= 0) {
        closeLists(at + 1);
        closeItem(lists[at]!);
      } else {
        lists.push({ kind, marker, open: false });
        out.push(`<${kind}>`);
      }
      const frame = lists[lists.length - 1]!;
      const rest = paragraphLines(index + 1, false);
      if (kind === 'dl') {
        out.push(`<dt>${inline(labeled![1]!)}</dt>`);
        const first = labeled![3];
        let text = [...(first ? [first] : []), ...rest.text];
        let end = rest.end;
        if (text.length === 0) {
          // The definition may follow after blank lines, indented.
          let ahead = end;
          while (ahead < lines.length && lines[ahead]!.trim() === '') ahead++;
          const following = lines[ahead] ?? '';
          if (indentOf(following) > 0 && !listItem.test(following) && !labeledItem.test(following)) {
            const found = paragraphLines(ahead, true);
            text = found.text;
            end = found.end;
          }
        }
        out.push('<dd>');
        if (text.length > 0) out.push(`<p>${inline(text.join('\n'))}</p>`);
        index = end;
      } else {
        out.push('<li>', `<p>${inline([item![2]!, ...rest.text].join('\n'))}</p>`);
        index = rest.end;
      }
      frame.open = true;
      style = undefined;
      continue;
    }
    if (indentOf(line) > 0 && lists.length === 0) {
      // A literal paragraph: indented lines up to a blank line.
      const body: string[] = [];
      while (index < lines.length && lines[index]!.trim() !== '') body.push(lines[index++]!);
      pre(body, style === 'verse');
      style = undefined;
      continue;
    }
    const paragraph = paragraphLines(index, true);
    const text = paragraph.text.join('\n');
    if (style === 'verse' || style === 'literal' || style === 'listing') pre(paragraph.text, style === 'verse');
    else out.push(`<p>${inline(text)}</p>`);
    index = Math.max(index + 1, paragraph.end);
    style = undefined;
  }
  closeLists();
  return out.join('\n');
}

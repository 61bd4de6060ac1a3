import { TargetError } from '../errors.js';

/**
 * What one page may hold before converting it stops with a `too-large` error (a clear per-page
 * failure, never a server brought down): elements and table cells are counted on the raw markup
 * before it is parsed, so a hostile page fails before its tree is built; the markdown is measured
 * once written. Bytes read are bounded by the fetcher (QUARRY_MAX_BODY_BYTES), nesting depth by
 * the parser (parse-html.ts flattens past 512 levels, as browsers do), time and heap by the
 * transform workers.
 */
export interface PageLimits {
  /** Most elements (start tags) a page may have. */
  maxElements: number;
  /** Most table cells (`<td>`, `<th>`) a page may have. */
  maxTableCells: number;
  /** Longest markdown a page may give, in characters. */
  maxMarkdownChars: number;
}

export const defaultPageLimits: PageLimits = { maxElements: 500_000, maxTableCells: 200_000, maxMarkdownChars: 20_000_000 };

function tooLarge(why: string, limit: keyof PageLimits, value: number): TargetError {
  return new TargetError('too-large', `The page is too large to convert: ${why}.`, { details: { limit, max: value } });
}

/** True when the char code is an ASCII letter. */
function isLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

/** True when `<` at `at` opens a `td` or `th` tag. */
function isCell(html: string, at: number): boolean {
  const first = html.charCodeAt(at + 1) | 0x20;
  const second = html.charCodeAt(at + 2) | 0x20;
  if (first !== 0x74 || (second !== 0x64 && second !== 0x68)) return false;
  const after = html.charCodeAt(at + 3);
  return Number.isNaN(after) || after === 0x3e || after === 0x2f || after === 0x20 || (after >= 0x09 && after <= 0x0d);
}

/** Script and style bodies are not text: the scan jumps to their end tag. */
const rawTextNames = ['script', 'style'] as const;
const tagNameEnd = /[\s>/]/;

/**
 * `script` or `style` when the tag at `at` opens one (any case, then whitespace, `>` or `/`): what
 * `/^<(script|style)[\s>/]/i` says of the next 8 characters, without a slice per tag.
 */
function rawTextTagAt(html: string, at: number): string | undefined {
  for (const name of rawTextNames) {
    let index = 0;
    while (index < name.length && (html.charCodeAt(at + 1 + index) | 0x20) === name.charCodeAt(index)) index++;
    if (index === name.length && tagNameEnd.test(html.charAt(at + 1 + index))) return name;
  }
  return undefined;
}

/**
 * Counts start tags, table cells and text of the raw markup (a `<` followed by a letter is a tag;
 * comments count too: an upper bound) and throws TargetError('too-large') past a limit. Text is
 * what lies between tags outside scripts and styles: markdown longer than the limit would follow
 * (entities aside), so such a page fails before it is parsed.
 */
export function checkMarkup(html: string, limits: PageLimits): void {
  if (isWithinAnyLimit(html.length, limits)) return;
  let elements = 0;
  let cells = 0;
  let text = 0;
  let textFrom = 0;
  for (let at = html.indexOf('<'); at !== -1; at = html.indexOf('<', at + 1)) {
    if (!isLetter(html.charCodeAt(at + 1))) continue;
    text += at - textFrom;
    if (text > limits.maxMarkdownChars) throw markdownTooLong(limits);
    if (++elements > limits.maxElements) throw tooLarge(`it has more than ${limits.maxElements} elements`, 'maxElements', limits.maxElements);
    if (isCell(html, at) && ++cells > limits.maxTableCells)
      throw tooLarge(`it has more than ${limits.maxTableCells} table cells`, 'maxTableCells', limits.maxTableCells);
    const raw = rawTextTagAt(html, at);
    const end = raw ? endTagOf(html, raw, at) : html.indexOf('>', at);
    if (end === -1) return;
    textFrom = raw ? end : end + 1;
    at = Math.max(at, textFrom - 1);
  }
  text += html.length - textFrom;
  if (text > limits.maxMarkdownChars) throw markdownTooLong(limits);
}

/** Where the end tag `</name` after `from` starts, any case; -1 when there is none. */
/**
 * True when markup of `length` characters cannot pass any limit, so it need not be scanned (most
 * pages: under 400,000 characters with the defaults). A counted tag spans at least 3 characters
 * (`<a>`) and a cell 4 (`<td>`), one of each at the end aside; text is at most the whole markup.
 */
function isWithinAnyLimit(length: number, limits: PageLimits): boolean {
  return length <= limits.maxMarkdownChars && length < 2 * Math.min(limits.maxElements, limits.maxTableCells);
}

function endTagOf(html: string, name: string, from: number): number {
  let end = html.indexOf('</', from);
  while (end !== -1 && html.slice(end + 2, end + 2 + name.length).toLowerCase() !== name) end = html.indexOf('</', end + 2);
  return end;
}

function markdownTooLong(limits: PageLimits): TargetError {
  return tooLarge(`its markdown is longer than ${limits.maxMarkdownChars} characters`, 'maxMarkdownChars', limits.maxMarkdownChars);
}

/** Throws TargetError('too-large') when the markdown is longer than the limit. */
export function checkMarkdown(markdown: string | undefined, limits: PageLimits): void {
  if (markdown !== undefined && markdown.length > limits.maxMarkdownChars) throw markdownTooLong(limits);
}

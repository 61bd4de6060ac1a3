/**
 * Whitespace handling shared by the markdown converter: browser-like collapsing of text in normal
 * flow, and cleanup of code text (which keeps its whitespace).
 */

/** Invisible characters that only add noise to markdown: zero-width space, soft hyphen, BOM. */
const INVISIBLE = /[\u200b\u00ad\ufeff]/g;
const HAS_INVISIBLE = /[\u200b\u00ad\ufeff]/;

/**
 * Collapses text the way a browser lays out inline text: every run of whitespace (including
 * no-break spaces) becomes one space, and invisible characters (zero-width space, soft hyphen,
 * BOM) are removed. Leading and trailing spaces are kept (the caller decides whether they separate
 * words). Returns `text` itself when nothing changes, which is the common case for prose.
 */
export function collapseWhitespace(text: string): string {
  const length = text.length;
  let index = 0;
  let isAfterSpace = false;
  for (; index < length; index++) {
    const kind = characterKind(text.charCodeAt(index));
    if (kind === PLAIN) isAfterSpace = false;
    else if (kind === SPACE && !isAfterSpace) isAfterSpace = true;
    else break;
  }
  if (index === length) return text;
  let result = text.slice(0, index);
  let segmentStart = index;
  for (; index < length; index++) {
    const kind = characterKind(text.charCodeAt(index));
    if (kind === PLAIN) {
      isAfterSpace = false;
      continue;
    }
    if (kind === SPACE && !isAfterSpace) {
      isAfterSpace = true;
      continue;
    }
    result += text.slice(segmentStart, index);
    segmentStart = index + 1;
    if (kind === OTHER_SPACE && !isAfterSpace) {
      result += ' ';
      isAfterSpace = true;
    }
  }
  return result + text.slice(segmentStart);
}

const PLAIN = 0;
/** A literal space: kept unless it follows another space. */
const SPACE = 1;
/** Tabs, newlines, form feeds, no-break spaces: always rewritten (to a space, once per run). */
const OTHER_SPACE = 2;
const INVISIBLE_CHARACTER = 3;

function characterKind(code: number): number {
  if (code > 0x20) {
    if (code < 0xa0) return PLAIN;
    if (code === 0xa0) return OTHER_SPACE;
    return code === 0x200b || code === 0xad || code === 0xfeff ? INVISIBLE_CHARACTER : PLAIN;
  }
  if (code === 0x20) return SPACE;
  return code === 0x0a || code === 0x09 || code === 0x0d || code === 0x0c ? OTHER_SPACE : PLAIN;
}

/** True for text made only of HTML whitespace (or empty), which collapses to at most one space. */
export function isWhitespaceOnly(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code !== 0x20 && code !== 0x0a && code !== 0x09 && code !== 0x0d && code !== 0x0c) return false;
  }
  return true;
}

/**
 * Cleans the text of a code block: CRLF becomes LF, no-break spaces become spaces, invisible
 * characters go, the newline HTML ignores after `<pre>` and whitespace-only lines at both ends are
 * dropped, and trailing spaces are cut from every line. Indentation is kept.
 */
export function cleanCodeText(text: string): string {
  let code = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  if (code.includes('\u00a0')) code = code.replace(/\u00a0/g, ' ');
  if (HAS_INVISIBLE.test(code)) code = code.replace(INVISIBLE, '');
  const lines = code.split('\n');
  let start = 0;
  while (start < lines.length && isBlank(lines[start]!)) start++;
  let end = lines.length;
  while (end > start && isBlank(lines[end - 1]!)) end--;
  let result = '';
  for (let index = start; index < end; index++) {
    if (index > start) result += '\n';
    result += lines[index]!.trimEnd();
  }
  return result;
}

function isBlank(line: string): boolean {
  return line.trim() === '';
}

/**
 * Whitespace handling shared by the markdown converter: browser-like collapsing of text in normal
 * flow, and cleanup of code text (which keeps its whitespace).
 */

/** Invisible characters that only add noise to markdown: zero-width space, soft hyphen, BOM. */
const INVISIBLE = /[\u200b\u00ad\ufeff]/g;
const HAS_INVISIBLE = /[\u200b\u00ad\ufeff]/;

/**
 * A run of whitespace that is not a single literal space: one that starts with a tab, newline,
 * carriage return, form feed or no-break space, or a space followed by more whitespace.
 */
const WHITESPACE_RUN = /[\t\n\f\r\u00a0][\t\n\f\r \u00a0]*| [\t\n\f\r \u00a0]+/g;
/** Anything {@link collapseWhitespace} changes: two whitespace or invisible characters in a row, or one that is not a space. */
const NEEDS_COLLAPSE = /[\t\n\f\r \u00a0\u200b\u00ad\ufeff]{2,}|[\t\n\f\r\u00a0\u200b\u00ad\ufeff]/;

/**
 * Collapses text the way a browser lays out inline text: every run of whitespace (including
 * no-break spaces) becomes one space, and invisible characters (zero-width space, soft hyphen,
 * BOM) are removed, so whitespace on both sides of one joins into a single run. Leading and
 * trailing spaces are kept (the caller decides whether they separate words).
 *
 * One regular expression replace rather than a loop over the characters that built the result
 * slice by slice: wrapped text (every line break a run to rewrite) costs half as much, and the
 * result is one flat string.
 */
export function collapseWhitespace(text: string): string {
  // Most text of real pages needs nothing: one test, not two scans.
  if (!NEEDS_COLLAPSE.test(text)) return text;
  const visible = HAS_INVISIBLE.test(text) ? text.replace(INVISIBLE, '') : text;
  return visible.replace(WHITESPACE_RUN, ' ');
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

/**
 * What one page may hold before converting it stops. Past a limit the page is not failed: its
 * markup is cut where the limit is reached (before it is parsed, so a hostile page never builds a
 * larger tree), the first part is converted, and the output carries a `warning` saying which limit
 * and how much was kept (Firecrawl documents have `warning`); a huge real page (a long changelog,
 * a giant table) gives what fits. Elements, table cells and text are counted on the raw markup;
 * the markdown is measured once written and cut at the limit too. Bytes read are bounded by the
 * fetcher (QUARRY_MAX_BODY_BYTES), nesting depth by the parser (parse-html.ts flattens past 512
 * levels, as browsers do), time and heap by the transform workers.
 */
export interface PageLimits {
  /** Most elements (start tags) of a page converted; the markup is cut before the next one. */
  maxElements: number;
  /** Most table cells (`<td>`, `<th>`) of a page converted; the markup is cut before the next one. */
  maxTableCells: number;
  /** Longest markdown a page may give, in characters; text past it is cut, before and after conversion. */
  maxMarkdownChars: number;
}

export const defaultPageLimits: PageLimits = { maxElements: 500_000, maxTableCells: 200_000, maxMarkdownChars: 20_000_000 };

/** Markup within the limits, and the warning when it had to be cut. */
export interface BoundedMarkup {
  html: string;
  /** Which limit cut the markup and how much was kept; absent when the page is within every limit. */
  warning?: string;
  /** Which limit cut the markup; absent when the page is within every limit. */
  limit?: keyof PageLimits;
}

/** The words and environment variable of each limit, for warnings. */
const limitNames: Record<keyof PageLimits, string> = {
  maxElements: 'elements (QUARRY_MAX_PAGE_ELEMENTS)',
  maxTableCells: 'table cells (QUARRY_MAX_TABLE_CELLS)',
  maxMarkdownChars: 'characters of text (QUARRY_MAX_MARKDOWN_CHARS)',
};

function cutWarning(limit: keyof PageLimits, max: number, kept: number, total: number): string {
  const percent = Math.floor((kept / total) * 100);
  return `The page has more than ${max} ${limitNames[limit]}: only its first ${kept} of ${total} characters of HTML (${percent} %) were converted.`;
}

/** True when the char code is an ASCII letter. */
function isLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

/** True for the HTML whitespace characters (tab, line feed, form feed, carriage return, space). */
function isSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

/** True when `<` at `at` opens a `td` or `th` tag. */
function isCell(html: string, at: number): boolean {
  const first = html.charCodeAt(at + 1) | 0x20;
  const second = html.charCodeAt(at + 2) | 0x20;
  if (first !== 0x74 || (second !== 0x64 && second !== 0x68)) return false;
  const after = html.charCodeAt(at + 3);
  return Number.isNaN(after) || after === 0x3e || after === 0x2f || isSpace(after);
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
 * Where the tag opened at `at` ends (its `>`), past quoted attribute values (`title="a>b"`, whose
 * `>` and `<` are not markup); -1 when the markup ends first. Each character is read once.
 */
function tagEnd(html: string, at: number): number {
  let index = at + 1;
  while (index < html.length) {
    const code = html.charCodeAt(index);
    if (code === 0x3e) return index;
    index++;
    if (code !== 0x3d) continue;
    while (isSpace(html.charCodeAt(index))) index++;
    const quote = html.charCodeAt(index);
    if (quote !== 0x22 && quote !== 0x27) continue;
    const close = html.indexOf(quote === 0x22 ? '"' : "'", index + 1);
    if (close === -1) return -1;
    index = close + 1;
  }
  return -1;
}

/**
 * Where the markup construct that starts with `<` at `at` ends (the index of its last character),
 * or -1 when it runs to the end of the markup; `at - 1` when this `<` is text. Start and end tags
 * end at their `>` (past quoted attribute values), comments at `-->`, `<!...>` and `<?...>` at `>`.
 */
function markupEnd(html: string, at: number): number {
  const next = html.charCodeAt(at + 1);
  if (isLetter(next)) {
    const raw = rawTextTagAt(html, at);
    if (!raw) return tagEnd(html, at);
    const open = tagEnd(html, at);
    if (open === -1) return -1;
    const close = endTagOf(html, raw, open + 1);
    return close === -1 ? -1 : tagEnd(html, close);
  }
  if (next === 0x2f) return isLetter(html.charCodeAt(at + 2)) ? tagEnd(html, at) : html.indexOf('>', at + 2);
  if (next === 0x21 && html.startsWith('--', at + 2)) {
    const close = html.indexOf('-->', at + 4);
    return close === -1 ? -1 : close + 2;
  }
  if (next === 0x21 || next === 0x3f) return html.indexOf('>', at + 2);
  return at - 1;
}

/** Where the end tag `</name` after `from` starts, any case; -1 when there is none. */
function endTagOf(html: string, name: string, from: number): number {
  let end = html.indexOf('</', from);
  while (end !== -1 && html.slice(end + 2, end + 2 + name.length).toLowerCase() !== name) end = html.indexOf('</', end + 2);
  return end;
}

/**
 * True when markup of `length` characters cannot pass any limit, so it need not be scanned (most
 * pages: under 400,000 characters with the defaults). A counted tag spans at least 3 characters
 * (`<a>`) and a cell 4 (`<td>`), one of each at the end aside; text is at most the whole markup.
 */
function isWithinAnyLimit(length: number, limits: PageLimits): boolean {
  return length <= limits.maxMarkdownChars && length < 2 * Math.min(limits.maxElements, limits.maxTableCells);
}

/**
 * A text cut at `at` moved back before a character reference it would split (`&am`) or between
 * the halves of a surrogate pair.
 */
function textCut(html: string, at: number): number {
  const code = html.charCodeAt(at - 1);
  if (code >= 0xd800 && code <= 0xdbff) return at - 1;
  const ampersand = html.lastIndexOf('&', at - 1);
  if (ampersand !== -1 && at - ampersand <= 32 && /^&#?[\da-z]*$/i.test(html.slice(ampersand, at))) return ampersand;
  return at;
}

/**
 * The markup of a page within the limits, in one linear scan: cut before the start tag that would
 * pass `maxElements` or `maxTableCells`, or inside the text run that passes `maxMarkdownChars`, with
 * a warning naming the limit and how much was kept. A cut is never inside a tag, an attribute
 * value, a comment, a script or a style: those are read whole (tags inside them are not counted),
 * and one that runs to the end of the markup ends the scan. Text is what lies between tags outside
 * scripts, styles and comments: markdown longer than the limit would follow (entities aside).
 */
export function boundMarkup(html: string, limits: PageLimits): BoundedMarkup {
  if (isWithinAnyLimit(html.length, limits)) return { html };
  let elements = 0;
  let cells = 0;
  let text = 0;
  let textFrom = 0;
  const cut = (at: number, limit: keyof PageLimits): BoundedMarkup => ({
    html: html.slice(0, at),
    warning: cutWarning(limit, limits[limit], at, html.length),
    limit,
  });
  for (let at = html.indexOf('<'); at !== -1; at = html.indexOf('<', at + 1)) {
    const end = markupEnd(html, at);
    if (end === at - 1) continue;
    text += at - textFrom;
    if (text > limits.maxMarkdownChars) return cut(textCut(html, at - (text - limits.maxMarkdownChars)), 'maxMarkdownChars');
    if (isLetter(html.charCodeAt(at + 1))) {
      if (++elements > limits.maxElements) return cut(at, 'maxElements');
      if (isCell(html, at) && ++cells > limits.maxTableCells) return cut(at, 'maxTableCells');
    }
    if (end === -1) return { html };
    textFrom = end + 1;
    at = end;
  }
  text += html.length - textFrom;
  if (text > limits.maxMarkdownChars) return cut(textCut(html, html.length - (text - limits.maxMarkdownChars)), 'maxMarkdownChars');
  return { html };
}

/**
 * The markdown within `maxMarkdownChars`: cut at the limit (never between the halves of a
 * surrogate pair), with a warning, when it is longer.
 */
export function boundMarkdown(markdown: string, limits: PageLimits): { markdown: string; warning?: string } {
  if (markdown.length <= limits.maxMarkdownChars) return { markdown };
  let at = limits.maxMarkdownChars;
  const code = markdown.charCodeAt(at - 1);
  if (code >= 0xd800 && code <= 0xdbff) at--;
  return {
    markdown: markdown.slice(0, at),
    warning: `The page's markdown is longer than ${limits.maxMarkdownChars} characters (QUARRY_MAX_MARKDOWN_CHARS): only its first ${at} of ${markdown.length} characters are given.`,
  };
}

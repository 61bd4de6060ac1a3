/**
 * Minimal but correct escaping of markdown specials in text. A character is escaped only where a
 * CommonMark/GFM parser could read it as syntax: `snake_case` and `a * b` stay as they are, while
 * `*emphasis*`, `` `ticks` ``, `[brackets]`, `<tags>` and line-start markers (`# `, `> `, `- `,
 * `1. `) are escaped.
 */

const MAY_NEED_ESCAPE = /[\\*_`[\]<&~]/;
const SPECIALS = /[\\*_`[\]<&~]/g;
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const WORD_CHARACTER = /[\p{L}\p{N}]/u;
const ENTITY_LIKE = /^&(?:#\d{1,7}|#[xX][\da-fA-F]{1,6}|[A-Za-z][A-Za-z\d]{1,31});/;
const TAG_START = /[A-Za-z/!?]/;
const ORDERED_MARKER = /^(\d{1,9})([.)])(?=[ \t]|$)/;

/**
 * Escapes inline specials in a run of (already whitespace-collapsed) text. `inLinkText` also
 * escapes `]`, which would otherwise end the link text early. Characters at the edges of `text`
 * are treated as if their unseen neighbours were punctuation, so edges escape conservatively.
 */
export function escapeInline(text: string, inLinkText: boolean): string {
  if (!MAY_NEED_ESCAPE.test(text)) return text;
  return text.replace(SPECIALS, (character, offset: number) => {
    const previous = text[offset - 1];
    const next = text[offset + 1];
    switch (character) {
      case '\\':
        return next === undefined || ASCII_PUNCTUATION.test(next) ? '\\\\' : '\\';
      case '*':
        return previous === ' ' && next === ' ' ? '*' : '\\*';
      case '_':
        return isWordCharacter(previous) && isWordCharacter(next) ? '_' : '\\_';
      case '`':
      case '[':
        return '\\' + character;
      case ']':
        return inLinkText ? '\\]' : ']';
      case '<':
        return next !== undefined && TAG_START.test(next) ? '\\<' : '<';
      case '&':
        return ENTITY_LIKE.test(text.slice(offset, offset + 40)) ? '\\&' : '&';
      default: // '~': one tilde is literal in GFM, two make strikethrough
        return previous === '~' || next === '~' ? '\\~' : '~';
    }
  });
}

/**
 * Escapes what would start a block when `text` begins a line: ATX headings (`# `), block quotes,
 * bullet markers (`- `, `+ `), thematic breaks and setext underlines (`---`, `===`), and ordered
 * markers (`1. `, `1) `). Apply after {@link escapeInline} (which already handles `*`, `_`, `` ` ``).
 */
export function escapeLineStart(text: string): string {
  const first = text.charCodeAt(0);
  switch (first) {
    case 0x23: {
      // '#'
      let level = 1;
      while (text.charCodeAt(level) === 0x23) level++;
      return level <= 6 && isSpaceOrEnd(text, level) ? '\\' + text : text;
    }
    case 0x3e: // '>'
      return '\\' + text;
    case 0x2d: // '-'
      return isSpaceOrEnd(text, 1) || text.charCodeAt(1) === 0x2d ? '\\' + text : text;
    case 0x2b: // '+'
      return isSpaceOrEnd(text, 1) ? '\\' + text : text;
    case 0x3d: // '='
      return isSpaceOrEnd(text, 1) || text.charCodeAt(1) === 0x3d ? '\\' + text : text;
    default:
      return first >= 0x30 && first <= 0x39 ? text.replace(ORDERED_MARKER, '$1\\$2') : text;
  }
}

/** Escapes `|` for a GFM table cell (also inside code spans, where GFM expects `\|` too). */
export function escapeTableCell(text: string): string {
  return text.includes('|') ? text.replace(/\|/g, '\\|') : text;
}

/** A fence of backticks longer than any backtick run in `code`, at least `minimum` long. */
export function backtickFence(code: string, minimum: number): string {
  let longest = 0;
  let run = 0;
  for (let index = 0; index < code.length; index++) {
    if (code.charCodeAt(index) === 0x60) {
      run++;
      if (run > longest) longest = run;
    } else {
      run = 0;
    }
  }
  return '`'.repeat(Math.max(minimum, longest + 1));
}

/** An inline code span for `code` (single line, already collapsed), e.g. ``` `` a`b `` ```. */
export function codeSpan(code: string): string {
  const fence = code.includes('`') ? backtickFence(code, 1) : '`';
  const padded = code.startsWith('`') || code.endsWith('`') ? ` ${code} ` : code;
  return fence + padded + fence;
}

function isWordCharacter(character: string | undefined): boolean {
  return character !== undefined && WORD_CHARACTER.test(character);
}

function isSpaceOrEnd(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return Number.isNaN(code) || code === 0x20 || code === 0x09;
}

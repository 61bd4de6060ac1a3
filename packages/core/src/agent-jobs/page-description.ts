import type { ScrapeDocument } from '../document.js';

/**
 * Describing a page without a model: its meta (or OpenGraph) description, else the first
 * paragraph of its main content, as one line of at most `maxLength` characters.
 */
export const descriptionMaxLength = 200;

export function describePage(document: ScrapeDocument, maxLength = descriptionMaxLength): string {
  const metadata = document.metadata;
  const stated = firstText(metadata.description, metadata.ogDescription, metadata['og:description']);
  const text = stated ?? firstParagraph(document.markdown ?? '') ?? '';
  return shorten(oneLine(text), maxLength);
}

/**
 * The first paragraph of prose in markdown: not a heading, list, table, quote, code block, image
 * or link line; with inline markdown (links, emphasis, code) reduced to its text.
 */
export function firstParagraph(markdown: string): string | undefined {
  const withoutCode = markdown.replace(/```[\s\S]*?```/g, '');
  for (const block of withoutCode.split(/\n\s*\n/)) {
    const text = block.trim();
    if (!text || /^(#|[-*+] |\d+[.)] |>|\||!\[|<)/.test(text)) continue;
    const plain = plainText(text);
    if (plain.length >= 20 && /[a-z]/i.test(plain)) return plain;
  }
  return undefined;
}

/**
 * Inline markdown reduced to its text: `[a](b)` -> a, `**a**` -> a, `` `a` `` -> a. Escaped
 * characters (`\_`) are set aside first, so `Lib/json/\_\_init\_\_.py` stays a file name, and
 * `_` inside a word (`snake_case`) is never emphasis, as in CommonMark.
 */
export function plainText(markdown: string): string {
  const escaped: string[] = [];
  return markdown
    .replace(/\\([\\`*_{}[\]()#+\-.!|])/g, (_match, character: string) => `\u0000${escaped.push(character) - 1}\u0000`)
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*\*(.+?)\*\*/g, '$1')
    .replace(/(?<![\p{L}\p{N}])__(.+?)__(?![\p{L}\p{N}])/gu, '$1')
    .replace(/\*(\S.*?)\*/g, '$1')
    .replace(/(?<![\p{L}\p{N}])_(\S.*?)_(?![\p{L}\p{N}])/gu, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\u0000(\d+)\u0000/g, (_match, index: string) => escaped[Number(index)] ?? '');
}

/** At most `maxLength` characters, cut after a sentence when one ends late enough, else at a word with an ellipsis. */
export function shorten(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const cut = text.slice(0, maxLength);
  const sentenceEnd = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('! '), cut.lastIndexOf('? '));
  if (sentenceEnd >= maxLength * 0.5) return cut.slice(0, sentenceEnd + 1);
  const space = cut.lastIndexOf(' ');
  return `${(space >= maxLength * 0.5 ? cut.slice(0, space) : cut.slice(0, maxLength - 1)).replace(/[\s,;:.-]+$/, '')}…`;
}

export const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function firstText(...values: unknown[]): string | undefined {
  for (const value of values) {
    const text = Array.isArray(value) ? value.find((item) => typeof item === 'string' && item.trim()) : value;
    if (typeof text === 'string' && text.trim()) return text;
  }
  return undefined;
}

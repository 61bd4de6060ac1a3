import { dominantKey, type PdfLine } from './text-lines.js';

/** Separator between pages: a blank line, a thematic break, a blank line. */
export const pageBreak = '\n\n---\n\n';

type Block =
  | { kind: 'heading'; level: number; text: string; size: number; lastY: number }
  | { kind: 'paragraph'; text: string; size: number; lastY: number }
  | { kind: 'item'; marker: string; text: string; size: number; lastY: number; x: number };

interface Layout {
  /** Most common font size, weighted by characters: the body text. */
  bodySize: number;
  /** Heading level by rounded font size. */
  levels: Map<number, number>;
  /** Most common baseline distance between consecutive body lines. */
  lineSpacing: number;
}

/** A size counts as a heading when it is this much larger than the body size ... */
const headingRatio = 1.15;
/** ... and at least this many points larger. */
const headingMinDelta = 1;
/** Lines longer than this are text set large, not headings. */
const headingMaxLength = 200;
/** Headings get `#`, `##`, `###` by size rank; smaller heading sizes share the last level. */
const maxHeadingLevel = 3;
/** A baseline gap up to this multiple of the usual line spacing keeps a paragraph going. */
const paragraphGapRatio = 1.35;

/** List markers: bullet glyphs (including Symbol/Wingdings private-use bullets) and `1.` / `1)`. */
const listMarkers: ReadonlyArray<{ pattern: RegExp; marker: (match: RegExpMatchArray) => string }> = [
  { pattern: /^[•●▪■◦‣∙·○◆◇►▸➢✓✔\uf0b7\uf0a7\uf076\uf0d8\uf0fc]\s*(.+)$/u, marker: () => '-' },
  { pattern: /^[-–—*+]\s+(.+)$/u, marker: () => '-' },
  { pattern: /^(\d{1,3})[.)]\s+(.+)$/u, marker: (match) => `${match[1]}.` },
];

/** Text that markdown would read as block syntax at the start of a paragraph, and its escape. */
const blockStartEscapes: ReadonlyArray<[RegExp, string]> = [
  [/^(#{1,6})(\s|$)/, '\\$1$2'],
  [/^>/, '\\>'],
  [/^([=_-]{3,}\s*)$/, '\\$1'],
];

const round = (size: number): number => Math.round(size * 2) / 2;

/**
 * Lays out the lines of each page as markdown: paragraphs joined from lines by their baseline
 * gaps (a word hyphenated across lines is rejoined), headings where the font size is clearly above
 * the body size (`#` for the largest, `##`, `###` for the next), bullet and numbered lists kept,
 * and pages separated by {@link pageBreak} (an empty page yields an empty section).
 * Returns the text of the first heading too, as a title candidate.
 */
export function linesToMarkdown(pages: ReadonlyArray<ReadonlyArray<PdfLine>>): { markdown: string; firstHeading?: string } {
  const layout = measureLayout(pages.flat());
  const blocksByPage = pages.map((lines) => pageBlocks(lines, layout));
  const firstHeading = blocksByPage.flat().find((block) => block.kind === 'heading')?.text;
  const markdown = blocksByPage.map(renderBlocks).join(pageBreak).trim();
  return firstHeading === undefined ? { markdown } : { markdown, firstHeading };
}

function measureLayout(lines: ReadonlyArray<PdfLine>): Layout {
  const chars = new Map<number, number>();
  for (const line of lines) chars.set(round(line.size), (chars.get(round(line.size)) ?? 0) + line.text.length);
  const bodySize = dominantKey(chars) ?? 0;

  const headingSizes = new Set<number>();
  for (const line of lines) if (isHeadingCandidate(line, bodySize)) headingSizes.add(round(line.size));
  const ranked = [...headingSizes].sort((a, b) => b - a);
  const levels = new Map(ranked.map((size, rank) => [size, Math.min(rank + 1, maxHeadingLevel)]));

  const gaps = new Map<number, number>();
  for (let index = 1; index < lines.length; index++) {
    const [previous, line] = [lines[index - 1] as PdfLine, lines[index] as PdfLine];
    const gap = round(previous.y - line.y);
    if (round(line.size) === bodySize && round(previous.size) === bodySize && gap > 0 && gap <= bodySize * 3) {
      gaps.set(gap, (gaps.get(gap) ?? 0) + 1);
    }
  }
  return { bodySize, levels, lineSpacing: dominantKey(gaps) ?? bodySize * 1.2 };
}

function isHeadingCandidate(line: PdfLine, bodySize: number): boolean {
  return line.size >= bodySize * headingRatio && line.size - bodySize >= headingMinDelta && line.text.length <= headingMaxLength && /\p{L}/u.test(line.text);
}

function pageBlocks(lines: ReadonlyArray<PdfLine>, layout: Layout): Block[] {
  const blocks: Block[] = [];
  for (const line of lines) {
    const previous = blocks.at(-1);
    const size = round(line.size);
    const gap = previous ? previous.lastY - line.y : Number.POSITIVE_INFINITY;
    const spacing = layout.lineSpacing * (size / (layout.bodySize || size));
    const isClose = previous !== undefined && previous.size === size && gap > 0 && gap <= spacing * paragraphGapRatio;
    const level = isHeadingCandidate(line, layout.bodySize) ? layout.levels.get(size) : undefined;

    if (level !== undefined) {
      if (previous?.kind === 'heading' && previous.size === size && gap > 0 && gap <= size * 2) {
        extend(previous, line);
      } else {
        blocks.push({ kind: 'heading', level, text: line.text, size, lastY: line.y });
      }
      continue;
    }
    const item = listItem(line.text);
    if (item) {
      blocks.push({ kind: 'item', ...item, size, lastY: line.y, x: line.x });
    } else if (isClose && (previous.kind === 'paragraph' || (previous.kind === 'item' && line.x > previous.x + size * 0.3))) {
      extend(previous, line);
    } else {
      blocks.push({ kind: 'paragraph', text: line.text, size, lastY: line.y });
    }
  }
  return blocks;
}

function listItem(text: string): { marker: string; text: string } | undefined {
  for (const { pattern, marker } of listMarkers) {
    const match = text.match(pattern);
    if (match) return { marker: marker(match), text: (match.at(-1) ?? '').trim() };
  }
  return undefined;
}

/** Appends a line to a block, rejoining a word hyphenated at the line end. */
function extend(block: Block, line: PdfLine): void {
  const hyphenated = /\p{Ll}[-\u00ad]$/u.test(block.text) && /^\p{Ll}/u.test(line.text);
  block.text = hyphenated ? block.text.slice(0, -1) + line.text : `${block.text.replace(/\u00ad$/, '')} ${line.text}`;
  block.lastY = line.y;
}

function renderBlocks(blocks: ReadonlyArray<Block>): string {
  let out = '';
  blocks.forEach((block, index) => {
    const isTightItem = block.kind === 'item' && blocks[index - 1]?.kind === 'item';
    if (index > 0) out += isTightItem ? '\n' : '\n\n';
    out += renderBlock(block);
  });
  return out;
}

function renderBlock(block: Block): string {
  switch (block.kind) {
    case 'heading':
      return `${'#'.repeat(block.level)} ${block.text}`;
    case 'item':
      return `${block.marker} ${escapeBlockStart(block.text)}`;
    case 'paragraph':
      return escapeBlockStart(block.text);
  }
}

function escapeBlockStart(text: string): string {
  for (const [pattern, replacement] of blockStartEscapes) if (pattern.test(text)) return text.replace(pattern, replacement);
  return text;
}

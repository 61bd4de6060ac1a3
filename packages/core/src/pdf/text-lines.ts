/** One visual line of a PDF page, in PDF user space (y grows upwards). */
export interface PdfLine {
  text: string;
  /** Left edge of the first glyph. */
  x: number;
  /** Baseline of the line. */
  y: number;
  /** Font size (points) of the run that carries most of the line's characters. */
  size: number;
}

/** The subset of pdf.js's `TextItem` this module reads (marked-content items have no `str`). */
export interface PdfTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
}

interface OpenLine {
  text: string;
  x: number;
  y: number;
  endX: number;
  maxSize: number;
  charsBySize: Map<number, number>;
}

/** Two runs belong to one line when their baselines differ by less than this share of the font size. */
const sameLineTolerance = 0.5;
/** A horizontal gap wider than this share of the font size between two runs is a word space. */
const wordGap = 0.12;

/**
 * Groups pdf.js text runs (in content-stream order) into visual lines. Runs on the same baseline
 * join, with a space where the glyphs leave a gap; whitespace is collapsed. Stream order is kept,
 * so a two-column page comes out column by column when its producer wrote it that way.
 */
export function textLines(items: ReadonlyArray<PdfTextItem | { type: string }>): PdfLine[] {
  const lines: PdfLine[] = [];
  let open: OpenLine | undefined;
  for (const item of items) {
    if (!('str' in item) || item.str === '') continue;
    const [, , c = 0, d = 0, x = 0, y = 0] = item.transform;
    const size = Math.hypot(c, d) || item.height;
    const isBlank = item.str.trim() === '';
    if (open && Math.abs(y - open.y) < sameLineTolerance * Math.max(size, open.maxSize)) {
      const needsSpace = x - open.endX > wordGap * size && !/\s$/.test(open.text) && !/^\s/.test(item.str);
      open.text += (needsSpace ? ' ' : '') + item.str;
      open.endX = Math.max(open.endX, x + item.width);
      open.maxSize = Math.max(open.maxSize, size);
    } else if (isBlank) {
      continue;
    } else {
      if (open) lines.push(closeLine(open));
      open = { text: item.str, x, y, endX: x + item.width, maxSize: size, charsBySize: new Map() };
    }
    if (!isBlank) {
      const key = Math.round(size * 2) / 2;
      open.charsBySize.set(key, (open.charsBySize.get(key) ?? 0) + item.str.length);
    }
  }
  if (open) lines.push(closeLine(open));
  return lines.filter((line) => line.text !== '');
}

function closeLine(open: OpenLine): PdfLine {
  const text = open.text
    .replace(/[\u0000-\u0008\u000b-\u001f]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return { text, x: open.x, y: open.y, size: dominantKey(open.charsBySize) ?? 0 };
}

/** The key with the largest count; ties go to the smaller key (body text over headings, leading over paragraph gaps). */
export function dominantKey(counts: ReadonlyMap<number, number>): number | undefined {
  let best: number | undefined;
  let bestCount = -1;
  for (const [key, count] of counts) {
    if (count > bestCount || (count === bestCount && best !== undefined && key < best)) {
      best = key;
      bestCount = count;
    }
  }
  return best;
}

import { type AnyNode, isTag, isText, type Element } from 'domhandler';
import type { MarkdownConverter } from './markdown-converter.js';
import { isSkippedElement } from './skip-rules.js';

interface CollectedTable {
  caption: Element | undefined;
  rows: Element[][];
  /** A `<thead>` or a first row of `<th>` cells exists. */
  hasHeader: boolean;
}

const MAX_COLSPAN = 50;
const MAX_ROWSPAN = 1000;
/**
 * Grid cells (spans and row padding included) a GFM table may write: this many per cell element,
 * plus a floor. Spans and the padding of short rows to the widest make the grid rows x width, not
 * the cells the page has: 10,000 rows of `<td colspan rowspan>` stack carried columns into a grid
 * of 500 million cells (gigabytes of `|  |`). Past the bound the table renders its cells as blocks,
 * as a layout table does: every cell's content kept, written once.
 */
const GRID_CELLS_PER_CELL = 16;
const GRID_CELLS_FLOOR = 10_000;
/** Characters of text beyond which a cell with two blocks reads as page layout rather than data. */
const LAYOUT_CELL_TEXT = 300;
const HEADING_TAGS: ReadonlySet<string> = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Blocks that a data cell rarely holds two of (wrapper `<div>`s are common in data cells, so they do not count). */
const LAYOUT_BLOCK_TAGS: ReadonlySet<string> = new Set(['p', 'ul', 'ol', 'blockquote', 'pre', 'dl', 'form']);

/**
 * `<table>`: a GFM table. Without `<thead>` the first row is the header. Cells are one line: `|` is
 * escaped and blocks or line breaks inside a cell are joined with `<br>`. `colspan` repeats empty
 * cells after the content; `rowspan` leaves the spanned cells below empty. Layout tables (one
 * column, one row, `role=presentation`, nested tables, or headerless cells
 * holding headings or several blocks of text) and tables inside cells render their cells as blocks instead.
 * Rows of one heading cell across a headerless table divide it into sections, each its heading and
 * a table (`sectionsOf`).
 */
export function renderTable(table: Element, converter: MarkdownConverter): void {
  if (converter.inlineOnly > 0) {
    converter.renderBlock(table);
    return;
  }
  const collected = collectTable(table);
  const sections = converter.writer.isCell ? undefined : sectionsOf(collected);
  if (sections) {
    for (const [title, rows] of sections) {
      if (title !== undefined) converter.renderBlock(title);
      renderCollected(table, { caption: title === undefined ? collected.caption : undefined, rows, hasHeader: false }, converter);
    }
    return;
  }
  renderCollected(table, collected, converter);
}

/** A table (or a section of one, see `sectionsOf`) as GFM, or its cells as blocks when it is laid out. */
function renderCollected(table: Element, collected: CollectedTable, converter: MarkdownConverter): void {
  if (converter.writer.isCell || isLayoutTable(table, collected)) {
    renderAsBlocks(collected, converter);
    return;
  }
  const grid = buildGrid(collected.rows, converter);
  if (grid === undefined) {
    renderAsBlocks(collected, converter);
    return;
  }
  if (grid.length === 0) return;
  converter.openBlock(2);
  if (collected.caption !== undefined) converter.renderBlock(collected.caption);
  // A loop, not a spread: a table of 200,000 rows would overflow the stack.
  let width = 0;
  for (const row of grid) width = Math.max(width, row.length);
  const writer = converter.writer;
  writer.flushParagraph();
  writer.writeLine(formatRow(grid[0]!, width));
  writer.writeLine(formatRow(new Array<string>(width).fill('---'), width));
  for (let index = 1; index < grid.length; index++) writer.writeLine(formatRow(grid[index]!, width));
  converter.closeBlock(2);
}

/**
 * The sections of a headerless table of two columns or more that rows of one cell across the table
 * holding a heading divide (Doxygen's member summaries: "Functions", then `int | SDL_Init (Uint32
 * flags)` rows), as [heading cell, rows below it] (the rows above the first heading, if any, come
 * first, untitled); undefined when it has none. Each section is then a table of its own under its
 * heading rather than the whole a layout table because headings sit in its cells.
 */
function sectionsOf(collected: CollectedTable): [Element | undefined, Element[][]][] | undefined {
  if (collected.hasHeader) return undefined;
  let columns = 0;
  for (const row of collected.rows) columns = Math.max(columns, row.length);
  if (columns < 2) return undefined;
  const sections: [Element | undefined, Element[][]][] = [];
  let current: [Element | undefined, Element[][]] | undefined;
  for (const row of collected.rows) {
    const cell = row[0]!;
    if (row.length === 1 && clamp(cell.attribs.colspan, MAX_COLSPAN) >= columns && holdsHeading(cell)) {
      current = [cell, []];
      sections.push(current);
      continue;
    }
    if (current === undefined) {
      current = [undefined, []];
      sections.push(current);
    }
    current[1].push(row);
  }
  return sections.some(([title]) => title !== undefined) ? sections : undefined;
}

/** A heading among a cell's children or its wrappers' (the few levels a generator nests it in). */
function holdsHeading(cell: Element, depth = 0): boolean {
  for (const child of cell.children) {
    if (!isTag(child)) continue;
    if (HEADING_TAGS.has(child.name)) return true;
    if (depth < 2 && holdsHeading(child, depth + 1)) return true;
  }
  return false;
}

/** The caption, then every cell as a block (layout tables, and grids past their bound). */
function renderAsBlocks(collected: CollectedTable, converter: MarkdownConverter): void {
  converter.openBlock();
  if (collected.caption !== undefined) converter.renderBlock(collected.caption);
  for (const row of collected.rows) for (const cell of row) converter.renderBlock(cell);
  converter.closeBlock();
}

/**
 * Rows of rendered cells with spans flattened; headerless empty rows dropped; `[]` when all is
 * empty; `undefined` as soon as the grid (rows x widest row) would pass its bound.
 */
function buildGrid(rows: readonly Element[][], converter: MarkdownConverter): string[][] | undefined {
  let cellCount = 0;
  for (const row of rows) cellCount += row.length;
  const maxGridCells = GRID_CELLS_FLOOR + GRID_CELLS_PER_CELL * cellCount;
  const grid: string[][] = [];
  // Rows a cell above still spans, per column: dense (0 = none), so that every read and write of it stays in bounds.
  const carried: number[] = [];
  let hasContent = false;
  let gridCells = 0;
  let width = 0;
  for (const [rowIndex, row] of rows.entries()) {
    const cells: string[] = [];
    let isRowEmpty = true;
    for (const cell of row) {
      fillCarried(cells, carried);
      const text = converter.renderCell(cell);
      if (text !== '') isRowEmpty = false;
      const columnSpan = clamp(cell.attribs.colspan, MAX_COLSPAN);
      const rowsBelow = clamp(cell.attribs.rowspan, MAX_ROWSPAN) - 1;
      for (let span = 0; span < columnSpan; span++) {
        carry(carried, cells.length, rowsBelow);
        cells.push(span === 0 ? text : '');
      }
    }
    fillCarried(cells, carried);
    gridCells += cells.length;
    width = Math.max(width, cells.length);
    if (gridCells > maxGridCells || width * (grid.length + 1) > maxGridCells) return undefined;
    if (isRowEmpty && rowIndex > 0) continue;
    hasContent ||= !isRowEmpty;
    grid.push(cells);
  }
  return hasContent ? grid : [];
}

/** Empty cells where a cell of a row above still spans (a module function, not a closure made per row, which V8 compiled again on later pages). */
function fillCarried(cells: string[], carried: number[]): void {
  for (let column = cells.length; column < carried.length; column = cells.length) {
    const pending = carried[column]!;
    carried[column] = pending > 0 ? pending - 1 : 0; // written either way, for the reason `carry` gives
    if (pending === 0) return;
    cells.push('');
  }
}

/**
 * A cell at `column` spans `rowsBelow` more rows (0: none, and a span still pending there is kept).
 * Written for every cell, rowspan or not, into a dense array: a write that only rowspans reached
 * (rare, often first met after V8 had optimized the table code) into a holey array deoptimized both
 * functions in every crawl (out of bounds, no type feedback), so that a postgresql-doc-15 crawl
 * compiled `buildGrid` 4 times and `fillCarried` 3 (now 2 and 2; benchmarks/crawl-real-site/README.md,
 * thirteenth pass).
 */
function carry(carried: number[], column: number, rowsBelow: number): void {
  while (carried.length <= column) carried.push(0);
  carried[column] = rowsBelow > 0 ? rowsBelow : carried[column]!;
}

function formatRow(cells: readonly string[], width: number): string {
  let line = '|';
  for (let index = 0; index < width; index++) {
    const cell = cells[index] ?? '';
    line += cell === '' ? '  |' : ` ${cell} |`;
  }
  return line;
}

function collectTable(table: Element): CollectedTable {
  const head: Element[][] = [];
  const body: Element[][] = [];
  const foot: Element[][] = [];
  let caption: Element | undefined;
  for (const child of table.children) {
    if (!isTag(child) || isSkippedElement(child)) continue;
    switch (child.name) {
      case 'caption':
        caption = child;
        break;
      case 'tr':
        addRow(child, body);
        break;
      case 'thead':
      case 'tbody':
      case 'tfoot': {
        const target = child.name === 'thead' ? head : child.name === 'tfoot' ? foot : body;
        for (const row of child.children) if (isTag(row) && row.name === 'tr') addRow(row, target);
        break;
      }
    }
  }
  const rows = [...head, ...body, ...foot];
  const hasHeader = head.length > 0 || (rows[0]?.some((cell) => cell.name === 'th') ?? false);
  return { caption, rows, hasHeader };
}

function addRow(row: Element, target: Element[][]): void {
  if (isSkippedElement(row)) return;
  const cells: Element[] = [];
  for (const cell of row.children) {
    if (isTag(cell) && (cell.name === 'td' || cell.name === 'th') && !isSkippedElement(cell)) cells.push(cell);
  }
  if (cells.length > 0) target.push(cells);
}

function isLayoutTable(table: Element, collected: CollectedTable): boolean {
  const role = table.attribs.role;
  if (role === 'presentation' || role === 'none') return true;
  const { rows, hasHeader } = collected;
  let columns = 0;
  for (const row of rows) columns = Math.max(columns, row.length);
  if (columns <= 1 || rows.length === 1) return true;
  for (const row of rows) for (const cell of row) if (hasLayoutContent(cell, hasHeader)) return true;
  return false;
}

/**
 * A nested table or code of several lines (a GFM cell is one line: its lines would run together or
 * be split at `<br>` without their indentation, where written as blocks it is a code block); or, in a table without header cells, a heading, three blocks, or two blocks with
 * more text than a data cell holds.
 */
function hasLayoutContent(cell: Element, hasHeader: boolean): boolean {
  const tally: LayoutTally = { blocks: 0, textLength: 0, inCode: false };
  return holdsLayout(cell, hasHeader, tally) || (tally.blocks >= 2 && tally.textLength > LAYOUT_CELL_TEXT);
}

interface LayoutTally {
  blocks: number;
  textLength: number;
  /** Inside a `pre` read as one line: the code under it is part of that line (a `pre` nested a thousand deep is read once). */
  inCode: boolean;
}

/** `hasLayoutContent`'s walk: a module function with its tally as an argument, not a closure made per cell that V8 compiled again on later pages. */
function holdsLayout(element: Element, hasHeader: boolean, tally: LayoutTally): boolean {
  for (const child of element.children) {
    if (isText(child)) {
      tally.textLength += child.data.length;
      continue;
    }
    if (!isTag(child)) continue;
    const name = child.name;
    if (name === 'table') return true;
    const opensCode = name === 'pre' && !tally.inCode;
    if (opensCode && isMultiLine(child)) return true;
    if (!hasHeader) {
      if (HEADING_TAGS.has(name)) return true;
      if (LAYOUT_BLOCK_TAGS.has(name) && ++tally.blocks >= 3) return true;
    }
    if (opensCode) tally.inCode = true;
    const holds = holdsLayout(child, hasHeader, tally);
    if (opensCode) tally.inCode = false;
    if (holds) return true;
  }
  return false;
}

/** True when the text under `element` (a `pre`), less blank lines at its ends, holds a line break. */
function isMultiLine(element: Element): boolean {
  let text = '';
  const stack: AnyNode[] = [element];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isText(node)) text += node.data;
    else if (isTag(node)) for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
  }
  return text.trim().includes('\n');
}

function clamp(value: string | undefined, maximum: number): number {
  const number = value === undefined ? 1 : Number.parseInt(value, 10);
  return Number.isFinite(number) && number >= 1 ? Math.min(number, maximum) : 1;
}

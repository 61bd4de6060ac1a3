import type { Element } from 'domhandler';
import { children, descendants, escapeHtml, parseXml, textOf } from './xml-tree.js';
import { utf8, zipEntries } from './zip-entries.js';

/**
 * Spreadsheets (XLSX, ODS, CSV) as named grids of cell text, and grids as HTML tables (the first
 * row as the header, as a sheet's first row usually is). Values are what the file stores (the
 * cached result of a formula, a number as written); styles, formulas and charts are left out.
 * Empty trailing rows and columns are dropped, and a sheet is cut at `maxCells` cells.
 */
export interface Sheet {
  name: string;
  rows: string[][];
}

export const maxCells = 1_000_000;

export function xlsxSheets(bytes: Uint8Array): Sheet[] {
  const entries = zipEntries(
    bytes,
    (name) =>
      name === 'xl/workbook.xml' || name === 'xl/_rels/workbook.xml.rels' || name === 'xl/sharedStrings.xml' || /^xl\/worksheets\/[^/]+\.xml$/.test(name),
  );
  const shared = descendants(parseXml(utf8(entries.get('xl/sharedStrings.xml'))), 'si').map((item) => textOf(item, ['t']));
  const targets = new Map(
    descendants(parseXml(utf8(entries.get('xl/_rels/workbook.xml.rels'))), 'Relationship').map((rel) => [rel.attribs.Id ?? '', rel.attribs.Target ?? '']),
  );
  return descendants(parseXml(utf8(entries.get('xl/workbook.xml'))), 'sheet').map((sheet) => {
    const target = targets.get(sheet.attribs['r:id'] ?? '') ?? '';
    const path = target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`;
    return { name: sheet.attribs.name ?? '', rows: xlsxRows(utf8(entries.get(path)), shared) };
  });
}

function xlsxRows(xml: string, shared: string[]): string[][] {
  const rows: string[][] = [];
  let cells = 0;
  for (const row of descendants(parseXml(xml), 'row')) {
    const index = Number(row.attribs.r ?? rows.length + 1) - 1;
    if (!(index >= 0) || index > maxCells) break;
    const values: string[] = [];
    for (const cell of children(row, 'c')) {
      const column = cell.attribs.r ? columnIndex(cell.attribs.r) : values.length;
      if (column > 16_384 || ++cells > maxCells) break;
      values[column] = xlsxValue(cell, shared);
    }
    rows[index] = Array.from(values, (value) => value ?? '');
  }
  return trimGrid(Array.from(rows, (row) => row ?? []));
}

function xlsxValue(cell: Element, shared: string[]): string {
  const type = cell.attribs.t;
  if (type === 'inlineStr') return textOf(cell, ['t']);
  const raw = textOf(cell, ['v']);
  if (type === 's') return shared[Number(raw)] ?? '';
  if (type === 'b') return raw === '1' ? 'TRUE' : 'FALSE';
  return raw;
}

/** `BC12` -> 54 (0-based column). */
function columnIndex(reference: string): number {
  const letters = /^[A-Z]+/i.exec(reference)?.[0]?.toUpperCase() ?? 'A';
  let index = 0;
  for (const letter of letters) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}

export function odsSheets(bytes: Uint8Array): Sheet[] {
  const entries = zipEntries(bytes, (name) => name === 'content.xml');
  return descendants(parseXml(utf8(entries.get('content.xml'))), 'table:table').map((table) => {
    const rows: string[][] = [];
    let cells = 0;
    for (const row of descendants([table], 'table:table-row')) {
      const values: string[] = [];
      for (const cell of row.children.filter(
        (child): child is Element => 'name' in child && (child.name === 'table:table-cell' || child.name === 'table:covered-table-cell'),
      )) {
        const text = children(cell, 'text:p')
          .map((paragraph) => textOf(paragraph, ['text:p', 'text:span', 'text:a', 'text:s']))
          .join('\n');
        // Empty cells and rows repeat to the sheet's edge (a million rows): only repeat what has text.
        const repeat = text === '' ? 1 : Math.min(Number(cell.attribs['table:number-columns-repeated'] ?? 1), 1_000);
        for (let copy = 0; copy < repeat && cells < maxCells; copy++, cells++) values.push(text);
      }
      const repeat = values.some((value) => value !== '') ? Math.min(Number(row.attribs['table:number-rows-repeated'] ?? 1), 1_000) : 1;
      for (let copy = 0; copy < repeat && cells < maxCells; copy++) rows.push(values);
      if (cells >= maxCells) break;
    }
    return { name: table.attribs['table:name'] ?? '', rows: trimGrid(rows) };
  });
}

/** RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF); a `;` or tab separator when the first line has more of them. */
export function csvSheet(text: string, name = 'Sheet1'): Sheet {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const count = (separator: string) => firstLine.split(separator).length;
  const separator = [',', ';', '\t'].reduce((best, candidate) => (count(candidate) > count(best) ? candidate : best), ',');
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') (field += '"'), index++;
      else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === separator) row.push(field), (field = '');
    else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index++;
      row.push(field), rows.push(row), (row = []), (field = '');
    } else field += char;
  }
  if (field !== '' || row.length > 0) row.push(field), rows.push(row);
  return { name, rows: trimGrid(rows) };
}

function trimGrid(rows: string[][]): string[][] {
  const trimmed = rows.map((row) => {
    let end = row.length;
    while (end > 0 && (row[end - 1] ?? '').trim() === '') end--;
    return row.slice(0, end);
  });
  let end = trimmed.length;
  while (end > 0 && trimmed[end - 1]!.length === 0) end--;
  return trimmed.slice(0, end);
}

/** Sheets as HTML: a heading per sheet (when there are several or it has a name) and a table. */
export function sheetsToHtml(sheets: Sheet[], title?: string): string {
  const parts = sheets.map((sheet) => {
    const width = Math.max(0, ...sheet.rows.map((row) => row.length));
    const cells = (row: string[], tag: 'th' | 'td') =>
      Array.from({ length: width }, (_, index) => `<${tag}>${escapeHtml(row[index] ?? '').replace(/\n/g, '<br>')}</${tag}>`).join('');
    const [head, ...body] = sheet.rows;
    const table = head
      ? `<table><thead><tr>${cells(head, 'th')}</tr></thead><tbody>${body.map((row) => `<tr>${cells(row, 'td')}</tr>`).join('')}</tbody></table>`
      : '';
    return `<section><h2>${escapeHtml(sheet.name)}</h2>${table}</section>`;
  });
  return htmlPage(parts.join('\n'), title);
}

export function htmlPage(body: string, title?: string): string {
  return `<!DOCTYPE html><html><head>${title ? `<title>${escapeHtml(title)}</title>` : ''}</head><body>${body}</body></html>`;
}

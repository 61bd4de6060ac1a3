import type { Element } from 'domhandler';
import { descendants, escapeHtml, parseXml, textOf } from './xml-tree.js';
import { htmlPage } from './sheets.js';
import { utf8, zipEntries } from './zip-entries.js';

/**
 * PPTX slides, in presentation order, as HTML: per slide a heading (its title placeholder, else
 * "Slide N") and the text of its other shapes, one paragraph per text paragraph. Tables become
 * tables; pictures, charts and speaker notes are left out.
 */
export interface Slide {
  title: string;
  paragraphs: string[];
  tables: string[][][];
}

export function pptxSlides(bytes: Uint8Array): Slide[] {
  const entries = zipEntries(
    bytes,
    (name) => name === 'ppt/presentation.xml' || name === 'ppt/_rels/presentation.xml.rels' || /^ppt\/slides\/[^/]+\.xml$/.test(name),
  );
  const targets = new Map(
    descendants(parseXml(utf8(entries.get('ppt/_rels/presentation.xml.rels'))), 'Relationship').map((rel) => [rel.attribs.Id ?? '', rel.attribs.Target ?? '']),
  );
  const paths = descendants(parseXml(utf8(entries.get('ppt/presentation.xml'))), 'p:sldId').map((slide) => {
    const target = targets.get(slide.attribs['r:id'] ?? '') ?? '';
    return target.startsWith('/') ? target.slice(1) : `ppt/${target.replace(/^\.\//, '')}`;
  });
  return paths.map((path) => slideOf(parseXml(utf8(entries.get(path)))));
}

function slideOf(tree: Element[]): Slide {
  let title = '';
  const paragraphs: string[] = [];
  for (const shape of descendants(tree, 'p:sp')) {
    const placeholder = descendants([shape], 'p:ph')[0]?.attribs.type;
    const lines = descendants([shape], 'a:p')
      .map((paragraph) => textOf(paragraph, ['a:t']).trim())
      .filter(Boolean);
    if (!title && (placeholder === 'title' || placeholder === 'ctrTitle')) title = lines.join(' ');
    else paragraphs.push(...lines);
  }
  const tables = descendants(tree, 'a:tbl').map((table) =>
    descendants([table], 'a:tr').map((row) => descendants([row], 'a:tc').map((cell) => textOf(cell, ['a:t']).trim())),
  );
  return { title, paragraphs, tables };
}

export function slidesToHtml(slides: Slide[], title?: string): string {
  const sections = slides.map((slide, index) => {
    const heading = `<h2>${escapeHtml(slide.title || `Slide ${index + 1}`)}</h2>`;
    const text = slide.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('');
    const tables = slide.tables
      .map(
        (rows) =>
          `<table>${rows.map((row, rowIndex) => `<tr>${row.map((cell) => (rowIndex === 0 ? `<th>${escapeHtml(cell)}</th>` : `<td>${escapeHtml(cell)}</td>`)).join('')}</tr>`).join('')}</table>`,
      )
      .join('');
    return `<section>${heading}${text}${tables}</section>`;
  });
  return htmlPage(sections.join('\n'), title);
}

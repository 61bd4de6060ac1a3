import { decodeBody } from '../html/decode-body.js';
import type { OfficeKind } from './document-kind.js';
import { docxToHtml } from './docx.js';
import { officeProperties } from './office-properties.js';
import { csvSheet, htmlPage, odsSheets, sheetsToHtml, xlsxSheets } from './sheets.js';
import { pptxSlides, slidesToHtml } from './slides.js';

/**
 * An office document as HTML (which the scrape's HTML transform turns into markdown, links and
 * clean html) plus what its metadata shows: title and author where the file keeps them, and
 * `numPages` (DOCX, when the writing application counted them), `numSheets` or `numSlides`.
 */
export interface ConvertedOffice {
  html: string;
  metadata: { title?: string; author?: string; numPages?: number; numSheets?: number; numSlides?: number };
}

export async function convertOffice(kind: OfficeKind, bytes: Uint8Array, contentType: string | null = null): Promise<ConvertedOffice> {
  if (kind === 'csv') {
    const sheet = csvSheet(decodeBody(bytes, contentType).text);
    return { html: sheetsToHtml([sheet]), metadata: { numSheets: 1 } };
  }
  if (kind === 'ods') {
    const sheets = odsSheets(bytes);
    return { html: sheetsToHtml(sheets), metadata: { numSheets: sheets.length } };
  }
  const properties = officeProperties(bytes);
  const { title, author } = properties;
  const known = { ...(title ? { title } : {}), ...(author ? { author } : {}) };
  if (kind === 'docx') {
    const html = htmlPage(await docxToHtml(bytes), title);
    return { html, metadata: { ...known, ...(properties.pages ? { numPages: properties.pages } : {}) } };
  }
  if (kind === 'xlsx') {
    const sheets = xlsxSheets(bytes);
    return { html: sheetsToHtml(sheets, title), metadata: { ...known, numSheets: sheets.length } };
  }
  const slides = pptxSlides(bytes);
  return { html: slidesToHtml(slides, title), metadata: { ...known, numSlides: slides.length } };
}

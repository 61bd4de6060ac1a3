import { zipNames } from './zip-entries.js';

/**
 * Office documents Quarry converts (to HTML, then to the scrape formats), recognised by media
 * type, and for a zip sent as a generic type by the parts inside it.
 */
export type OfficeKind = 'docx' | 'xlsx' | 'ods' | 'pptx' | 'csv';

export const officeMediaTypes: Record<string, OfficeKind> = {
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'text/csv': 'csv',
  'application/csv': 'csv',
};

/** Which office document a zip holds, from its parts; undefined for any other zip. */
export function officeKindOfZip(bytes: Uint8Array): OfficeKind | undefined {
  const names = new Set(zipNames(bytes));
  if (names.has('word/document.xml')) return 'docx';
  if (names.has('xl/workbook.xml')) return 'xlsx';
  if (names.has('ppt/presentation.xml')) return 'pptx';
  if (names.has('content.xml') && new TextDecoder().decode(bytes.subarray(30, 120)).includes('application/vnd.oasis.opendocument.spreadsheet')) return 'ods';
  return undefined;
}

import type { ScrapeDocument } from '../document.js';
import { PayloadTooLargeError, TargetError, ValidationError } from '../errors.js';
import { isZip } from '../documents/zip-entries.js';
import type { ScrapeOptions } from '../options/scrape-options.js';
import type { FetchResponse } from '../ports/fetcher.js';
import { contentKindOf } from './content-kind.js';
import type { ScrapeContext } from './scrape-context.js';
import { buildDocument, checkScrapeOptions, transformWants, type ScrapeDeps } from './scrape-page.js';

/**
 * A file given to parse (POST /v2/parse, `quarry parse`, `engine.parse`) turned into the scrape
 * document, through the same conversion a scraped URL of that type gets:
 *
 *   file name's extension, else the declared type, else the bytes -> content kind
 *   -> PDF, DOCX, XLSX, ODS, CSV, PPTX, HTML, Markdown, text, JSON, XML -> the asked-for formats
 *
 * A kind Quarry does not read is TargetError kind `unsupported-type` (415 on the API). Formats that
 * need a page in a browser (screenshot, branding, changeTracking) are refused as bad input.
 */
export interface ParseFileInput {
  bytes: Uint8Array;
  filename: string;
  /** The type the sender declared; the file name's extension wins over it. */
  contentType?: string | undefined;
}

const byExtension: Record<string, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  csv: 'text/csv',
  html: 'text/html',
  htm: 'text/html',
  xhtml: 'application/xhtml+xml',
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  text: 'text/plain',
  json: 'application/json',
  xml: 'application/xml',
};

/** Kinds guessed from the first bytes of an untyped file: refused when the bytes are binary. */
const sniffedKinds = new Set(['html', 'json', 'text', 'xml']);

/** Formats a file has no page for. */
const pageOnlyFormats = new Set(['screenshot', 'branding', 'changeTracking']);

export const parseableTypes = 'PDF, DOCX, XLSX, ODS, CSV, PPTX, HTML, Markdown and plain text';

export async function parseFile(deps: ScrapeDeps, file: ParseFileInput, options: ScrapeOptions, context: ScrapeContext = {}): Promise<ScrapeDocument> {
  for (const [index, format] of options.formats.entries()) {
    if (pageOnlyFormats.has(format.type))
      throw new ValidationError(`formats[${index}]: parse does not support the ${format.type} format (a file has no page to render)`, `formats[${index}]`);
  }
  checkScrapeOptions(deps, options);
  const mediaType = mediaTypeOf(file);
  const kind = contentKindOf(mediaType, file.bytes);
  if (kind === 'unsupported' || (mediaType === 'application/octet-stream' && sniffedKinds.has(kind) && looksBinary(file.bytes))) {
    throw new TargetError(
      'unsupported-type',
      `Unsupported file type for ${JSON.stringify(file.filename)} (${file.contentType || 'no content type'}): Quarry parses ${parseableTypes}`,
    );
  }
  const url = new URL(`file:///${encodeURIComponent(file.filename)}`);
  const response: FetchResponse = {
    requestedUrl: url,
    url,
    status: 200,
    headers: new Headers({ 'content-type': mediaType }),
    body: file.bytes,
    redirects: [],
    engine: 'parse',
    elapsedMs: 0,
  };
  try {
    const { document } = await buildDocument(
      deps,
      file.filename,
      { response },
      options,
      context,
      options.timeout,
      transformWants(deps, options, false),
      'basic',
    );
    return document;
  } catch (error) {
    // A file that expands past the limits is the upload being too large, not a failed target.
    if (error instanceof TargetError && error.kind === 'too-large') throw new PayloadTooLargeError(error.message);
    throw error;
  }
}

function mediaTypeOf(file: ParseFileInput): string {
  const extension = /\.([a-z0-9]+)$/i.exec(file.filename.trim())?.[1]?.toLowerCase();
  const byName = extension ? byExtension[extension] : undefined;
  if (byName) return byName;
  const declared = file.contentType?.split(';')[0]?.trim().toLowerCase();
  if (extension && !declared) return 'application/x-unknown';
  return declared || 'application/octet-stream';
}

/** NUL bytes early on: not text (a zip that is no office document, an image, an executable). */
function looksBinary(bytes: Uint8Array): boolean {
  if (isZip(bytes)) return true;
  return bytes.subarray(0, 4096).includes(0);
}

import type { DocumentInitParameters, PDFDocumentProxy } from 'pdfjs-dist/types/src/display/api.js';
import { QuarryError, TargetError, TimeoutError } from '../errors.js';
import { linesToMarkdown } from './lines-to-markdown.js';
import { withoutRunningLines } from './running-lines.js';
import { textLines, type PdfLine } from './text-lines.js';

export interface PdfResult {
  /** Markdown of the converted pages; pages are separated by a blank line, `---`, a blank line. */
  markdown: string;
  /** Pages in the document (not only the converted ones when `maxPages` cut it short). */
  numPages: number;
  /** Info-dictionary title, else XMP `dc:title`, else the first heading found. */
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string;
  /** ISO 8601 when the PDF date parses, else the raw info-dictionary value. */
  creationDate?: string;
}

export interface PdfOptions {
  /** Convert at most this many pages from the start; all pages when absent. */
  maxPages?: number;
  /** Aborting stops the conversion between pages (and inside pdf.js) with a TimeoutError. */
  signal?: AbortSignal;
}

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

let pdfjs: Promise<Pdfjs> | undefined;

/**
 * pdf.js, loaded on first use. Importing the worker module first registers
 * `globalThis.pdfjsWorker`, so pdf.js runs its "fake" worker in this thread: no worker file
 * path to resolve, which keeps working when core is bundled (pdfjs-dist stays external).
 */
function loadPdfjs(): Promise<Pdfjs> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.worker.mjs')
    .then(() => import('pdfjs-dist/legacy/build/pdf.mjs'))
    .catch((error: unknown) => {
      pdfjs = undefined;
      throw error;
    });
  return pdfjs;
}

/** Parameters for pdf.js: text only, no eval, no fonts loaded into a page, no console output. */
const documentParameters: Omit<DocumentInitParameters, 'data'> = {
  verbosity: 0,
  isEvalSupported: false,
  disableFontFace: true,
  useSystemFonts: false,
  isOffscreenCanvasSupported: false,
  stopAtErrors: false,
};

/** pdf.js exception names and what to tell the caller. */
const failureReasons: Record<string, string> = {
  InvalidPDFException: 'the bytes are not a valid PDF',
  PasswordException: 'the PDF is encrypted with a password',
  MissingPDFException: 'the PDF is empty',
  FormatError: 'the PDF is malformed',
};

/** Info-dictionary keys copied to the result. */
const infoFields = [
  ['Title', 'title'],
  ['Author', 'author'],
  ['Subject', 'subject'],
  ['Keywords', 'keywords'],
] as const;

/**
 * Converts PDF bytes to markdown (see `linesToMarkdown` for the layout rules) plus the document
 * metadata. Running headers and footers (page numbers included) are dropped when they repeat on
 * most pages. Pure: the bytes are copied, never detached or changed. Text only: scanned pages
 * without a text layer come out empty (no OCR).
 * @throws TargetError kind `parse` when pdf.js cannot read the bytes (broken, encrypted).
 * @throws TimeoutError when `options.signal` aborts.
 */
export async function pdfToMarkdown(bytes: Uint8Array, options: PdfOptions = {}): Promise<PdfResult> {
  const { signal } = options;
  throwIfAborted(signal);
  const library = await loadPdfjs();
  const task = library.getDocument({ ...documentParameters, data: new Uint8Array(bytes) });
  const abort = (): void => void task.destroy();
  signal?.addEventListener('abort', abort, { once: true });
  try {
    const pdf = await task.promise;
    const pageCount = Math.min(pdf.numPages, Math.max(0, Math.floor(options.maxPages ?? pdf.numPages)));
    const pages: PdfLine[][] = [];
    const pageErrors: unknown[] = [];
    for (let number = 1; number <= pageCount; number++) {
      throwIfAborted(signal);
      pages.push(await pageLines(pdf, number).catch((error: unknown) => (pageErrors.push(error), [])));
    }
    // One unreadable page leaves an empty section; a document none of whose pages reads is broken.
    if (pageCount > 0 && pageErrors.length === pageCount) throw pageErrors[0];
    throwIfAborted(signal);
    const { markdown, firstHeading } = linesToMarkdown(withoutRunningLines(pages));
    const { info, metadata } = await pdf.getMetadata().catch(() => ({ info: {}, metadata: null }));
    const fields = readInfo(info as Record<string, unknown>, library);
    const title = fields.title ?? clean(metadata?.get('dc:title')) ?? firstHeading;
    return { markdown, numPages: pdf.numPages, ...fields, ...(title === undefined ? {} : { title }) };
  } catch (error) {
    if (signal?.aborted) throw new TimeoutError('PDF conversion was aborted before it finished', { cause: signal.reason });
    if (error instanceof QuarryError) throw error;
    const name = error instanceof Error ? error.name : '';
    const reason = failureReasons[name] ?? (error instanceof Error ? error.message : String(error));
    throw new TargetError('parse', `PDF could not be parsed: ${reason}`, { cause: error });
  } finally {
    signal?.removeEventListener('abort', abort);
    await task.destroy();
  }
}

async function pageLines(pdf: PDFDocumentProxy, number: number): Promise<PdfLine[]> {
  const page = await pdf.getPage(number);
  try {
    return textLines((await page.getTextContent()).items);
  } finally {
    page.cleanup();
  }
}

function readInfo(info: Record<string, unknown>, library: Pdfjs): Omit<PdfResult, 'markdown' | 'numPages'> {
  const fields: Omit<PdfResult, 'markdown' | 'numPages'> = {};
  for (const [key, field] of infoFields) {
    const value = clean(info[key]);
    if (value !== undefined) fields[field] = value;
  }
  const rawDate = clean(info.CreationDate);
  if (rawDate !== undefined) fields.creationDate = library.PDFDateString.toDateObject(rawDate)?.toISOString() ?? rawDate;
  return fields;
}

/** A trimmed non-empty string without NULs, else undefined. */
function clean(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/\u0000/g, '').trim();
  return text === '' ? undefined : text;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new TimeoutError('PDF conversion was aborted before it finished', { cause: signal.reason });
}

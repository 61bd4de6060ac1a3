export { pdfToMarkdown, type PdfOptions, type PdfResult } from './pdf-to-markdown.js';
export { isPdf } from './is-pdf.js';

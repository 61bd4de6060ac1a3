import { TargetError } from '../errors.js';
import { zipEntries } from './zip-entries.js';

/**
 * DOCX to HTML with mammoth (headings, lists, tables, links, bold/italic from the document's
 * structure, not its looks). External files a document links to are never read; images stay
 * inline as data URLs (the scrape's removeBase64Images option decides about them).
 */
export async function docxToHtml(bytes: Uint8Array): Promise<string> {
  // Checks the container (and its expanded size) before mammoth inflates it whole.
  const [document] = zipEntries(bytes, (name) => name === 'word/document.xml').values();
  if (!document) throw new TargetError('parse', 'The file is not a DOCX document: it has no word/document.xml');
  try {
    // mammoth's Node build reads a Buffer (its `arrayBuffer` input is the browser build's).
    // Loaded on first use, as pdf.js is: processes that never see a DOCX do not pay for it.
    const { default: mammoth } = await import('mammoth');
    const result = await mammoth.convertToHtml({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }, { externalFileAccess: false });
    return result.value;
  } catch (error) {
    throw new TargetError('parse', `The DOCX document could not be read: ${(error as Error).message}`, { cause: error });
  }
}

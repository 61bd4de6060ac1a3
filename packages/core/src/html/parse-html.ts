import { parseDocument } from 'htmlparser2';
import type { Document } from 'domhandler';

/** Parses HTML once into a domhandler tree; every format of a page is derived from this tree. */
export function parseHtml(html: string): Document {
  return parseDocument(html, { decodeEntities: true, lowerCaseAttributeNames: true, lowerCaseTags: true, withStartIndices: true });
}

import type { ScrapeDocument } from '@quarry/core';
import type { ApiVersion } from '../server/request-context.js';

/** The document as each API version shows it. Internal fields (engine) stay in metadata as extra info. */
export function presentDocument(document: ScrapeDocument, _version: ApiVersion): ScrapeDocument {
  return document;
}

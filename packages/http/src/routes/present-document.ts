import type { ScrapeDocument } from '@quarry/core';
import type { ApiVersion } from '../server/request-context.js';

/**
 * The document as each API version shows it. Internal fields (engine) stay in metadata as extra
 * info. v1 answers the `extract` format under `extract` and, for clients written against the v0
 * API, also under `llm_extraction`.
 */
export function presentDocument(document: ScrapeDocument, version: ApiVersion): ScrapeDocument & { llm_extraction?: unknown } {
  if (version === 'v1' && document.extract !== undefined) return { ...document, llm_extraction: document.extract };
  return document;
}

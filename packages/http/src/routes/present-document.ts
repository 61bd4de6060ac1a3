import type { ScrapeDocument } from '@quarry/core';
import type { ApiVersion } from '../server/request-context.js';

/**
 * The document as each API version shows it. Internal fields (engine) stay in metadata as extra
 * info. v1 answers the `extract` format under `extract` and, for clients written against the v0
 * API, also under `llm_extraction`, and reports the enhanced proxy as `proxyUsed: "stealth"`.
 */
export function presentDocument(document: ScrapeDocument, version: ApiVersion): ScrapeDocument & { llm_extraction?: unknown } {
  if (version !== 'v1') return document;
  // v1 calls the enhanced pool by its v1 name.
  const shown = document.metadata.proxyUsed === 'enhanced' ? { ...document, metadata: { ...document.metadata, proxyUsed: 'stealth' as const } } : document;
  return shown.extract !== undefined ? { ...shown, llm_extraction: shown.extract } : shown;
}

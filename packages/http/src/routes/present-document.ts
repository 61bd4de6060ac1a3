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

/**
 * `presentDocument` on a document's JSON text (`JSON.stringify` output): v1 changes only a document
 * with an `extract` or an enhanced proxy, so any other text is answered as it is, unparsed. The test
 * on the text may match inside a string (a page that quotes those words): that document is then
 * parsed and presented, as any.
 */
export function presentDocumentText(text: string, version: ApiVersion): string {
  if (version !== 'v1') return text;
  if (!text.includes('"extract":') && !text.includes('"proxyUsed":"enhanced"')) return text;
  return JSON.stringify(presentDocument(JSON.parse(text) as ScrapeDocument, version));
}

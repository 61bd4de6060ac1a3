/**
 * Decodes raw page bytes to a string as Quarry's scrape does for a page served as `text/html`
 * without a charset (`decodeBody` in packages/core/src/html, the fetch engine's decoder): a byte
 * order mark first, then a charset the page declares (`<meta charset>` / `http-equiv` in the first
 * 1024 bytes or later in its `<head>`), then UTF-8 when the bytes are valid UTF-8, else
 * windows-1252 with its C1 characters (`“ ” – €`). The benchmark scores the text users get:
 * `via-server.ts` checks that `POST /v1/scrape` gives the same plain text on every page.
 */
import { decodeBody } from '../../packages/core/src/html/decode-body.js';

export function decodeHtml(bytes: Uint8Array): string {
  return decodeBody(bytes, 'text/html').text;
}

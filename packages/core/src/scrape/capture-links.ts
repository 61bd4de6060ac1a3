import type { BlobStore } from '../ports/blob-store.js';
import type { Capture } from '../ports/fetcher.js';

/**
 * Where screenshots and PDFs made by the browser go. With a BlobStore (the server) each capture
 * is stored and its URL is returned (`urlOf` knows where the server serves blobs); without one
 * (a library user) it comes back inline as a data URL.
 */
export interface BlobLinks {
  store: BlobStore;
  /** The URL a caller fetches the blob from, e.g. `http://host/v2/blobs/<id>`. */
  urlOf(id: string): string;
}

export async function linkCapture(capture: Capture, blobs: BlobLinks | undefined): Promise<string> {
  if (!blobs) return `data:${capture.contentType};base64,${toBase64(capture.bytes)}`;
  return blobs.urlOf(await blobs.store.put(capture.bytes, capture.contentType));
}

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}

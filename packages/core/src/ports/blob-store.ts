/**
 * The BlobStore port: opaque bytes that do not belong in a document row (screenshots, PDFs made by
 * actions), served back by id. Ids are unguessable (32 random hex characters), so an id is also the
 * right to read the blob: a URL with it can be handed out.
 *
 * Implementations: `LocalBlobStore` (storage, a local folder), `PostgresBlobStore` (storage, a bytea
 * table every process of the distributed mode shares). All pass `describeBlobStore` from
 * core/src/ports/testing/blob-store-suite.ts.
 */
export interface StoredBlob {
  bytes: Uint8Array;
  /** As given to `put`, e.g. `image/png`. */
  contentType: string;
}

/** Blob ids are 32 lowercase hex characters; anything else is never a blob (and never a path). */
export const blobIdPattern = /^[0-9a-f]{32}$/;

export interface BlobStore {
  /** Stores the bytes and returns a new id. The blob is readable once the promise resolves. */
  put(bytes: Uint8Array, contentType: string): Promise<string>;
  /** The blob, or undefined for an unknown, deleted or malformed id (never an error). */
  get(id: string): Promise<StoredBlob | undefined>;
  /** Deletes the blob; returns whether it existed. Idempotent. */
  delete(id: string): Promise<boolean>;
}

/**
 * Conformance suite for the BlobStore port. Every blob store runs it once:
 *
 * ```ts
 * describeBlobStore('LocalBlobStore', () => new LocalBlobStore(tempDir()));
 * ```
 *
 * `make` is called before each test and must return an empty store.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { blobIdPattern, type BlobStore } from '../blob-store.js';

const bytesOf = (text: string) => new TextEncoder().encode(text);

export function describeBlobStore(name: string, make: () => BlobStore | Promise<BlobStore>): void {
  describe(`BlobStore conformance: ${name}`, () => {
    let store: BlobStore;

    beforeEach(async () => {
      store = await make();
    });

    it('gives back the bytes and content type it was given, under a new unguessable id', async () => {
      const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255, 13, 10]);
      const id = await store.put(bytes, 'image/png');
      expect(id).toMatch(blobIdPattern);
      const blob = await store.get(id);
      expect(blob?.contentType).toBe('image/png');
      expect(blob?.bytes).toBeInstanceOf(Uint8Array);
      expect([...blob!.bytes]).toEqual([...bytes]);
      const other = await store.put(bytes, 'image/png');
      expect(other).not.toBe(id);
    });

    it('keeps empty and large blobs, and content types with parameters', async () => {
      const empty = await store.put(new Uint8Array(), 'application/octet-stream');
      expect((await store.get(empty))?.bytes.byteLength).toBe(0);
      const large = new Uint8Array(3 * 1024 * 1024).map((_, index) => index % 251);
      const id = await store.put(large, 'application/pdf; name="a b.pdf"');
      const blob = await store.get(id);
      expect(blob?.contentType).toBe('application/pdf; name="a b.pdf"');
      expect(Buffer.compare(Buffer.from(blob!.bytes), Buffer.from(large))).toBe(0);
    });

    it('answers undefined for unknown and malformed ids, which are never paths', async () => {
      await store.put(bytesOf('secret'), 'text/plain');
      for (const id of ['0'.repeat(32), '', '../../etc/passwd', 'A'.repeat(32), `${'a'.repeat(31)}/`, '.', '..']) {
        expect(await store.get(id)).toBeUndefined();
        expect(await store.delete(id)).toBe(false);
      }
    });

    it('deletes a blob once', async () => {
      const id = await store.put(bytesOf('bye'), 'text/plain');
      const kept = await store.put(bytesOf('stay'), 'text/plain');
      expect(await store.delete(id)).toBe(true);
      expect(await store.get(id)).toBeUndefined();
      expect(await store.delete(id)).toBe(false);
      expect(new TextDecoder().decode((await store.get(kept))?.bytes)).toBe('stay');
    });

    it('stores concurrent puts independently', async () => {
      const ids = await Promise.all(Array.from({ length: 20 }, (_, index) => store.put(bytesOf(`blob ${index}`), 'text/plain')));
      expect(new Set(ids).size).toBe(20);
      const texts = await Promise.all(ids.map(async (id) => new TextDecoder().decode((await store.get(id))?.bytes)));
      expect(texts).toEqual(ids.map((_, index) => `blob ${index}`));
    });
  });
}

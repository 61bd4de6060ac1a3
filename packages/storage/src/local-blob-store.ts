import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { blobIdPattern, ValidationError, type BlobStore, type StoredBlob } from '@quarry/core';

/**
 * BlobStore in a local folder: one file per blob at `<dir>/<first 2 id chars>/<id>`, holding the
 * content type, a newline, then the bytes. A blob is written to a temporary file and renamed into
 * place, so a reader sees all of it or none. The folder is created on the first `put`.
 */
export class LocalBlobStore implements BlobStore {
  constructor(private readonly dir: string) {}

  async put(bytes: Uint8Array, contentType: string): Promise<string> {
    if (/[\r\n]/.test(contentType)) throw new ValidationError('`contentType` must be one line', 'contentType');
    const id = randomBytes(16).toString('hex');
    const path = this.pathOf(id);
    await mkdir(join(this.dir, id.slice(0, 2)), { recursive: true });
    const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, Buffer.concat([Buffer.from(`${contentType}\n`, 'utf8'), bytes]));
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return id;
  }

  async get(id: string): Promise<StoredBlob | undefined> {
    if (!blobIdPattern.test(id)) return undefined;
    let file: Buffer;
    try {
      file = await readFile(this.pathOf(id));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    const newline = file.indexOf(0x0a);
    return {
      contentType: file.subarray(0, newline).toString('utf8'),
      bytes: new Uint8Array(file.buffer, file.byteOffset + newline + 1, file.byteLength - newline - 1),
    };
  }

  async delete(id: string): Promise<boolean> {
    if (!blobIdPattern.test(id)) return false;
    try {
      await unlink(this.pathOf(id));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  private pathOf(id: string): string {
    return join(this.dir, id.slice(0, 2), id);
  }
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

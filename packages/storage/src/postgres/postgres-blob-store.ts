import { randomBytes } from 'node:crypto';
import { blobIdPattern, ValidationError, type BlobStore, type StoredBlob } from '@quarry/core';
import type { PostgresDatabase } from './postgres-database.js';

export interface PostgresBlobStoreOptions {
  /** Largest blob accepted, in bytes; a bigger `put` is refused with a ValidationError. */
  maxBytes: number;
}

/** 32 MiB: a full-page screenshot or an action's PDF fits; PostgreSQL's bytea limit (1 GB) is far away. */
export const defaultPostgresBlobStoreOptions: PostgresBlobStoreOptions = { maxBytes: 32 * 1024 * 1024 };

/**
 * BlobStore in a PostgreSQL table (`blobs`, one bytea row per blob): every API process and worker
 * of the distributed mode reads what any of them wrote. A row is inserted in one statement, so a
 * reader sees all of a blob or none. Chosen over large objects: a plain row is deleted with its
 * row, backed up with the schema, and needs no lo_unlink housekeeping. Bounded by `maxBytes`.
 */
export class PostgresBlobStore implements BlobStore {
  constructor(
    private readonly db: PostgresDatabase,
    private readonly options: PostgresBlobStoreOptions = defaultPostgresBlobStoreOptions,
  ) {}

  async put(bytes: Uint8Array, contentType: string): Promise<string> {
    if (/[\r\n]/.test(contentType)) throw new ValidationError('`contentType` must be one line', 'contentType');
    if (bytes.byteLength > this.options.maxBytes) {
      throw new ValidationError(`a blob must be at most ${this.options.maxBytes} bytes; got ${bytes.byteLength}`, 'bytes');
    }
    const id = randomBytes(16).toString('hex');
    await this.db.execute('INSERT INTO blobs (id, content_type, bytes) VALUES ($1, $2, $3)', [
      id,
      contentType,
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    ]);
    return id;
  }

  async get(id: string): Promise<StoredBlob | undefined> {
    if (!blobIdPattern.test(id)) return undefined;
    const [row] = await this.db.query<{ content_type: string; bytes: Buffer }>('SELECT content_type, bytes FROM blobs WHERE id = $1', [id]);
    if (!row) return undefined;
    return { contentType: row.content_type, bytes: new Uint8Array(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength) };
  }

  async delete(id: string): Promise<boolean> {
    if (!blobIdPattern.test(id)) return false;
    return (await this.db.execute('DELETE FROM blobs WHERE id = $1', [id])) > 0;
  }
}

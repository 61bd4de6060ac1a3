import { join } from 'node:path';
import { LocalBlobStore, S3BlobStore } from '@quarry/storage';
import { ValidationError, type BlobStore, type ServerConfig } from '@quarry/core';

/**
 * The BlobStore of this process (QUARRY_BLOB_STORE): where the browser engine puts screenshots and
 * action PDFs and where blob-routes.ts reads them back. Every process that serves or writes blob
 * links must get the same one: in the distributed mode a local folder would hold a worker's
 * screenshot on the worker's disk, out of the API's reach, so `auto` picks the shared PostgreSQL
 * table there (or the S3 bucket when one is configured), which the distributed composition passes in
 * as `sharedStore` (so this module never loads the PostgreSQL driver).
 */
export function blobStoreOf(config: ServerConfig, sharedStore?: () => BlobStore): BlobStore {
  const kind = config.QUARRY_BLOB_STORE === 'auto' ? (config.QUARRY_S3_BUCKET ? 's3' : sharedStore ? 'postgres' : 'local') : config.QUARRY_BLOB_STORE;
  if (kind === 'local') return new LocalBlobStore(blobFolder(config));
  if (kind === 'postgres') {
    if (!sharedStore) throw new ValidationError('QUARRY_BLOB_STORE=postgres needs the distributed mode (DATABASE_URL and REDIS_URL)', 'QUARRY_BLOB_STORE');
    return sharedStore();
  }
  return new S3BlobStore({ ...s3Settings(config), region: config.QUARRY_S3_REGION, prefix: config.QUARRY_S3_PREFIX });
}

/** Where blobs of this data folder live with QUARRY_BLOB_STORE=local. */
export function blobFolder(config: ServerConfig): string {
  return join(config.QUARRY_DATA_DIR, 'blobs');
}

function s3Settings(config: ServerConfig) {
  const settings = {
    endpoint: config.QUARRY_S3_ENDPOINT,
    bucket: config.QUARRY_S3_BUCKET,
    accessKeyId: config.QUARRY_S3_ACCESS_KEY_ID,
    secretAccessKey: config.QUARRY_S3_SECRET_ACCESS_KEY,
  };
  const names = {
    endpoint: 'QUARRY_S3_ENDPOINT',
    bucket: 'QUARRY_S3_BUCKET',
    accessKeyId: 'QUARRY_S3_ACCESS_KEY_ID',
    secretAccessKey: 'QUARRY_S3_SECRET_ACCESS_KEY',
  } as const;
  for (const [key, value] of Object.entries(settings) as Array<[keyof typeof names, string | undefined]>) {
    if (!value) throw new ValidationError(`The s3 blob store needs ${names[key]}`, names[key]);
  }
  return settings as { [K in keyof typeof settings]: string };
}

import { LocalBlobStore, S3BlobStore } from '@quarry/storage';
import { describe, expect, it } from 'vitest';
import { blobStoreOf } from '../src/compose-blobs.js';
import { loadConfig } from '../src/compose.js';

describe('the blob store a process uses (QUARRY_BLOB_STORE)', () => {
  const s3 = { QUARRY_S3_ENDPOINT: 'http://127.0.0.1:9000', QUARRY_S3_BUCKET: 'b', QUARRY_S3_ACCESS_KEY_ID: 'k', QUARRY_S3_SECRET_ACCESS_KEY: 's' };

  it('auto: the local folder embedded, the bucket once QUARRY_S3_BUCKET is set', () => {
    expect(blobStoreOf(loadConfig({}))).toBeInstanceOf(LocalBlobStore);
    expect(blobStoreOf(loadConfig(s3))).toBeInstanceOf(S3BlobStore);
  });

  it('refuses a half-configured bucket and postgres outside the distributed mode, naming the variable', () => {
    const { QUARRY_S3_SECRET_ACCESS_KEY: _secret, ...partial } = s3;
    expect(() => blobStoreOf(loadConfig(partial))).toThrow(
      expect.objectContaining({ code: 'invalid_request', issues: [expect.objectContaining({ field: 'QUARRY_S3_SECRET_ACCESS_KEY' })] }),
    );
    expect(() => blobStoreOf(loadConfig({ QUARRY_BLOB_STORE: 'postgres' }))).toThrow(
      expect.objectContaining({ issues: [expect.objectContaining({ field: 'QUARRY_BLOB_STORE' })] }),
    );
  });
});

import { describeBlobStore } from '@quarry/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3BlobStore } from '../src/index.js';
import { startS3Server } from './s3-test-server.js';

// The S3 adapter against a real S3-compatible server on 127.0.0.1 (s3rver), each test under a
// fresh key prefix so the store starts empty.
const s3 = await startS3Server(['quarry']);
afterAll(() => s3.close());

let run = 0;
const store = (options: Partial<ConstructorParameters<typeof S3BlobStore>[0]> = {}) =>
  new S3BlobStore({ endpoint: s3.endpoint, bucket: 'quarry', region: 'us-east-1', ...s3.credentials, prefix: `run-${++run}/`, ...options });

describeBlobStore('S3BlobStore', () => store());

describe('S3BlobStore at its edges', () => {
  let serverless: Awaited<ReturnType<typeof startS3Server>>;
  beforeAll(async () => {
    serverless = await startS3Server([]);
  });
  afterAll(() => serverless.close());

  it('refuses a blob over its size bound, naming the field', async () => {
    await expect(store({ maxBytes: 4 }).put(new Uint8Array(5), 'image/png')).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('at most 4 bytes; got 5'),
    });
  });

  it('shares blobs between two stores on the same bucket (two processes)', async () => {
    const writer = store({ prefix: 'shared/' });
    const reader = store({ prefix: 'shared/' });
    const id = await writer.put(new TextEncoder().encode('shot'), 'image/png');
    expect(new TextDecoder().decode((await reader.get(id))?.bytes)).toBe('shot');
  });

  it('fails a put on an unknown access key or a missing bucket with an error naming the status, never silently', async () => {
    await expect(store({ accessKeyId: 'NOBODY' }).put(new Uint8Array(1), 'image/png')).rejects.toMatchObject({
      code: 'internal',
      message: expect.stringContaining('HTTP 403'),
    });
    const missing = new S3BlobStore({ endpoint: serverless.endpoint, bucket: 'absent', region: 'us-east-1', ...s3.credentials });
    await expect(missing.put(new Uint8Array(1), 'image/png')).rejects.toMatchObject({ code: 'internal', message: expect.stringContaining('HTTP 404') });
  });

  it('answers unavailable (retryable) when the server cannot be reached', async () => {
    const down = new S3BlobStore({ endpoint: 'http://127.0.0.1:1', bucket: 'quarry', region: 'us-east-1', ...s3.credentials });
    await expect(down.get('0'.repeat(32))).rejects.toMatchObject({ code: 'unavailable', retryable: true });
  });
});

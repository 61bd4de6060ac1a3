/// <reference path="./s3rver.d.ts" />
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/**
 * A real S3-compatible server (s3rver: S3's REST API over a local folder) on 127.0.0.1, with the
 * given buckets. s3rver checks Signature V4 against its fixed credentials `S3RVER`/`S3RVER`.
 */
export async function startS3Server(
  buckets: string[],
): Promise<{ endpoint: string; credentials: { accessKeyId: string; secretAccessKey: string }; close(): Promise<void> }> {
  const directory = mkdtempSync(join(tmpdir(), 'quarry-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: buckets.map((name) => ({ name })) });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

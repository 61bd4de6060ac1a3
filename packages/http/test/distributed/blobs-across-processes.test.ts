import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, waitFor, type TestServer } from '@quarry/core/testing';
import { startS3Server } from '../../../storage/test/s3-test-server.js';
import { areBackingServicesAvailable, dropIsolated, isolatedEnv } from './backing-services.js';
import { startApiProcess, startWorkerProcess, stopAll, type QuarryProcess } from './quarry-processes.js';
import { json } from './test-site.js';

/**
 * The worker that takes a screenshot is another process, with another data folder, than the API
 * that serves its link: the blob must live where both reach it. Once with the default of the
 * distributed mode (the PostgreSQL table) and once with an S3-compatible bucket (s3rver on
 * 127.0.0.1). Runs the built CLI and Chromium (/usr/bin/chromium).
 */
const available = await areBackingServicesAvailable();
const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe.runIf(available)('blob links across processes', () => {
  let site: TestServer;
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  const folders: string[] = [];

  beforeAll(async () => {
    site = await startTestServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html><body style="background:#c33"><h1>Shot</h1><p>A page to photograph.</p></body></html>');
    });
    s3 = await startS3Server(['quarry-blobs']);
  });
  afterAll(async () => {
    await site?.close();
    await s3?.close();
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  const stores = {
    postgres: () => ({}),
    s3: () => ({
      QUARRY_S3_ENDPOINT: s3.endpoint,
      QUARRY_S3_BUCKET: 'quarry-blobs',
      QUARRY_S3_ACCESS_KEY_ID: s3.credentials.accessKeyId,
      QUARRY_S3_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
      QUARRY_S3_PREFIX: 'shots/',
    }),
  };

  for (const [name, settings] of Object.entries(stores)) {
    it(`serves from the API a screenshot a worker took (${name})`, async () => {
      const env = { ...isolatedEnv(), ...settings() };
      const processes: QuarryProcess[] = [];
      const folder = async () => {
        const made = await mkdtemp(join(tmpdir(), 'quarry-blobs-'));
        folders.push(made);
        return made;
      };
      try {
        const api = await startApiProcess({ ...env, QUARRY_DATA_DIR: await folder() });
        processes.push(api);
        const workerDir = await folder();
        processes.push(
          await startWorkerProcess({ ...env, QUARRY_DATA_DIR: workerDir, QUARRY_PUBLIC_URL: api.url!, QUARRY_CHROMIUM_PATH: '/usr/bin/chromium' }, 1),
        );

        const started = await json(`${api.url}/v2/batch/scrape`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ urls: [`${site.url}/shot`], formats: ['markdown', 'screenshot'] }),
        });
        expect(started.success, JSON.stringify(started)).toBe(true);
        let status: Record<string, any> = {};
        await waitFor(async () => (status = await json(`${api.url}/v2/batch/scrape/${started.id as string}`)).status === 'completed', {
          timeoutMs: 60_000,
          message: `batch with a screenshot: ${JSON.stringify(status)}\n${processes.map((process_) => process_.output()).join('\n')}`,
        });
        const link = status.data[0].screenshot as string;
        expect(link).toMatch(new RegExp(`^${api.url}/v2/blobs/[0-9a-f]{32}$`));

        const response = await fetch(link);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('image/png');
        expect([...new Uint8Array(await response.arrayBuffer()).subarray(0, 8)]).toEqual(pngSignature);
        // Nothing went to the worker's own disk.
        expect(await readdir(workerDir)).not.toContain('blobs');
      } finally {
        await stopAll(processes);
        await dropIsolated(env);
      }
    }, 120_000);
  }
});

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '@quarry/core';
import { GotFetcher } from '@quarry/adapters';
import { docsSiteRoutes, startTestServer, type TestServer } from '@quarry/core/testing';
import { surfaceHints } from '../src/surface-hints.js';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/** Each refusal names the knob of the surface that raised it: library option, CLI flag or server variable. */
const bin = fileURLToPath(new URL('../bin/quarry.js', import.meta.url));
const run = promisify(execFile);
let site: TestServer;
let quarry: TestQuarry;

beforeAll(async () => {
  site = await startTestServer(docsSiteRoutes());
  quarry = await startQuarry({ QUARRY_ALLOW_PRIVATE_HOSTS: '' });
});

afterAll(async () => {
  await quarry?.close();
  await site?.close();
});

describe('hints that apply', () => {
  it('as a library: the GotFetcher option and passing a browser fetcher', async () => {
    const engine = createEngine({ fetcher: new GotFetcher() });
    try {
      const refused = await engine.scrape(`${site.url}/about`).catch((error: Error) => error);
      expect((refused as Error).message).toContain('new GotFetcher({ allowPrivateHosts: [...] })');
      expect((refused as Error).message).not.toMatch(/QUARRY_|--allow/);
      const screenshot = await engine.scrape('https://example.com/', { formats: ['screenshot'] }).catch((error: Error) => error);
      expect((screenshot as Error).message).toContain('pass a browser fetcher to createEngine');
      expect((screenshot as Error).message).not.toContain('QUARRY_');
    } finally {
      await engine.close();
    }
  });

  it('through the CLI: the flag', async () => {
    const failed = await run(process.execPath, [bin, 'scrape', `${site.url}/about`], { env: { ...process.env, QUARRY_ALLOW_PRIVATE_HOSTS: '' } }).catch(
      (error: { stderr: string }) => error,
    );
    expect('stderr' in failed && failed.stderr).toMatch(/allow it with --allow-private-hosts/);
    expect('stderr' in failed && failed.stderr).not.toMatch(/QUARRY_ALLOW_PRIVATE_HOSTS|GotFetcher/);
  });

  it('through the server: the environment variables', async () => {
    const response = await fetch(`${quarry.url}/v1/scrape`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.url}/about` }),
    });
    const body = (await response.json()) as { error: string };
    expect(response.status).toBe(403);
    expect(body.error).toMatch(/QUARRY_ALLOW_PRIVATE_HOSTS/);
    expect(body.error).not.toMatch(/--allow-private-hosts|GotFetcher/);
    // The server's engine without a browser says the server's knob.
    const engine = createEngine({ fetcher: new GotFetcher(), browserHint: surfaceHints.server.browser });
    const screenshot = await engine.scrape('https://example.com/', { formats: ['screenshot'] }).catch((error: Error) => error);
    await engine.close();
    expect((screenshot as Error).message).toMatch(/QUARRY_CHROMIUM_PATH/);
  });
});

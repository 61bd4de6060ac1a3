import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@quarry/core/testing';
import { DashboardClient } from './support/dashboard-client.js';

/**
 * The admin token of the dashboard, with the built `quarry serve` as operators run it (npm test
 * builds first): without QUARRY_ADMIN_TOKEN, the first start makes one, prints it once and keeps
 * only its hash; later starts accept it and never print it; a token from the environment is never
 * printed at all.
 */
const bin = fileURLToPath(new URL('../bin/quarry.js', import.meta.url));
let dataDir: string;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs `quarry serve` until `use` is done, then stops it with SIGTERM; answers everything it printed. */
async function serve(env: Record<string, string>, use: (base: string, printed: () => string) => Promise<void>): Promise<string> {
  const port = await freePort();
  const { QUARRY_ADMIN_TOKEN: _ignored, ...inherited } = process.env;
  const child: ChildProcess = spawn(process.execPath, [bin, 'serve'], {
    env: { ...inherited, PORT: String(port), HOST: '127.0.0.1', QUARRY_DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(
      () =>
        fetch(`${base}/health`).then(
          (response) => response.ok,
          () => false,
        ),
      { timeoutMs: 30_000, message: 'quarry serve' },
    );
    await use(base, () => output);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  return output;
}

async function signsInAsAdmin(base: string, token: string): Promise<boolean> {
  const client = new DashboardClient(base);
  const response = await client.signIn(token);
  if (response.status !== 303) return false;
  return (await client.page('/dashboard/admin')).status === 200;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'quarry-admin-token-'));
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('the dashboard admin token', () => {
  let token = '';

  it('is made at the first start and printed once', async () => {
    const printedToken = /admin token \(shown only this once; stored hashed\): (qa-[\w-]+)/;
    const output = await serve({}, async (base, printed) => {
      token = (await waitFor(() => printedToken.exec(printed()), { message: 'the token in the log' }))[1]!;
      expect(await signsInAsAdmin(base, token)).toBe(true);
      expect(await signsInAsAdmin(base, `${token}x`)).toBe(false);
    });
    expect(output.split(token).length - 1).toBe(1);
  });

  it('is never printed after the first start, still works, and is stored only as a hash', async () => {
    const output = await serve({}, async (base) => {
      expect(await signsInAsAdmin(base, token)).toBe(true);
    });
    expect(output).not.toContain(token);
    expect(output).toContain('the admin token was printed at the first start');
    for (const file of await readdir(dataDir)) {
      if (!file.startsWith('quarry.db')) continue;
      expect((await readFile(join(dataDir, file))).includes(token), file).toBe(false);
    }
  });

  it('comes from QUARRY_ADMIN_TOKEN when set, which is never printed and replaces the generated one', async () => {
    const chosen = 'chosen-by-the-operator-0123456789';
    const output = await serve({ QUARRY_ADMIN_TOKEN: chosen }, async (base) => {
      expect(await signsInAsAdmin(base, chosen)).toBe(true);
      expect(await signsInAsAdmin(base, token)).toBe(false);
    });
    expect(output).not.toContain(chosen);
    expect(output).not.toContain(token);
    expect(output).toContain('admin token from QUARRY_ADMIN_TOKEN');
  });
});

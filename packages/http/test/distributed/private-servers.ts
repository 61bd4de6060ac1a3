import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@quarry/core/testing';
import { freePort } from './quarry-processes.js';

/**
 * Private Redis and PostgreSQL servers on free ports, for tests that stop and restart them: the
 * shared servers of the machine are never touched. `available` says why one cannot be run here
 * (no binaries); under CI=true the binaries must be there.
 */
export interface PrivateServer {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops for good and removes its files. */
  destroy(): Promise<void>;
}

function exitOf(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

export function redisServerAvailable(): string | undefined {
  return spawnSync('redis-server', ['--version']).status === 0 ? undefined : 'redis-server is not installed';
}

/** redis-server keeping nothing on disk, like the one the distributed tests restart. */
export async function startPrivateRedis(): Promise<PrivateServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await waitFor(
      () =>
        spawnSync('redis-cli', ['-p', String(port), 'ping'])
          .stdout?.toString()
          .trim() === 'PONG',
      { timeoutMs: 10_000, message: 'private redis start' },
    );
  };
  const stop = async () => {
    spawnSync('redis-cli', ['-p', String(port), 'shutdown', 'nosave']);
    if (child) await exitOf(child);
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, start, stop, destroy: stop };
}

function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((version) => join(root, version, 'bin')).find((dir) => existsSync(join(dir, 'initdb')));
}

export function postgresServerAvailable(): string | undefined {
  if (!postgresBinDir()) return 'PostgreSQL server binaries (initdb, postgres) are not installed under /usr/lib/postgresql';
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0) return 'running as root without a postgres user to run initdb';
  return undefined;
}

/** A throwaway PostgreSQL cluster (trust auth) in a temporary folder; run as `postgres` when this process is root. */
export async function startPrivatePostgres(): Promise<PrivateServer> {
  const bin = postgresBinDir()!;
  const dir = mkdtempSync(join(tmpdir(), 'quarry-pg-'));
  const asRoot = process.getuid?.() === 0;
  const command = (name: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, name), ...args]] : [join(bin, name), args];
  if (asRoot) {
    const uid = Number(spawnSync('id', ['-u', 'postgres']).stdout.toString());
    const gid = Number(spawnSync('id', ['-g', 'postgres']).stdout.toString());
    chownSync(dir, uid, gid);
  }
  const [initdb, initArgs] = command('initdb', ['-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const init = spawnSync(initdb, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  const pgCtl = (args: string[]) => {
    const [file, fileArgs] = command('pg_ctl', ['-D', join(dir, 'data'), ...args]);
    const result = spawnSync(file, fileArgs, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`pg_ctl ${args[0]} failed: ${result.stderr}${result.stdout}`);
  };
  const start = async () => {
    pgCtl(['start', '-w', '-l', join(dir, 'log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`]);
    await waitFor(() => spawnSync(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)]).status === 0, {
      timeoutMs: 20_000,
      message: 'private postgres start',
    });
  };
  // Fast shutdown: sessions are cut and the server exits, as in a real outage.
  const stop = async () => pgCtl(['stop', '-w', '-m', 'fast']);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy: async () => {
      await stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

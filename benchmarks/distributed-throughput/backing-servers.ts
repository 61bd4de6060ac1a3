import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A private redis-server and PostgreSQL cluster for the benchmark, on free ports, so that the
 * counts (Redis commands, PostgreSQL statements) are this run's alone. PostgreSQL runs as the
 * `postgres` user when this process is root (initdb refuses root).
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function until(check: () => boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface PrivateRedis {
  url: string;
  port: number;
  /** INFO stats total_commands_processed: every command, those run inside Lua scripts included. */
  commands(): number;
  /** Script calls (EVALSHA and EVAL): each is one round trip that runs many commands atomically. */
  scriptCalls(): number;
  /** used_cpu_user + used_cpu_sys, in ms. */
  cpuMs(): number;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const cli = (...args: string[]) => spawnSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' }).stdout ?? '';
  await until(() => cli('ping').trim() === 'PONG', 'redis');
  const field = (section: string, name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(cli('info', section))?.[1] ?? NaN);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    commands: () => field('stats', 'total_commands_processed'),
    scriptCalls: () => {
      const stats = cli('info', 'commandstats');
      return ['evalsha', 'eval'].reduce((sum, name) => sum + Number(new RegExp(`^cmdstat_${name}:calls=(\\d+)`, 'm').exec(stats)?.[1] ?? 0), 0);
    },
    cpuMs: () => (field('cpu', 'used_cpu_user') + field('cpu', 'used_cpu_sys')) * 1000,
    stop: async () => {
      cli('shutdown', 'nosave');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));
    },
  };
}

export interface PrivatePostgres {
  url: string;
  /** Turns log_statement = all on or off (off while throughput is measured). */
  logStatements(on: boolean): void;
  /** Statements logged so far (while logging is on): every statement a client sent, BEGIN and COMMIT included. */
  statements(): number;
  stop(): Promise<void>;
}

export async function startPostgres(): Promise<PrivatePostgres> {
  const root = '/usr/lib/postgresql';
  const bin = readdirSync(root)
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => join(root, version, 'bin'))
    .find((dir) => existsSync(join(dir, 'initdb')));
  if (!bin) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql');
  const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, Number(spawnSync('id', ['-u', 'postgres']).stdout), Number(spawnSync('id', ['-g', 'postgres']).stdout));
  const run = (name: string, args: string[]) => {
    const [file, fileArgs] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, name), ...args]] : [join(bin, name), args];
    const result = spawnSync(file, fileArgs, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${name} failed: ${result.stderr}${result.stdout}`);
  };
  const port = await freePort();
  const log = join(dir, 'log');
  run('initdb', ['-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  run('pg_ctl', ['-D', join(dir, 'data'), 'start', '-w', '-l', log, '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    logStatements: (on) => {
      const sql = `ALTER SYSTEM SET log_statement = '${on ? 'all' : 'none'}'`;
      for (const statement of [sql, 'SELECT pg_reload_conf()']) {
        const result = spawnSync('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-qAtc', statement], { encoding: 'utf8' });
        if (result.status !== 0) throw new Error(`psql failed: ${result.stderr}`);
      }
    },
    statements: () => (readFileSync(log, 'utf8').match(/LOG: {2}(statement|execute [^:]*):/g) ?? []).length,
    stop: async () => {
      run('pg_ctl', ['-D', join(dir, 'data'), 'stop', '-w', '-m', 'fast']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

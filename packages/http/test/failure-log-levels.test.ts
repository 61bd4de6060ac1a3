import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logFailure } from '../src/errors/to-http.js';
import { loadConfig } from '../src/compose.js';
import { composeServer } from '../src/compose-server.js';
import { startServer, type RunningServer } from '../src/server/start-server.js';

/**
 * A failing target and a feature with no provider are the request's outcome: one line at info or
 * warn, no stack. Only an internal error is logged at error level with its stack.
 */
interface LogLine {
  level: number;
  msg: string;
  err?: { stack?: string };
}
const lines: LogLine[] = [];
let dir: string;
let server: RunningServer;

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quarry-loglevels-'));
  const stream = new Writable({
    write: (chunk, _encoding, done) => (
      lines.push(
        ...String(chunk)
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as LogLine),
      ),
      done()
    ),
  });
  const config = loadConfig({ QUARRY_DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', QUARRY_ALLOW_PRIVATE_HOSTS: '127.0.0.1', QUARRY_TRANSFORM_THREADS: '1' });
  const parts = await composeServer(config);
  server = await startServer(parts.services, config, { close: parts.close, logger: { level: 'info', stream } });
});

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const after = (count: number) => lines.slice(count);

describe('failure log levels', () => {
  it('a target that refuses the connection: one info line, no stack', async () => {
    const before = lines.length;
    const response = await post('/v1/scrape', { url: `http://127.0.0.1:${await closedPort()}/page`, timeout: 5000 });
    expect(response.status).toBe(422);
    const logged = after(before).filter((line) => line.msg.includes('/v1/scrape'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 30, msg: expect.stringMatching(/^POST \/v1\/scrape: target_failed: /) });
    expect(logged[0]!.err).toBeUndefined();
    expect(after(before).some((line) => line.level >= 50)).toBe(false);
  });

  it('a summary with no model configured: 501 and one warn line, no stack', async () => {
    const before = lines.length;
    const response = await post('/v2/scrape', { url: 'http://127.0.0.1:9/', formats: ['summary'] });
    expect(response.status).toBe(501);
    const logged = after(before).filter((line) => line.msg.includes('/v2/scrape'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 40, msg: expect.stringMatching(/^POST \/v2\/scrape: not_(configured|available): /) });
    expect(logged[0]!.err).toBeUndefined();
  });

  it('an internal error: error level with its stack', () => {
    const logged: Array<{ level: string; object?: { err?: unknown }; message: string }> = [];
    const log = {
      error: (object: { err?: unknown }, message: string) => logged.push({ level: 'error', object, message }),
      warn: (message: string) => logged.push({ level: 'warn', message }),
      info: (message: string) => logged.push({ level: 'info', message }),
    };
    const bug = new TypeError('undefined is not a function');
    logFailure(log, bug, 'POST /v1/scrape');
    expect(logged).toEqual([{ level: 'error', object: { err: bug }, message: 'POST /v1/scrape failed' }]);
  });
});

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiDouble, type LlmDouble } from '@quarry/core/testing';

/** `quarry doctor`, run as users run it (the built bin), on a clean environment plus what each test sets. */
const bin = fileURLToPath(new URL('../bin/quarry.js', import.meta.url));
const run = promisify(execFile);
const configured = /^(QUARRY_|DATABASE_URL|REDIS_URL|OPENAI_|OLLAMA_|ANTHROPIC_|MODEL_NAME|SERPER_|SEARXNG_|PROXY_|HOST|PORT)/;
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !configured.test(name)));
let folder: string;
let openai: LlmDouble;

async function doctor(env: Record<string, string>) {
  const options = { env: { ...baseEnv, QUARRY_DATA_DIR: join(folder, 'data'), QUARRY_CHROMIUM_PATH: '/usr/bin/chromium', ...env }, timeout: 60_000 };
  try {
    const { stdout } = await run(process.execPath, [bin, 'doctor'], options);
    return { code: 0, stdout };
  } catch (error) {
    const failure = error as { code: number; stdout: string };
    return { code: failure.code, stdout: failure.stdout };
  }
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const line = (stdout: string, name: string) => stdout.split('\n').find((text) => text.includes(` ${name}: `)) ?? '';
const fixOf = (stdout: string, name: string) => {
  const lines = stdout.split('\n');
  const at = lines.findIndex((text) => text.includes(` ${name}: `));
  return lines[at + 1]?.trim().startsWith('fix:') ? lines[at + 1]!.trim() : '';
};

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'quarry-doctor-'));
  openai = await startOpenAiDouble();
});

afterAll(async () => {
  await openai?.close();
  await rm(folder, { recursive: true, force: true });
});

describe('quarry doctor', () => {
  it('says what is on, what is missing and how to add it, and creates nothing', async () => {
    const result = await doctor({});
    expect(result.code).toBe(0);
    expect(line(result.stdout, 'Node.js')).toMatch(new RegExp(`^OK .*${process.versions.node.replace(/\./g, '\\.')}`));
    expect(line(result.stdout, 'Data folder')).toMatch(/^missing .*does not exist yet/);
    expect(line(result.stdout, 'Storage')).toMatch(/^OK .*SQLite \d+\.\d+/);
    expect(line(result.stdout, 'Browser')).toMatch(/^OK .*Chromium \d+.* at \/usr\/bin\/chromium/);
    expect(line(result.stdout, 'LLM provider')).toMatch(/^missing /);
    expect(fixOf(result.stdout, 'LLM provider')).toMatch(/OPENAI_API_KEY/);
    expect(line(result.stdout, 'Search')).toMatch(/^OK .*built-in index/);
    for (const name of ['Proxies', 'Private targets', 'Rate limits', 'Auth', 'Webhooks']) expect(line(result.stdout, name)).not.toBe('');
    expect(existsSync(join(folder, 'data'))).toBe(false);
  });

  it('reaches the configured LLM with one tiny call', async () => {
    openai.reset();
    const result = await doctor({ OPENAI_BASE_URL: openai.url, MODEL_NAME: 'double-model' });
    expect(result.code).toBe(0);
    expect(line(result.stdout, 'LLM provider')).toMatch(/^OK .*double-model answered/);
    expect(openai.requests).toHaveLength(1);
  });

  it('fails, naming the fix, when a configured LLM does not answer', async () => {
    const result = await doctor({ OPENAI_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1`, MODEL_NAME: 'double-model' });
    expect(result.code).toBe(1);
    expect(line(result.stdout, 'LLM provider')).toMatch(/^FAILING /);
    expect(fixOf(result.stdout, 'LLM provider')).toMatch(/OPENAI_BASE_URL/);
  });

  it('fails, naming the fix, when DATABASE_URL points at a port nothing listens on', async () => {
    const result = await doctor({ DATABASE_URL: `postgres://127.0.0.1:${await closedPort()}/test`, REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(result.code).toBe(1);
    expect(line(result.stdout, 'PostgreSQL')).toMatch(/^FAILING .*ECONNREFUSED/);
    expect(fixOf(result.stdout, 'PostgreSQL')).toMatch(/DATABASE_URL/);
    expect(line(result.stdout, 'Redis')).toMatch(/^OK .*\d+\.\d+/);
    expect(result.stdout).toMatch(/1 configured part not working/);
  });

  it('fails on a QUARRY_CHROMIUM_PATH that is not a browser', async () => {
    const result = await doctor({ QUARRY_CHROMIUM_PATH: join(folder, 'no-chromium') });
    expect(result.code).toBe(1);
    expect(line(result.stdout, 'Browser')).toMatch(/^FAILING .*not an executable file/);
    expect(fixOf(result.stdout, 'Browser')).toMatch(/QUARRY_CHROMIUM_PATH/);
  });

  it('fails on a configuration that does not parse, naming the variable', async () => {
    const result = await doctor({ PORT: 'eighty' });
    expect(result.code).toBe(1);
    expect(line(result.stdout, 'Configuration')).toMatch(/^FAILING .*PORT/);
  });
});

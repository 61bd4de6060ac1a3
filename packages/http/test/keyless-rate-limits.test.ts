import { afterEach, describe, expect, it } from 'vitest';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/**
 * One person on a laptop: keyless requests to a loopback server are not rate limited unless the
 * operator sets QUARRY_RATE_LIMITS; once keys exist, every request is limited per team.
 */
const running: TestQuarry[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((quarry) => quarry.close()));
});

async function burst(quarry: TestQuarry, count: number, headers: Record<string, string> = {}): Promise<number[]> {
  const statuses: number[] = [];
  for (let index = 0; index < count; index++) {
    // An invalid body: answered 400 after the rate limiter, without fetching anything.
    const response = await fetch(`${quarry.url}/v1/scrape`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });
    statuses.push(response.status);
    await response.body?.cancel();
  }
  return statuses;
}

describe('rate limits by default', () => {
  it('keyless on loopback: 150 scrapes in a minute, none answered 429', async () => {
    const quarry = await startQuarry({ QUARRY_RATE_LIMITS: '' });
    running.push(quarry);
    const statuses = await burst(quarry, 150);
    expect(statuses.filter((status) => status === 429)).toHaveLength(0);
    expect(new Set(statuses)).toEqual(new Set([400]));
  });

  it('keyless with QUARRY_RATE_LIMITS set: the limits apply', async () => {
    const quarry = await startQuarry({ QUARRY_RATE_LIMITS: 'scrape=5' });
    running.push(quarry);
    expect(await burst(quarry, 7)).toEqual([400, 400, 400, 400, 400, 429, 429]);
  });

  it('once a key exists, its team is limited by the default plan', async () => {
    const quarry = await startQuarry({ QUARRY_RATE_LIMITS: '' });
    running.push(quarry);
    await quarry.services.ledger.ensureTeam('acme', 'acme');
    const { key } = await quarry.services.ledger.createKey('acme', 'test');
    const statuses = await burst(quarry, 105, { authorization: `Bearer ${key}` });
    expect(statuses.slice(0, 100).every((status) => status === 400)).toBe(true);
    expect(statuses.slice(100)).toEqual([429, 429, 429, 429, 429]);
  });
});

describe('the startup log', () => {
  it('says which rate limits are in force and which providers answer', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { Writable } = await import('node:stream');
    const { loadConfig } = await import('../src/compose.js');
    const { composeServer } = await import('../src/compose-server.js');
    const { startServer } = await import('../src/server/start-server.js');
    const dir = await mkdtemp(join(tmpdir(), 'quarry-log-'));
    const lines: string[] = [];
    const stream = new Writable({
      write: (chunk, _encoding, done) => (
        lines.push(
          ...String(chunk)
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line).msg as string),
        ),
        done()
      ),
    });
    const config = loadConfig({ QUARRY_DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', SEARXNG_ENDPOINT: 'http://127.0.0.1:9/' });
    const parts = await composeServer(config);
    const server = await startServer(parts.services, config, { close: parts.close, logger: { level: 'info', stream } });
    try {
      expect(lines).toContainEqual(expect.stringMatching(/^Rate limits: none for keyless requests on loopback \(set QUARRY_RATE_LIMITS/));
      expect(lines).toContainEqual(expect.stringMatching(/^LLM provider: none .*; search provider: SearXNG \(http:\/\/127\.0\.0\.1:9\/\)$/));
      expect(lines).toContainEqual(expect.stringMatching(/npx quarry doctor$/));
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

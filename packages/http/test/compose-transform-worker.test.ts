import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkerPoolTransformer } from '@quarry/adapters';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { embeddedBackends } from '../src/compose/backends.js';
import { compose } from '../src/compose/compose.js';
import { loadConfig } from '../src/compose.js';

/**
 * A server process that works the queue starts its transform worker while it starts, as a CLI
 * crawl does with its engine: the worker's load then does not delay the first crawl's first page,
 * whose links the rest of the crawl waits for (issue 14, the server path). A process that works no
 * pages (QUARRY_ROLE=api) starts it at its first scrape, as before.
 */
describe('the transform worker of a composed process', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  async function composed(role: 'all' | 'api') {
    const dir = await mkdtemp(join(tmpdir(), 'quarry-compose-worker-'));
    dirs.push(dir);
    const config = loadConfig({ QUARRY_DATA_DIR: dir });
    return compose(config, embeddedBackends(config), role);
  }

  it('starts with a process that works pages, not with an api-only one', async () => {
    const start = vi.spyOn(WorkerPoolTransformer.prototype, 'start');
    const working = await composed('all');
    expect(start).toHaveBeenCalledTimes(1);
    await working.close();

    start.mockClear();
    const api = await composed('api');
    expect(start).not.toHaveBeenCalled();
    await api.close();
  });

  it('is not started with QUARRY_TRANSFORM_THREADS=1 (pages convert on the main thread)', async () => {
    const start = vi.spyOn(WorkerPoolTransformer.prototype, 'start');
    const dir = await mkdtemp(join(tmpdir(), 'quarry-compose-worker-'));
    dirs.push(dir);
    const config = loadConfig({ QUARRY_DATA_DIR: dir, QUARRY_TRANSFORM_THREADS: '1' });
    const parts = await compose(config, embeddedBackends(config), 'all');
    expect(start).not.toHaveBeenCalled();
    await parts.close();
  });
});

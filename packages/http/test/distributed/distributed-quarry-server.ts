import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/compose.js';
import { composeDistributed } from '../../src/compose-distributed.js';
import { startServer } from '../../src/server/start-server.js';
import type { TestQuarry } from '../support/quarry-server.js';
import { dropIsolated, isolatedEnv } from './backing-services.js';

/**
 * `startQuarry` of test/support/quarry-server.ts, in the distributed mode: the same signature and
 * result, with API and workers in this process (role `all`) on PostgreSQL and Redis, in a schema
 * and key prefix of its own that `close` drops. A test file of the embedded suite runs unchanged
 * against it with `vi.mock('../support/quarry-server.js', () => import('./distributed-quarry-server.js'))`.
 */
export async function startQuarry(env: Record<string, string> = {}, dataDir?: string): Promise<TestQuarry> {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'quarry-distributed-')));
  const isolated = isolatedEnv();
  const config = loadConfig({
    QUARRY_DATA_DIR: dir,
    PORT: '0',
    HOST: '127.0.0.1',
    QUARRY_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    LOG_LEVEL: 'silent',
    QUARRY_RECONCILE_INTERVAL_MS: '1000',
    ...isolated,
    ...env,
  });
  const parts = await composeDistributed(config, 'all');
  const running = await startServer(parts.services, config, { close: parts.close, logger: false });
  return {
    url: running.url,
    services: parts.services,
    dataDir: dir,
    close: async () => {
      await running.close();
      await dropIsolated(isolated);
      if (!dataDir) await rm(dir, { recursive: true, force: true });
    },
  };
}

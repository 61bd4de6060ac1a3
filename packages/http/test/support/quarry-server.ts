import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/compose.js';
import { composeServer } from '../../src/compose-server.js';
import { startServer } from '../../src/server/start-server.js';
import type { Services } from '../../src/server/services.js';

/** A real Quarry server in this process on a free port, with its own data folder. */
export interface TestQuarry {
  url: string;
  services: Services;
  dataDir: string;
  close(): Promise<void>;
}

export async function startQuarry(env: Record<string, string> = {}, dataDir?: string): Promise<TestQuarry> {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'quarry-test-')));
  const config = loadConfig({
    QUARRY_DATA_DIR: dir,
    PORT: '0',
    HOST: '127.0.0.1',
    QUARRY_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const parts = await composeServer(config);
  const running = await startServer(parts.services, config, { close: parts.close, logger: false });
  return {
    url: running.url,
    services: parts.services,
    dataDir: dir,
    close: async () => {
      await running.close();
      if (!dataDir) await rm(dir, { recursive: true, force: true });
    },
  };
}

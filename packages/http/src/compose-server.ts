import type { ServerConfig } from '@quarry/core';
import { embeddedBackends } from './compose/backends.js';
import { compose } from './compose/compose.js';
import type { Services } from './server/services.js';

/**
 * The server's embedded composition: `compose` over SQLite storage and blobs under
 * QUARRY_DATA_DIR, in one process that serves HTTP and works its own jobs.
 */
export interface ServerParts {
  services: Services;
  close(): Promise<void>;
}

export async function composeServer(config: ServerConfig): Promise<ServerParts> {
  return compose(config, embeddedBackends(config), 'all');
}

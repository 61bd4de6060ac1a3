import type { ServerConfig } from '@quarry/core';
import { compose } from './compose/compose.js';
import { distributedBackends, type QuarryRole } from './compose/distributed-backends.js';
import type { ServerParts } from './compose-server.js';

/**
 * The distributed composition: `compose` over PostgreSQL and BullMQ on Redis (see
 * compose/distributed-backends.ts for the roles). Every role runs the reconciler (compose/reconciler.ts).
 * Loads pg, ioredis and bullmq: import it only when DATABASE_URL and REDIS_URL are set.
 */
export type { QuarryRole };

export interface DistributedParts extends ServerParts {
  role: QuarryRole;
  /** Runs the reconciler now, unless another process had its turn within the interval. */
  reconcile(): Promise<void>;
}

export async function composeDistributed(config: ServerConfig, role: QuarryRole = config.QUARRY_ROLE): Promise<DistributedParts> {
  return { role, ...(await compose(config, await distributedBackends(config, role), role)) };
}

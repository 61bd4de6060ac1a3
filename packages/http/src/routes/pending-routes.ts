import type { FastifyInstance } from 'fastify';
import { NotAvailableError } from '@quarry/core';
import type { ApiVersion } from '../server/request-context.js';

/** Endpoints whose engine comes with a later issue: a clear 501 instead of a silent 404. */
const pending: Array<{ method: 'GET' | 'POST' | 'DELETE'; path: string; feature: string; versions: ApiVersion[] }> = [
  { method: 'GET', path: '/agent/:id/trace', feature: 'An agent trace (live view)', versions: ['v2'] },
  { method: 'GET', path: '/agent/:id/snapshots/:snapshotId', feature: 'An agent snapshot', versions: ['v2'] },
  { method: 'GET', path: '/agent/threads/:threadId', feature: 'Agent threads (chat mode)', versions: ['v2'] },
];

export function pendingRoutes(app: FastifyInstance, version: ApiVersion) {
  for (const route of pending) {
    if (!route.versions.includes(version)) continue;
    app.route({
      method: route.method,
      url: `/${version}${route.path}`,
      config: { kind: route.method === 'GET' ? 'extractStatus' : 'extract' },
      handler: async () => {
        throw new NotAvailableError(`${route.feature} is not available in this engine yet`);
      },
    });
  }
}

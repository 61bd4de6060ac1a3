import { describe, vi } from 'vitest';
import { areBackingServicesAvailable } from './backing-services.js';

// The embedded server's docs-and-ops suite, unchanged, against API + workers on PostgreSQL and Redis.
vi.mock('../support/quarry-server.js', () => import('./distributed-quarry-server.js'));

if (await areBackingServicesAvailable()) await import('../docs-and-ops.test.js');
else describe.skip('docs-and-ops (distributed): PostgreSQL or Redis unavailable', () => undefined);

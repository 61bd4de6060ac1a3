import { describe, vi } from 'vitest';
import { areBackingServicesAvailable } from './backing-services.js';

// The embedded server's queue-status suite, unchanged, against API + workers on PostgreSQL and Redis.
vi.mock('../support/quarry-server.js', () => import('./distributed-quarry-server.js'));

if (await areBackingServicesAvailable()) await import('../queue-status.test.js');
else describe.skip('queue-status (distributed): PostgreSQL or Redis unavailable', () => undefined);

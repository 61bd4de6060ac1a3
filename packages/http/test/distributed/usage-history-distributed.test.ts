import { describe, vi } from 'vitest';
import { areBackingServicesAvailable } from './backing-services.js';

// The embedded server's usage-history suite, unchanged, against API + workers on PostgreSQL and Redis.
vi.mock('../support/quarry-server.js', () => import('./distributed-quarry-server.js'));

if (await areBackingServicesAvailable()) await import('../usage-history.test.js');
else describe.skip('usage-history (distributed): PostgreSQL or Redis unavailable', () => undefined);

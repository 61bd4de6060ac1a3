import { describe, vi } from 'vitest';
import { areBackingServicesAvailable } from './backing-services.js';

// The embedded server's scrape-by-id suite, unchanged, against API + workers on PostgreSQL and Redis.
vi.mock('../support/quarry-server.js', () => import('./distributed-quarry-server.js'));

if (await areBackingServicesAvailable()) await import('../scrape-by-id.test.js');
else describe.skip('scrape-by-id (distributed): PostgreSQL or Redis unavailable', () => undefined);

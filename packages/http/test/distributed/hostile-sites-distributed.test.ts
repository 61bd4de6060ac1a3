import { describe, vi } from 'vitest';
import { areBackingServicesAvailable } from './backing-services.js';

// The embedded server's hostile-sites suite, unchanged, against API + workers on PostgreSQL and Redis.
vi.mock('../support/quarry-server.js', () => import('./distributed-quarry-server.js'));

if (await areBackingServicesAvailable()) await import('../hostile-sites.test.js');
else describe.skip('hostile-sites (distributed): PostgreSQL or Redis unavailable', () => undefined);

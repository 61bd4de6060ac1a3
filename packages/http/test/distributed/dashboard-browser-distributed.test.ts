import { describe, vi } from 'vitest';
import { areBackingServicesAvailable } from './backing-services.js';

// The embedded server's dashboard-browser suite, unchanged, against API + workers on PostgreSQL and Redis.
vi.mock('../support/quarry-server.js', () => import('./distributed-quarry-server.js'));

if (await areBackingServicesAvailable()) await import('../dashboard-browser.test.js');
else describe.skip('dashboard-browser (distributed): PostgreSQL or Redis unavailable', () => undefined);

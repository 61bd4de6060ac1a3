import { describe, vi } from 'vitest';
import { areBackingServicesAvailable } from './backing-services.js';

// The embedded server's map-sitemap suite, unchanged, against API + workers on PostgreSQL and Redis.
vi.mock('../support/quarry-server.js', () => import('./distributed-quarry-server.js'));

if (await areBackingServicesAvailable()) await import('../map-sitemap.test.js');
else describe.skip('map-sitemap (distributed): PostgreSQL or Redis unavailable', () => undefined);

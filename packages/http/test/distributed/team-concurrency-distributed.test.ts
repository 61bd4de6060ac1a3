import { describe, vi } from 'vitest';
import { areBackingServicesAvailable } from './backing-services.js';

// The embedded server's team-concurrency suite, unchanged, against API + workers on PostgreSQL and Redis.
vi.mock('../support/quarry-server.js', () => import('./distributed-quarry-server.js'));

if (await areBackingServicesAvailable()) await import('../team-concurrency.test.js');
else describe.skip('team-concurrency (distributed): PostgreSQL or Redis unavailable', () => undefined);

import { describe, vi } from 'vitest';
import { areBackingServicesAvailable } from './backing-services.js';

// The embedded server's keyless-rate-limits suite, unchanged, against API + workers on PostgreSQL and Redis.
vi.mock('../support/quarry-server.js', () => import('./distributed-quarry-server.js'));

if (await areBackingServicesAvailable()) await import('../keyless-rate-limits.test.js');
else describe.skip('keyless-rate-limits (distributed): PostgreSQL or Redis unavailable', () => undefined);

import { describe, vi } from 'vitest';
import { areBackingServicesAvailable } from './backing-services.js';

// The embedded server's firecrawl-e2e-compat suite, unchanged, against API + workers on PostgreSQL and Redis.
vi.mock('../support/quarry-server.js', () => import('./distributed-quarry-server.js'));

if (await areBackingServicesAvailable()) await import('../firecrawl-e2e-compat.test.js');
else describe.skip('firecrawl-e2e-compat (distributed): PostgreSQL or Redis unavailable', () => undefined);

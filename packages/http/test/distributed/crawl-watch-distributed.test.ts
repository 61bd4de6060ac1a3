import { describe, vi } from 'vitest';
import { areBackingServicesAvailable } from './backing-services.js';

// The embedded server's crawl-watch suite, unchanged, against API + workers on PostgreSQL and Redis.
vi.mock('../support/quarry-server.js', () => import('./distributed-quarry-server.js'));

if (await areBackingServicesAvailable()) await import('../crawl-watch.test.js');
else describe.skip('crawl-watch (distributed): PostgreSQL or Redis unavailable', () => undefined);

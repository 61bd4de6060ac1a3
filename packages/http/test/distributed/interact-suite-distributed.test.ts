import { describe, vi } from 'vitest';
import { areBackingServicesAvailable } from './backing-services.js';

// The embedded server's interact suite, unchanged, against API + workers in one process (role `all`)
// on PostgreSQL and Redis: every call goes through the shared sessions (shared-sessions.ts).
vi.mock('../support/quarry-server.js', () => import('./distributed-quarry-server.js'));

if (await areBackingServicesAvailable()) await import('../interact.test.js');
else describe.skip('interact (distributed): PostgreSQL or Redis unavailable', () => undefined);

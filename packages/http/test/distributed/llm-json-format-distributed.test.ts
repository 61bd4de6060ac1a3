import { describe, vi } from 'vitest';
import { areBackingServicesAvailable } from './backing-services.js';

// The json/summary format suite, unchanged, against API + workers on PostgreSQL and Redis: the
// workers get the LLM stages and charge page tokens through the distributed composition.
vi.mock('../support/quarry-server.js', () => import('./distributed-quarry-server.js'));

if (await areBackingServicesAvailable()) await import('../llm-json-format.test.js');
else describe.skip('llm-json-format (distributed): PostgreSQL or Redis unavailable', () => undefined);

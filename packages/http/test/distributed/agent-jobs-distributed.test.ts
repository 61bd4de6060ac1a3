import { describe, vi } from 'vitest';
import { areBackingServicesAvailable } from './backing-services.js';

// The embedded agent job suites (llms.txt, extract, deep research), unchanged, on PostgreSQL and Redis.
vi.mock('../support/quarry-server.js', () => import('./distributed-quarry-server.js'));

if (await areBackingServicesAvailable()) {
  await import('../llmstxt.test.js');
  await import('../extract.test.js');
  await import('../deep-research.test.js');
} else {
  describe.skip('agent jobs (distributed): PostgreSQL or Redis unavailable', () => undefined);
}

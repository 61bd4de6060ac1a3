import { describe, expect, it } from 'vitest';
import type { SlotLimiter } from '../slot-limiter.js';
import { ManualClock } from './manual-clock.js';

/**
 * The conformance suite of the SlotLimiter port. `make` returns limiters that share their limits
 * (two "processes") and run on the given clock.
 */
export function describeSlotLimiter(name: string, make: (clock: ManualClock) => Promise<[SlotLimiter, SlotLimiter]>, options: { skip?: boolean } = {}) {
  describe.skipIf(options.skip ?? false)(`SlotLimiter: ${name}`, () => {
    it('takes a slot under every claim or none, and frees it on release', async () => {
      const [first, second] = await make(new ManualClock());
      const claims = [
        { key: 'team:acme', limit: 2 },
        { key: 'job:1', limit: 5 },
      ];
      const a = await first.acquire(claims, 10_000);
      const b = await second.acquire(claims, 10_000);
      expect('token' in a && 'token' in b).toBe(true);
      expect(await second.acquire(claims, 10_000)).toEqual({ retryInMs: 0 });
      // A refused claim takes nothing: job:1 still has room for three more.
      for (let index = 0; index < 3; index++) expect(await first.acquire([{ key: 'job:1', limit: 5 }], 10_000)).toHaveProperty('token');
      expect(await first.acquire([{ key: 'job:1', limit: 5 }], 10_000)).toEqual({ retryInMs: 0 });
      expect(await second.acquire([{ key: 'team:other', limit: 2 }], 10_000)).toHaveProperty('token');
      await first.release((a as { token: string }).token);
      await first.release((a as { token: string }).token); // idempotent
      expect(await second.acquire([{ key: 'team:acme', limit: 2 }], 10_000)).toHaveProperty('token');
    });

    it('frees the slots of a holder that never releases when their time to live ends', async () => {
      const clock = new ManualClock();
      const [first, second] = await make(clock);
      expect(await first.acquire([{ key: 'team:gone', limit: 1 }], 5_000)).toHaveProperty('token');
      expect(await second.acquire([{ key: 'team:gone', limit: 1 }], 5_000)).toEqual({ retryInMs: 0 });
      clock.advance(5_000);
      expect(await second.acquire([{ key: 'team:gone', limit: 1 }], 5_000)).toHaveProperty('token');
    });

    it('keeps only the cooled-down key closed for its delay, and says how long', async () => {
      const clock = new ManualClock();
      const [first, second] = await make(clock);
      const page = (await first.acquire(
        [
          { key: 'job:slow', limit: 1 },
          { key: 'team:t', limit: 4 },
        ],
        60_000,
      )) as { token: string };
      await first.release(page.token, { key: 'job:slow', ms: 2_000 });
      expect(await second.acquire([{ key: 'job:slow', limit: 1 }], 60_000)).toEqual({ retryInMs: 2_000 });
      expect(await second.acquire([{ key: 'team:t', limit: 4 }], 60_000)).toHaveProperty('token');
      clock.advance(2_000);
      expect(await second.acquire([{ key: 'job:slow', limit: 1 }], 60_000)).toHaveProperty('token');
    });
  });
}

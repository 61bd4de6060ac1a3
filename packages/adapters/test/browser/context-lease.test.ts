import { afterAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../src/index.js';
import { chromiumPath, skipWithoutChromium } from './browser-fixtures.js';

/**
 * BrowserPool.openContext: a context that outlives the call (interact sessions) holds its page
 * slot until released; release is idempotent and hands the slot to a waiting scrape.
 */
let pool: BrowserPool | undefined;

afterAll(async () => {
  await pool?.close();
});

describe.skipIf(skipWithoutChromium)('BrowserPool.openContext', () => {
  it('holds a page slot until release, then gives it to the next waiter', async () => {
    pool = new BrowserPool({ executablePath: chromiumPath!, maxOpenPages: 1 });
    const lease = await pool.openContext({});
    expect(pool.stats().openPages).toBe(1);
    let served = false;
    const waiting = pool.withContext({}, async () => {
      served = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(served).toBe(false);
    expect(pool.stats().waiting).toBe(1);
    await lease.release();
    await lease.release();
    await waiting;
    expect(served).toBe(true);
    expect(pool.stats().openPages).toBe(0);
    expect(lease.context.pages()).toHaveLength(0);
  }, 60_000);
});

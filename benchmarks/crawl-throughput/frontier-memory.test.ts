import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/**
 * The frontier-memory script runs against the built packages: a small frontier goes through the
 * crawl's own stores, so a change to their contracts fails here rather than when the benchmark is
 * next run by hand (it once created its job with a request the stored-job schema refuses).
 */
describe('the frontier-memory benchmark', () => {
  it('queues every URL and prints its memory figures', () => {
    const script = new URL('./frontier-memory.mjs', import.meta.url).pathname;
    const output = execFileSync(process.execPath, ['--expose-gc', script, '2000'], { encoding: 'utf8' });
    const figures = JSON.parse(output.trim().split('\n').at(-1)!);
    expect(figures.urls).toBe(2000);
    expect(figures.bytesPerUrl).toBeGreaterThan(0);
  });
});

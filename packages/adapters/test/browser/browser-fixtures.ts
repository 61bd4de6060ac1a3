/**
 * Helpers for the browser tests: the system Chromium (tests skip, saying why, when there is none;
 * with CI=true they fail instead), a local site, PNG header decoding and Chromium process counts.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { findChromium } from '../../src/index.js';

export const chromiumPath = findChromium(process.env.QUARRY_CHROMIUM_PATH);
export const skipWithoutChromium = !chromiumPath && process.env.CI !== 'true';
if (skipWithoutChromium) console.warn('Browser tests skipped: no Chromium found (apt-get install chromium, or set QUARRY_CHROMIUM_PATH)');

/** Width and height of a PNG from its IHDR chunk. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0) !== 0x89504e47) throw new Error('not a PNG');
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

export function bytesOfDataUrl(url: string): Uint8Array {
  const [, base64] = /^data:[^;]+;base64,(.*)$/.exec(url) ?? [];
  if (!base64) throw new Error(`not a base64 data URL: ${url.slice(0, 40)}`);
  return new Uint8Array(Buffer.from(base64, 'base64'));
}

/** Processes descending from this one (pid -> command line), read from /proc. */
export function descendantProcesses(root = process.pid): Array<{ pid: number; command: string; rssKb: number }> {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  const found: Array<{ pid: number; command: string; rssKb: number }> = [];
  const isDescendant = (pid: number): boolean => {
    for (let current = parents.get(pid); current !== undefined && current > 1; current = parents.get(current)) if (current === root) return true;
    return false;
  };
  for (const pid of parents.keys()) {
    if (!isDescendant(pid)) continue;
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      found.push({ pid, command, rssKb: Number(rss ?? 0) });
    } catch {
      // Gone.
    }
  }
  return found;
}

export function chromiumProcesses() {
  return descendantProcesses().filter((entry) => /chrom/i.test(entry.command));
}

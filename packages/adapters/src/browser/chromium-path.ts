import { accessSync, constants } from 'node:fs';

/**
 * Where the system Chromium lives. Quarry never downloads a browser: it drives the one the
 * operator installed (Debian/Ubuntu `chromium`, or any Chrome/Chromium given by path).
 */
export const chromiumCandidates = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/lib/chromium/chromium',
  '/snap/bin/chromium',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
] as const;

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The Chromium to launch: `explicit` when given (it must exist: a wrong path is an error the
 * operator should see, not a silent fallback), else the first executable of `chromiumCandidates`,
 * else undefined.
 */
export function findChromium(explicit?: string, candidates: readonly string[] = chromiumCandidates): string | undefined {
  if (explicit) {
    if (!isExecutable(explicit)) throw new Error(`QUARRY_CHROMIUM_PATH points to ${explicit}, which is not an executable file`);
    return explicit;
  }
  return candidates.find(isExecutable);
}

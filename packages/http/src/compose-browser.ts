import { BrowserSessionRegistry, findChromium, PlaywrightFetcher } from '@quarry/adapters';
import type { BlobLinks, BlobStore, BrowserSessions, Fetcher, ServerConfig } from '@quarry/core';

/**
 * The browser engine of this process, when a Chromium is found (QUARRY_CHROMIUM_PATH, else the
 * usual Debian/Ubuntu paths): a PlaywrightFetcher with the same private-host allow list as the
 * HTTP fetcher, and the blob links that put screenshots and action PDFs in the process's BlobStore
 * (compose-blobs.ts) and turn them into URLs served by blob-routes.ts. Without Chromium it returns no browser and says, once, how to enable it;
 * browser-only options then answer a clear error.
 */
export interface BrowserParts {
  browser?: Fetcher;
  blobs?: BlobLinks;
  /** Pages kept for interact, on the same guarded browser pool (QUARRY_INTERACT_*). */
  sessions?: BrowserSessions;
}

/** Public base URL per config once the server listens (PORT 0 picks the port at listen time); QUARRY_PUBLIC_URL wins. */
const listeningBases = new WeakMap<ServerConfig, string>();

export function setListeningBase(config: ServerConfig, url: string): void {
  listeningBases.set(config, url.replace(/\/$/, ''));
}

function publicBase(config: ServerConfig): string {
  if (config.QUARRY_PUBLIC_URL) return config.QUARRY_PUBLIC_URL.replace(/\/$/, '');
  const known = listeningBases.get(config);
  if (known) return known;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  return `http://${host}:${config.PORT}`;
}

export function buildBrowserParts(
  config: ServerConfig,
  allowPrivateHosts: readonly string[],
  store: BlobStore,
  privateHostsHint: string,
  log: (message: string) => void = (message) => console.error(message),
): BrowserParts {
  const executablePath = findChromium(config.QUARRY_CHROMIUM_PATH);
  const blobs: BlobLinks = { store, urlOf: (id) => `${publicBase(config)}/v2/blobs/${id}` };
  if (!executablePath) {
    log(
      'Browser engine off: no Chromium found. Install it (apt-get install chromium) or set QUARRY_CHROMIUM_PATH; until then waitFor, actions, screenshot, mobile, location and branding answer a clear error.',
    );
    return { blobs };
  }
  const pool = {
    maxOpenPages: config.QUARRY_BROWSER_MAX_PAGES,
    maxBrowsers: config.QUARRY_BROWSER_MAX_BROWSERS,
    retireAfterPages: config.QUARRY_BROWSER_RETIRE_AFTER,
  };
  const browser = new PlaywrightFetcher({ executablePath, allowPrivateHosts, privateHostsHint, ...pool });
  const sessions = new BrowserSessionRegistry({
    open: (url, timeoutMs) => browser.openPage(url, timeoutMs),
    ttlMs: config.QUARRY_INTERACT_TTL_SECONDS * 1000,
    maxPerTeam: config.QUARRY_INTERACT_MAX_SESSIONS,
    // One page slot always stays for scrapes.
    maxTotal: Math.max(1, config.QUARRY_BROWSER_MAX_PAGES - 1),
  });
  browser.keepPagesWith(sessions);
  return { browser, blobs, sessions };
}

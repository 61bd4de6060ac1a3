/**
 * FetchRequest -> the BrowserContext a scrape runs in: device (desktop or phone: user agent,
 * viewport, touch, scale), locale, timezone and Accept-Language (location), extra headers,
 * TLS leniency. Cookies from a `cookie` header become context cookies for the target's origin
 * only (an extra header would send them to every third-party host of the page).
 */
import type { BrowserContextOptions } from 'playwright-core';
import { loadPlaywright } from './load-playwright.js';
import type { FetchRequest } from '@quarry/core';

type Device = { userAgent: string; viewport: { width: number; height: number }; deviceScaleFactor: number; isMobile: boolean; hasTouch: boolean };

/** Playwright's descriptors of the desktop and phone every scrape emulates (loaded with playwright-core). */
export async function deviceProfiles(): Promise<{ desktop: Device; mobile: Device }> {
  const { devices } = await loadPlaywright();
  return { desktop: devices['Desktop Chrome']!, mobile: devices['Pixel 7']! };
}

const defaultLocale = { locale: 'en-US', acceptLanguage: 'en-US,en;q=0.9' } as const;

export async function contextOptionsFor(request: FetchRequest, userAgent?: string): Promise<BrowserContextOptions> {
  const profiles = await deviceProfiles();
  const device = request.mobile ? profiles.mobile : profiles.desktop;
  const headers: Record<string, string> = {};
  let headerAgent: string | undefined;
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    const lower = name.toLowerCase();
    // Credentials go only to the target's origin (see credentialHeadersOf), never to every host of the page.
    if (lower === 'cookie' || credentialHeaderNames.has(lower)) continue;
    if (lower === 'user-agent') headerAgent = value;
    else headers[lower] = value;
  }
  headers['accept-language'] = acceptLanguageFor(request);
  return {
    userAgent: headerAgent ?? userAgent ?? device.userAgent,
    viewport: device.viewport,
    deviceScaleFactor: device.deviceScaleFactor,
    isMobile: device.isMobile,
    hasTouch: device.hasTouch,
    locale: request.browser?.location?.locale ?? defaultLocale.locale,
    ...(request.browser?.location ? { timezoneId: request.browser?.location.timezoneId } : {}),
    extraHTTPHeaders: headers,
    ignoreHTTPSErrors: request.skipTlsVerification ?? false,
    serviceWorkers: 'block',
    acceptDownloads: true,
  };
}

/**
 * The Accept-Language every request of the scrape carries: the caller's header, else the
 * location's, else English. Chromium replaces it with the bare locale, so the route puts it back.
 */
export function acceptLanguageFor(request: FetchRequest): string {
  const own = Object.entries(request.headers ?? {}).find(([name]) => name.toLowerCase() === 'accept-language')?.[1];
  return own ?? request.browser?.location?.acceptLanguage ?? defaultLocale.acceptLanguage;
}

const credentialHeaderNames: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization', 'cookie']);

/**
 * The caller's Authorization, Proxy-Authorization and Cookie headers: the fetcher's route adds them
 * to requests for the target's origin only (scheme, host and port: a browser's cookie jar would
 * send a cookie to every port of the host), so neither a third-party resource of the page nor
 * another origin reached by a link or redirect sees them.
 */
export function credentialHeadersOf(request: FetchRequest): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    if (credentialHeaderNames.has(name.toLowerCase())) found[name.toLowerCase()] = value;
  }
  return found;
}

/** `cookie: a=1; b=2` -> cookies for the target URL's origin. */
export function cookiesFor(url: URL, headers: Record<string, string> | undefined): Array<{ name: string; value: string; url: string }> {
  const header = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'cookie')?.[1];
  if (!header) return [];
  return header
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair.includes('='))
    .map((pair) => {
      const index = pair.indexOf('=');
      return { name: pair.slice(0, index).trim(), value: pair.slice(index + 1).trim(), url: url.origin };
    })
    .filter((cookie) => cookie.name.length > 0);
}

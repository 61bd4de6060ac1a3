/**
 * What changes between the hops of one fetch: where a redirect points, which of the caller's
 * headers may follow it, and the cookies earlier hops set (many sites set a cookie and redirect
 * to check it; without sending it back the fetch loops until the redirect limit). Pure.
 */

const redirectStatuses: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Connection-level headers: the client sets them, a caller's value would break HTTP/2 or framing. */
const connectionHeaders: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'content-length',
  'host',
]);

/** Headers that carry the caller's credentials: sent only to the first URL's origin. */
const credentialHeaders: ReadonlySet<string> = new Set(['cookie', 'authorization', 'proxy-authorization']);

/**
 * The next URL when `status` is a redirect with a usable `Location`, resolved against the current
 * URL; null when the response is final (including a 3xx without Location).
 */
export function redirectTarget(status: number, location: string | undefined, current: URL): URL | null {
  if (!redirectStatuses.has(status) || !location) return null;
  try {
    return new URL(location, current);
  } catch {
    return null;
  }
}

/**
 * Whether a hop is on the first URL's origin (scheme, host and port), where the caller's
 * credentials may go. Any other origin loses them, a subdomain, another port and https -> http
 * included, as browsers (Fetch: Authorization on cross-origin redirects) and curl do.
 */
function isSameOrigin(first: URL, hop: URL): boolean {
  return first.origin === hop.origin;
}

/** Cookies set by the hops of one fetch, sent back to the host that set them (host-only). */
export class HopCookies {
  private readonly byHost = new Map<string, Map<string, string>>();

  /** Keeps `name=value` of each Set-Cookie header; attributes are ignored, `Max-Age=0` deletes. */
  remember(url: URL, setCookie: readonly string[] | undefined): void {
    for (const line of setCookie ?? []) {
      const [pair = '', ...attributes] = line.split(';');
      const separator = pair.indexOf('=');
      if (separator <= 0) continue;
      const name = pair.slice(0, separator).trim();
      const cookies = this.byHost.get(url.hostname) ?? new Map<string, string>();
      const isDeletion = attributes.some((attribute) => /^\s*max-age\s*=\s*0\s*$/i.test(attribute));
      if (isDeletion) cookies.delete(name);
      else cookies.set(name, pair.slice(separator + 1).trim());
      this.byHost.set(url.hostname, cookies);
    }
  }

  /** `name=value; ...` for a host, or undefined when nothing was set for it. */
  headerFor(url: URL): string | undefined {
    const cookies = this.byHost.get(url.hostname);
    if (!cookies || cookies.size === 0) return undefined;
    return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * The request headers of a hop: the caller's headers (names lowercased, connection-level ones
 * dropped), without credentials when the hop left the first URL's origin, plus cookies earlier hops
 * set for this host.
 */
export function hopHeaders(callerHeaders: Readonly<Record<string, string>>, first: URL, hop: URL, cookies: HopCookies): Record<string, string> {
  const keepsCredentials = isSameOrigin(first, hop);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(callerHeaders)) {
    const key = name.toLowerCase();
    if (connectionHeaders.has(key) || (!keepsCredentials && credentialHeaders.has(key))) continue;
    headers[key] = value;
  }
  const fromHops = cookies.headerFor(hop);
  if (fromHops) headers.cookie = headers.cookie ? `${headers.cookie}; ${fromHops}` : fromHops;
  return headers;
}

/**
 * URL normalization for the crawl frontier and for map output.
 *
 * Three different "sameness" questions are answered here, on purpose kept apart:
 *
 * | function          | answers                                   | used for                          |
 * |-------------------|-------------------------------------------|-----------------------------------|
 * | `normalizeUrl`    | which absolute http(s) URL is meant       | every URL entering the frontier   |
 * | `dedupKey`        | have we already got this page             | the crawl's visited set / limit   |
 * | `normalizeMapUrl` | what string map returns                   | `/map` output                     |
 * | `mapKey`          | are two map results the same (v1 dedupe)  | `/map` v1 dedupe                  |
 */

/** Options that shape the crawl's visited key; both come from the crawl request. */
export interface DedupKeyOptions {
  /** Drop the whole query string from the key (Firecrawl crawl default `false`). */
  ignoreQueryParameters: boolean;
  /** Treat `www.`/no-www, http/https and `/p` `/p/` `/p/index.html` `/p/index.php` as one page (default `true`). */
  deduplicateSimilarURLs: boolean;
}

const hasScheme = /^[^.:]+:\/\//;
/** Schemes recognised without `//` so that `mailto:me@a.com` is not read as `http://mailto:me@a.com`. */
const nonWebScheme = /^(?:mailto|tel|sms|javascript|data|blob|about|file|ftp|ftps|ssh|telnet):/i;
const webProtocols = new Set(['http:', 'https:']);
const indexFiles = ['/index.html', '/index.php'] as const;

/**
 * True when a fragment (with or without its leading `#`) is a client-side route rather than an
 * in-page anchor: longer than one character and containing `/` (`#/docs`, `#!/a/b`). Firecrawl's
 * `noSections` rule; such URLs are crawled and keep their fragment.
 */
export function isSpaRoute(fragment: string): boolean {
  const body = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  return body.length > 1 && body.includes('/');
}

/**
 * Parses a URL the way the crawler sees it.
 *
 * - With `base`, `input` is resolved against it (relative links). Without `base`, an input with no
 *   `scheme://` gets `http://` (`example.com/x` -> `http://example.com/x`), as Firecrawl does for
 *   request URLs; well-known non-web schemes (`mailto:`, `tel:`, `javascript:`...) are refused first.
 * - Only `http:` and `https:` are accepted; anything else, or an unparseable input, gives `null`.
 * - Host is lowercased and IDNs are punycoded, the default port is dropped (WHATWG URL does both).
 * - The fragment is dropped unless it is an SPA route (see {@link isSpaRoute}).
 * - The query string is kept as written (order and encoding).
 *
 * Never throws. Returns a fresh `URL` the caller may keep.
 */
export function normalizeUrl(input: string, base?: string | URL): URL | null {
  const text = input.trim();
  if (base === undefined && nonWebScheme.test(text)) return null;
  let url: URL;
  try {
    url = base === undefined ? new URL(hasScheme.test(text) ? text : `http://${text}`) : new URL(text, base);
  } catch {
    return null;
  }
  if (!webProtocols.has(url.protocol) || url.hostname === '') return null;
  // Assigning '' also removes a bare trailing `#`, which `hash` reports as ''.
  if (!isSpaRoute(url.hash)) url.hash = '';
  return url;
}

/** The hostname without one leading `www.`: the host identity Firecrawl uses for "same site". */
export function hostWithoutWww(hostname: string): string {
  return hostname.startsWith('www.') ? hostname.slice(4) : hostname;
}

/**
 * "Same site" for crawl and map scope: the hostname without `www.` (as Firecrawl judges it), plus
 * the port when it is not a default one. Firecrawl ignores the port, so mapping
 * `http://127.0.0.1:8001/` would take in the links of `:8002`, another server altogether; on a
 * non-default port a site is its own. 80 and 443 count as no port, so `http://a.com/` and
 * `https://a.com:443/` stay one site, as on public sites Firecrawl's rule is unchanged.
 */
export function scopeSiteOf(url: URL): string {
  return `${hostWithoutWww(url.hostname)}${scopePortOf(url)}`;
}

/** The port part of {@link scopeSiteOf}: `:port` when not 80, 443 or the scheme's default, else ''. */
export function scopePortOf(url: URL): string {
  return url.port === '' || url.port === '80' || url.port === '443' ? '' : `:${url.port}`;
}

/**
 * The crawl's visited-set key for a URL produced by {@link normalizeUrl}.
 *
 * With `deduplicateSimilarURLs` (Firecrawl's URL permutations) the key is
 * `host-without-www[:port] + path + query + spa-fragment`, where the path loses a final
 * `index.html`/`index.php` segment and then one trailing `/` (the root stays `/`). So these are one
 * key: `http://www.a.com/p`, `https://a.com/p/`, `https://a.com/p/index.html`, `https://a.com/p/index.php`.
 * Not folded: path case (`/P` != `/p`), query parameter order (`?a=1&b=2` != `?b=2&a=1`), a
 * doubled slash (`/p//` != `/p/`), other subdomains, ports.
 *
 * Without it the key is the URL's `href` (scheme, `www.` and trailing slash significant).
 * With `ignoreQueryParameters` the query is dropped in both modes. SPA fragments always stay, so
 * `/#/a` and `/#/b` are different pages.
 */
export function dedupKey(url: URL, options: DedupKeyOptions): string {
  const search = options.ignoreQueryParameters ? '' : url.search;
  if (!options.deduplicateSimilarURLs) {
    return `${url.protocol}//${url.host}${url.pathname}${search}${url.hash}`;
  }
  const port = url.port === '' ? '' : `:${url.port}`;
  return `${hostWithoutWww(url.hostname)}${port}${similarPath(url.pathname)}${search}${url.hash}`;
}

function similarPath(pathname: string): string {
  let path = pathname;
  for (const index of indexFiles) {
    if (path.endsWith(index)) {
      path = path.slice(0, -index.length + 1);
      break;
    }
  }
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * The string `/map` returns for a discovered URL, or `null` when it is not an http(s) URL.
 * Adds `http://` when the scheme is missing, strips the trailing `/` of a root URL only
 * (`https://a.com/` -> `https://a.com`; `https://a.com/docs/` stays, as later Firecrawl does,
 * because stripping it made many returned URLs answer 301), drops the query with
 * `ignoreQueryParameters` (map default `true`). Fragments are kept (map does not drop them).
 */
export function normalizeMapUrl(input: string, options: { ignoreQueryParameters: boolean }): string | null {
  const text = input.trim();
  if (nonWebScheme.test(text)) return null;
  let url: URL;
  try {
    url = new URL(hasScheme.test(text) ? text : `http://${text}`);
  } catch {
    return null;
  }
  if (!webProtocols.has(url.protocol) || url.hostname === '') return null;
  if (options.ignoreQueryParameters) url.search = '';
  const href = url.href;
  return url.pathname === '/' && url.search === '' && url.hash === '' ? href.slice(0, -1) : href;
}

/**
 * Map's v1 dedupe key: host without `www.` + path + query + fragment (scheme ignored). v2 map
 * dedupes by the exact string of {@link normalizeMapUrl} instead.
 */
export function mapKey(url: URL): string {
  return `${hostWithoutWww(url.hostname)}${url.pathname}${url.search}${url.hash}`;
}

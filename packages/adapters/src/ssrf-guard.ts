/**
 * The SSRF guard: Quarry fetches URLs that callers choose, so no fetch may reach the machine's own
 * network (loopback, private, link-local, metadata services...) unless the operator allowed it.
 *
 * Two checks, both throwing `TargetError('ssrf')`:
 * - `checkUrl` before every hop (redirects included): only `http:`/`https:`, and IP-literal hosts
 *   (sockets skip DNS for them) must be allowed.
 * - `lookup`, a `dns.lookup`-compatible function handed to every socket the fetcher opens: it
 *   resolves the name once, drops refused addresses and gives the socket only what it checked,
 *   so DNS rebinding between check and connect is impossible.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from 'node:dns';
import { TargetError } from '@quarry/core';
import { isAllowedByList, normalizeHostname, parseAllowList, type AllowList } from './allow-list.js';
import { classifyAddress, describeAddress, parseAddress, type AddressClass } from './ip-ranges.js';

/** Resolves a host name to every address it has (like `dns.lookup` with `all: true`). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export interface SsrfGuardOptions {
  /** Host names, `*.suffix`, IPs, CIDRs or `*`: destinations allowed even when not public. */
  allowPrivateHosts?: readonly string[];
  /** DNS resolution; `dns.lookup(hostname, { all: true })` when not given. */
  resolve?: Resolver;
  /**
   * What a refusal says to do, naming the knob of the surface that owns the guard (the adapter's
   * option for a library user; the composition passes its flag or environment variable).
   */
  howToAllow?: string;
}

/** The `lookup` option of `net.connect`/`tls.connect`/`http.Agent`. */
export type GuardedLookup = (
  hostname: string,
  options: LookupOneOptions | LookupAllOptions | number,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

const allowedSchemes = new Set(['http:', 'https:']);
const defaultHowToAllow = 'allow it with the `allowPrivateHosts` option (host names, IPs or CIDRs)';

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true });

function refusal(host: string, reason: string, howToAllow: string, addressClass?: AddressClass): TargetError {
  return new TargetError('ssrf', `Refused to connect to ${host}: ${reason}; ${howToAllow}`, {
    details: {
      host,
      ...(addressClass ? { address: addressClass.address, addressKind: addressClass.kind, range: addressClass.range } : {}),
    },
  });
}

function notFound(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
}

/** RFC 6761: `localhost` and every name under it are loopback, whatever a resolver says. */
function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

const loopback = '127.0.0.1';

/** Hosts whose checkUrl verdict (passed) is remembered; past it the set starts again. */
const maxPassedHosts = 1_000;

export class SsrfGuard {
  readonly allowList: AllowList;
  private readonly resolveHost: Resolver;
  private readonly howToAllow: string;
  /** Host names and IP literals checkUrl let through. */
  private readonly passedHosts = new Set<string>();

  constructor(options: SsrfGuardOptions = {}) {
    this.allowList = parseAllowList(options.allowPrivateHosts ?? []);
    this.resolveHost = options.resolve ?? systemResolver;
    this.howToAllow = options.howToAllow ?? defaultHowToAllow;
  }

  /** Whether a connection to `address`, reached through `hostname`, may be made. */
  isAllowed(hostname: string, addressClass: AddressClass): boolean {
    return addressClass.kind === 'public' || isAllowedByList(this.allowList, { hostname, address: addressClass.address });
  }

  /**
   * Checks a URL before a request is sent to it: the scheme, and the host when it is an IP
   * literal (`127.1`, `[::ffff:127.0.0.1]` arrive here already normalised by WHATWG URL).
   * Host names are checked when a socket resolves them (`lookup`). Throws TargetError('ssrf').
   */
  checkUrl(url: URL): void {
    if (!allowedSchemes.has(url.protocol)) {
      throw new TargetError('ssrf', `Refused to fetch a ${url.protocol} URL: only http: and https: URLs can be fetched`, {
        details: { scheme: url.protocol },
      });
    }
    // The verdict depends only on the host and the allow list (fixed at construction): a host that
    // passed once passes again without parsing and classifying it (every hop of a crawl asks).
    if (this.passedHosts.has(url.hostname)) return;
    this.checkHost(url);
    if (this.passedHosts.size >= maxPassedHosts) this.passedHosts.clear();
    this.passedHosts.add(url.hostname);
  }

  private checkHost(url: URL): void {
    if (isLocalhostName(url.hostname)) {
      const addressClass = classifyAddress(loopback);
      if (!this.isAllowed(url.hostname, addressClass))
        throw refusal(url.hostname, `it resolves to ${describeAddress(addressClass)}`, this.howToAllow, addressClass);
      return;
    }
    if (!parseAddress(url.hostname)) return;
    const addressClass = classifyAddress(url.hostname);
    if (!this.isAllowed(url.hostname, addressClass)) {
      throw refusal(url.host, describeAddress(addressClass, ' is '), this.howToAllow, addressClass);
    }
  }

  /**
   * Resolves `hostname` once and returns the addresses a socket may use (of `family` when it is
   * 4 or 6), in resolver order. Throws TargetError('ssrf') naming the first refused address when
   * none is allowed, and the resolver's error (ENOTFOUND...) when the name does not resolve.
   */
  async resolve(hostname: string, family: number = 0): Promise<LookupAddress[]> {
    const literal = parseAddress(hostname);
    const found = literal
      ? [{ address: literal.toString(), family: literal.kind() === 'ipv4' ? 4 : 6 }]
      : isLocalhostName(hostname)
        ? [
            { address: loopback, family: 4 },
            { address: '::1', family: 6 },
          ]
        : await this.resolveHost(normalizeHostname(hostname));
    const candidates = found.filter((entry) => family === 0 || entry.family === family);
    if (candidates.length === 0) throw notFound(hostname);
    const classes = candidates.map((entry) => ({ entry, addressClass: classifyAddress(entry.address) }));
    const allowed = classes.filter(({ addressClass }) => this.isAllowed(hostname, addressClass));
    if (allowed.length > 0) return allowed.map(({ entry }) => entry);
    const first = classes[0]!.addressClass;
    throw refusal(hostname, `it resolves to ${describeAddress(first)}`, this.howToAllow, first);
  }

  /** `dns.lookup` for sockets: resolve once, keep what is allowed, connect only to that. */
  readonly lookup: GuardedLookup = (hostname, options, callback) => {
    const { family = 0, all = false } = typeof options === 'number' ? { family: options } : options;
    this.resolve(hostname, typeof family === 'number' ? family : family === 'IPv6' ? 6 : 4).then(
      (addresses) => {
        const first = addresses[0]!;
        if (all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

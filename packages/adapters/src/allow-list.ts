/**
 * The operator's exceptions to the SSRF guard (`QUARRY_ALLOW_PRIVATE_HOSTS`,
 * `--allow-private-hosts`): host names, `*.suffix` wildcards, IP addresses, CIDR ranges (IPv4
 * and IPv6) and `*` for everything. Pure.
 */
import type ipaddr from 'ipaddr.js';
import { ValidationError } from '@quarry/core';
import { parseAddress } from './ip-ranges.js';

export interface AllowList {
  /** The entries as given, for messages. */
  readonly entries: readonly string[];
  readonly allowsAll: boolean;
  /** Exact host names, lowercase, without a trailing dot. */
  readonly hostnames: ReadonlySet<string>;
  /** From `*.example.com`: `.example.com` (matches subdomains, not the name itself). */
  readonly suffixes: readonly string[];
  readonly ranges: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][];
}

/** Lowercase, no brackets, no trailing dot: the form host names are compared in. */
export function normalizeHostname(hostname: string): string {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return bare.toLowerCase().replace(/\.$/, '');
}

function invalidEntry(entry: string): ValidationError {
  return new ValidationError(`allowPrivateHosts entry "${entry}" is not a host name, an IP address, a CIDR range or "*"`, 'allowPrivateHosts');
}

function parseRange(entry: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  const slash = entry.lastIndexOf('/');
  const address = parseAddress(entry.slice(0, slash));
  const bits = Number(entry.slice(slash + 1));
  const maxBits = address?.kind() === 'ipv4' ? 32 : 128;
  if (!address || !/^\d{1,3}$/.test(entry.slice(slash + 1)) || bits > maxBits) throw invalidEntry(entry);
  return [address, bits];
}

function parseHostname(entry: string): string {
  try {
    return normalizeHostname(new URL(`http://${entry}/`).hostname);
  } catch {
    throw invalidEntry(entry);
  }
}

/**
 * Compiles allow-list entries. Throws ValidationError naming the first entry that is neither a
 * host name, an IP address (any notation), a CIDR range nor `*`.
 */
export function parseAllowList(entries: readonly string[]): AllowList {
  const hostnames = new Set<string>();
  const suffixes: string[] = [];
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  let allowsAll = false;
  for (const raw of entries) {
    const entry = raw.trim();
    const address = parseAddress(entry);
    if (entry === '') continue;
    if (entry === '*') {
      allowsAll = true;
    } else if (entry.includes('/')) {
      ranges.push(parseRange(entry));
    } else if (address) {
      ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else if (entry.startsWith('*.')) {
      suffixes.push(`.${parseHostname(entry.slice(2))}`);
    } else {
      hostnames.add(parseHostname(entry));
    }
  }
  return { entries: [...entries], allowsAll, hostnames, suffixes, ranges };
}

/** The address itself and, for IPv4-mapped IPv6, the IPv4 address it stands for. */
function addressForms(address: string): (ipaddr.IPv4 | ipaddr.IPv6)[] {
  const parsed = parseAddress(address);
  if (!parsed) return [];
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return [parsed, (parsed as ipaddr.IPv6).toIPv4Address()];
  }
  return [parsed];
}

/**
 * Whether the allow list lets a connection through: `*`, the URL's host name (exact or under a
 * `*.suffix`), or the address it resolved to inside a listed IP/CIDR. Pure.
 */
export function isAllowedByList(list: AllowList | readonly string[], target: { hostname?: string; address?: string }): boolean {
  const allowList = 'allowsAll' in list ? list : parseAllowList(list as readonly string[]);
  if (allowList.allowsAll) return true;
  if (target.hostname !== undefined) {
    const hostname = normalizeHostname(target.hostname);
    if (allowList.hostnames.has(hostname)) return true;
    if (allowList.suffixes.some((suffix) => hostname.endsWith(suffix))) return true;
  }
  if (target.address === undefined) return false;
  return addressForms(target.address).some((form) => allowList.ranges.some((range) => range[0].kind() === form.kind() && form.match(range)));
}

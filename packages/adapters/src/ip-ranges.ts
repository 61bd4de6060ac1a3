/**
 * Special-purpose IP ranges and the pure classifier the SSRF guard is built on.
 *
 * The ranges are our own table (IANA special-purpose registries for IPv4 and IPv6, RFC 6890 and
 * successors) so a reader sees every range and the reason it is refused; ipaddr.js does the
 * parsing and prefix matching for both families, including odd IPv4 notations (`127.1`,
 * `0x7f.1`, `2130706433`, `017700000001`).
 */
import ipaddr from 'ipaddr.js';

/** What an address is, for the guard: `public` is the only kind allowed by default. */
export type AddressKind =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'carrier-grade-nat'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'benchmarking'
  | 'reserved'
  | 'unique-local'
  | 'site-local';

/** How an IPv6 address carries an IPv4 one; the embedded address is classified in its place. */
export type Embedding = 'IPv4-mapped' | 'IPv4-translated' | 'NAT64' | '6to4';

export interface AddressClass {
  /** The address in canonical form (`127.0.0.1`, `::ffff:7f00:1`). */
  address: string;
  kind: AddressKind;
  /** The range that matched, e.g. `127.0.0.0/8`; null for public addresses. */
  range: string | null;
  /** Set when the kind comes from an IPv4 address embedded in this IPv6 one. */
  embedded?: { via: Embedding; address: string };
}

type Range = readonly [cidr: string, kind: Exclude<AddressKind, 'public'>];

/** IPv4 special-purpose ranges, most specific first where they overlap. */
const ipv4Ranges: readonly Range[] = [
  ['255.255.255.255/32', 'broadcast'],
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'carrier-grade-nat'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'],
  ['192.0.2.0/24', 'documentation'],
  ['192.31.196.0/24', 'reserved'],
  ['192.52.193.0/24', 'reserved'],
  ['192.88.99.0/24', 'reserved'],
  ['192.168.0.0/16', 'private'],
  ['192.175.48.0/24', 'reserved'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
];

/** IPv6 special-purpose ranges; the embedding ranges below are checked before these. */
const ipv6Ranges: readonly Range[] = [
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['64:ff9b:1::/48', 'private'],
  ['::/8', 'reserved'],
  ['100::/64', 'reserved'],
  ['2001:db8::/32', 'documentation'],
  ['2001:2::/48', 'benchmarking'],
  ['2001::/23', 'reserved'],
  ['3fff::/20', 'documentation'],
  ['5f00::/16', 'reserved'],
  ['fc00::/7', 'unique-local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local'],
  ['ff00::/8', 'multicast'],
];

/** IPv6 ranges that embed an IPv4 address, and where its four bytes sit. */
const embeddings: readonly { cidr: string; via: Embedding; byteOffset: number }[] = [
  { cidr: '::ffff:0:0/96', via: 'IPv4-mapped', byteOffset: 12 },
  { cidr: '::ffff:0:0:0/96', via: 'IPv4-translated', byteOffset: 12 },
  { cidr: '64:ff9b::/96', via: 'NAT64', byteOffset: 12 },
  { cidr: '2002::/16', via: '6to4', byteOffset: 2 },
];

type Parsed<T> = { cidr: string; prefix: [ipaddr.IPv4 | ipaddr.IPv6, number] } & T;

const parseTable = <T extends object>(rows: readonly (T & { cidr: string })[]): Parsed<T>[] =>
  rows.map((row) => ({ ...row, prefix: ipaddr.parseCIDR(row.cidr) }));

const tables = {
  ipv4: parseTable(ipv4Ranges.map(([cidr, kind]) => ({ cidr, kind }))),
  ipv6: parseTable(ipv6Ranges.map(([cidr, kind]) => ({ cidr, kind }))),
  embeddings: parseTable(embeddings),
};

/** Words for an error message: "127.0.0.1, a loopback address". */
export const kindDescriptions: Record<AddressKind, string> = {
  public: 'a public address',
  unspecified: 'an unspecified address',
  loopback: 'a loopback address',
  private: 'a private address',
  'link-local': 'a link-local address',
  'carrier-grade-nat': 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  documentation: 'a documentation address',
  benchmarking: 'a benchmarking address',
  reserved: 'a reserved address',
  'unique-local': 'a unique-local address',
  'site-local': 'a site-local address',
};

/**
 * Parses an IP address in any notation WHATWG URL or inet_aton accept (`127.1`, `0x7f.1`,
 * `2130706433`, `[::1]`). Returns null for anything that is not an IP address (a host name).
 */
export function parseAddress(input: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = input.startsWith('[') && input.endsWith(']') ? input.slice(1, -1) : input;
  if (!ipaddr.isValid(bare)) return null;
  return ipaddr.parse(bare);
}

function classifyParsed(address: ipaddr.IPv4 | ipaddr.IPv6): AddressClass {
  const canonical = address.toString();
  if (address.kind() === 'ipv6') {
    const embedding = tables.embeddings.find((row) => address.match(row.prefix));
    if (embedding) {
      const bytes = address.toByteArray().slice(embedding.byteOffset, embedding.byteOffset + 4);
      const inner = classifyParsed(ipaddr.fromByteArray(bytes));
      return { ...inner, address: canonical, embedded: { via: embedding.via, address: inner.address } };
    }
  }
  const table = address.kind() === 'ipv4' ? tables.ipv4 : tables.ipv6;
  const row = table.find((candidate) => address.match(candidate.prefix));
  return row ? { address: canonical, kind: row.kind, range: row.cidr } : { address: canonical, kind: 'public', range: null };
}

/**
 * Classifies an IP address: `public`, or the special-purpose range it falls in. IPv6 addresses
 * that embed an IPv4 address (IPv4-mapped `::ffff:127.0.0.1`, NAT64 `64:ff9b::/96`, 6to4
 * `2002::/16`) take the class of the embedded address. Pure; throws a TypeError when `ip` is not
 * an IP address.
 */
export function classifyAddress(ip: string): AddressClass {
  const address = parseAddress(ip);
  if (!address) throw new TypeError(`classifyAddress expects an IP address; got "${ip}"`);
  return classifyParsed(address);
}

/**
 * Words for messages: "127.0.0.1, a loopback address", or with `joiner` ' is ' "::ffff:7f00:1
 * (IPv4-mapped 127.0.0.1) is a loopback address".
 */
export function describeAddress(addressClass: AddressClass, joiner = ', '): string {
  const via = addressClass.embedded ? ` (${addressClass.embedded.via} ${addressClass.embedded.address})` : '';
  return `${addressClass.address}${via}${joiner}${kindDescriptions[addressClass.kind]}`;
}

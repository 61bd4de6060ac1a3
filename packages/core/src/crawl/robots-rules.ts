import type { QuarryError } from '../errors.js';

/**
 * robots.txt per RFC 9309: groups by product token, longest match wins (ties allow), `*` and `$`
 * wildcards, percent-encoding normalised, `/robots.txt` always allowed. Pure: the caller fetches.
 */
export interface RobotsRules {
  /**
   * Whether a crawler with any of the parsed tokens may fetch the URL. Only the path and query are
   * compared: the caller applies the rules to URLs of the origin the robots.txt came from. A string
   * that is not an absolute URL is read as a path.
   */
  isAllowed(url: string | URL): boolean;
  /** `Crawl-delay` of the selected groups (the largest when several tokens select different groups). */
  crawlDelaySeconds: number | undefined;
  /** Absolute http(s) `Sitemap:` URLs, wherever they stand in the file, deduplicated, in order. */
  sitemaps: string[];
  /**
   * True when robots.txt could not be read (5xx, 429, unreachable): RFC 9309 §2.3.1.4 says assume
   * complete disallow, so a crawl fetches nothing of the origin, its start page and sitemaps included.
   */
  isUnavailable?: boolean;
  /**
   * Why robots.txt could not be read when the origin itself cannot be reached or may not be
   * fetched (a name that does not resolve, a closed port, a refused address, a TLS failure): the crawl's reason.
   */
  unreachable?: QuarryError;
}

/** RFC 9309 §2.5: crawlers must parse at least 500 KiB; the rest is ignored. */
export const maxRobotsBytes = 500 * 1024;

interface Rule {
  allow: boolean;
  /** Pattern octets after normalisation, wildcards included: the specificity of the rule. */
  length: number;
  /** Literal pieces between `*` wildcards. */
  pieces: string[];
  /** The pattern ended with `$`: the path must end where the pattern ends. */
  anchored: boolean;
}

interface Group {
  agents: string[];
  rules: Rule[];
  crawlDelay: number | undefined;
}

type Directive = 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'crawl-delay';

/** Directive names, with the misspellings that real files carry (the same ones Google accepts). */
const directives: Record<string, Directive> = {
  'user-agent': 'user-agent',
  useragent: 'user-agent',
  'user agent': 'user-agent',
  allow: 'allow',
  disallow: 'disallow',
  dissallow: 'disallow',
  dissalow: 'disallow',
  disalow: 'disallow',
  diasllow: 'disallow',
  disallaw: 'disallow',
  sitemap: 'sitemap',
  'site-map': 'sitemap',
  'crawl-delay': 'crawl-delay',
  crawldelay: 'crawl-delay',
  'crawl delay': 'crawl-delay',
};

/**
 * Parses robots.txt for a crawler that answers to any of `userAgent`'s product tokens (e.g. the
 * configured token plus `FirecrawlAgent`): the groups that name any of the tokens are used (a URL
 * is allowed when any of those allows it); only when no group names a token does `*` apply.
 * Tolerates a BOM, CRLF, comments, garbage lines, missing spaces after colons and bytes that are
 * not UTF-8 (decoded with U+FFFD). Reads the first {@link maxRobotsBytes} and ignores the rest.
 * Never throws.
 */
export function parseRobotsTxt(text: string | Uint8Array, userAgent: string | string[]): RobotsRules {
  const body = typeof text === 'string' ? text.slice(0, maxRobotsBytes) : new TextDecoder().decode(text.subarray(0, maxRobotsBytes));
  const { groups, sitemaps } = parseRecords(body);
  const tokens = (Array.isArray(userAgent) ? userAgent : [userAgent]).map(productToken).filter((token) => token !== '*' && token !== '');
  // Tokens that a group names speak for the crawler; the `*` group applies only when no token is
  // named, so a site that singles out our token is obeyed even though `*` would allow the others.
  const named = tokens.filter((token) => groups.some((group) => group.agents.includes(token)));
  const selections = (named.length > 0 ? named : tokens.length > 0 ? tokens.slice(0, 1) : ['*']).map((token) => selectGroups(groups, token));
  const rulesets = selections.map((selected) => sortRules(selected.flatMap((group) => group.rules)));
  const delays = selections.flat().flatMap((group) => (group.crawlDelay === undefined ? [] : [group.crawlDelay]));
  return {
    isAllowed: (url) => {
      const path = pathOf(url);
      return path === '/robots.txt' || rulesets.some((rules) => isPathAllowed(rules, path));
    },
    crawlDelaySeconds: delays.length > 0 ? Math.max(...delays) : undefined,
    sitemaps,
  };
}

/**
 * Rules that a robots.txt fetch status implies on its own (RFC 9309 §2.3.1): 4xx "unavailable"
 * allows everything; 5xx "unreachable" and 429 (as Google treats it) disallow everything; any
 * other status returns null, meaning "parse the body".
 */
export function robotsRulesFromStatus(status: number): RobotsRules | null {
  if (status === 429 || (status >= 500 && status <= 599)) return fixedRules(false);
  if (status >= 400 && status <= 499) return fixedRules(true);
  return null;
}

function fixedRules(allowed: boolean): RobotsRules {
  return {
    isAllowed: (url) => allowed || pathOf(url) === '/robots.txt',
    crawlDelaySeconds: undefined,
    sitemaps: [],
    ...(allowed ? {} : { isUnavailable: true }),
  };
}

function parseRecords(body: string): { groups: Group[]; sitemaps: string[] } {
  const groups: Group[] = [];
  const sitemaps = new Set<string>();
  let current: Group | undefined;
  let isCollectingAgents = false;
  for (const rawLine of body.replace(/^\ufeff/, '').split(/\r\n|\r|\n/)) {
    const record = parseLine(rawLine);
    if (!record) continue;
    const { directive, value } = record;
    if (directive === 'sitemap') {
      const url = absoluteHttpUrl(value);
      if (url) sitemaps.add(url);
    } else if (directive === 'user-agent') {
      if (!isCollectingAgents || !current) groups.push((current = { agents: [], rules: [], crawlDelay: undefined }));
      current.agents.push(productToken(value));
      isCollectingAgents = true;
    } else if (current) {
      isCollectingAgents = false;
      if (directive === 'crawl-delay') current.crawlDelay = parseDelay(value) ?? current.crawlDelay;
      else if (value !== '') current.rules.push(compileRule(directive === 'allow', value));
    }
  }
  return { groups, sitemaps: [...sitemaps] };
}

/** `key: value` (or `key value` for a known key), comments removed; null for anything else. */
function parseLine(line: string): { directive: Directive; value: string } | null {
  const content = line.replace(/#.*$/, '').trim();
  const match = /^([A-Za-z][A-Za-z -]*?)\s*:\s*(.*)$/.exec(content) ?? /^([A-Za-z-]+)\s+(\S.*)$/.exec(content);
  const directive = match ? directives[(match[1] ?? '').toLowerCase()] : undefined;
  return directive && match ? { directive, value: (match[2] ?? '').trim() } : null;
}

/** The product token of a user-agent value (`Googlebot/2.1` -> `googlebot`), `*`, or empty. */
function productToken(value: string): string {
  const trimmed = value.trim();
  if (trimmed.startsWith('*')) return '*';
  return (/^[A-Za-z_-]+/.exec(trimmed)?.[0] ?? '').toLowerCase();
}

/** The groups naming the token, else the `*` groups, merged (RFC 9309 §2.2.1). */
function selectGroups(groups: ReadonlyArray<Group>, token: string): Group[] {
  const named = groups.filter((group) => group.agents.includes(token));
  return named.length > 0 ? named : groups.filter((group) => group.agents.includes('*'));
}

function parseDelay(value: string): number | undefined {
  const seconds = Number(value);
  return value !== '' && Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

function absoluteHttpUrl(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function compileRule(allow: boolean, pattern: string): Rule {
  const normalized = normalizeEncoding(pattern);
  const anchored = normalized.endsWith('$');
  const pieces = (anchored ? normalized.slice(0, -1) : normalized).split(/\*+/);
  // After normalisation the pattern is ASCII, so its length is its length in octets.
  return { allow, length: normalized.length, pieces, anchored };
}

/** Longest pattern first; at equal length Allow first, so the first match decides. */
function sortRules(rules: Rule[]): Rule[] {
  return [...rules].sort((a, b) => b.length - a.length || Number(b.allow) - Number(a.allow));
}

function isPathAllowed(rules: ReadonlyArray<Rule>, path: string): boolean {
  return rules.find((rule) => matches(rule, path))?.allow ?? true;
}

/**
 * Linear wildcard match: the first piece is a prefix, each later piece is found leftmost after the
 * previous one (leftmost is always safe for `*`), and an anchored pattern's last piece must end
 * the path. No backtracking, so hostile patterns cannot blow up.
 */
function matches(rule: Rule, path: string): boolean {
  const { pieces, anchored } = rule;
  const first = pieces[0] ?? '';
  if (!path.startsWith(first)) return false;
  if (pieces.length === 1) return !anchored || path.length === first.length;
  const last = pieces[pieces.length - 1] ?? '';
  const end = anchored ? path.length - last.length : path.length;
  if (end < first.length) return false;
  let position = first.length;
  for (let index = 1; index < pieces.length - 1; index++) {
    const piece = pieces[index] ?? '';
    const found = path.indexOf(piece, position);
    if (found === -1 || found + piece.length > end) return false;
    position = found + piece.length;
  }
  return anchored ? position <= end && path.endsWith(last) : path.indexOf(last, position) !== -1;
}

/** Path and query of a URL, normalised like the patterns. */
function pathOf(url: string | URL): string {
  let path: string;
  try {
    const parsed = typeof url === 'string' ? new URL(url) : url;
    path = `${parsed.pathname}${parsed.search}`;
  } catch {
    path = String(url).replace(/#.*$/, '');
  }
  return normalizeEncoding(path.startsWith('/') ? path : `/${path}`);
}

const unreserved = /[A-Za-z0-9\-._~]/;
const utf8 = new TextEncoder();

/**
 * RFC 9309 §2.2.2 comparison form: non-ASCII (and what a URL never carries raw: space, controls,
 * `"<>\`{}`) as UTF-8 percent-escapes, escapes of unreserved characters decoded (`%62` -> `b`),
 * other escapes upper-cased (`%e3` -> `%E3`).
 */
function normalizeEncoding(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})|[^\x21-\x7e]+|["<>`{}]/g, (match, hex: string | undefined) => {
    if (hex !== undefined) {
      const character = String.fromCharCode(parseInt(hex, 16));
      return unreserved.test(character) ? character : `%${hex.toUpperCase()}`;
    }
    return Array.from(utf8.encode(match), (byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  });
}

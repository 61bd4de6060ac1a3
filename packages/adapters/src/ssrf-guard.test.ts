import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { SsrfGuard, type Resolver } from './ssrf-guard.js';

/** A resolver over a fixed table, counting calls. */
function tableResolver(table: Record<string, string[]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string): Promise<LookupAddress[]> => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
}

const lookupAsync = (guard: SsrfGuard, hostname: string, options: { all?: boolean; family?: number }) =>
  new Promise<{ error: unknown; address: unknown; family: unknown }>((resolve) =>
    guard.lookup(hostname, options as never, (error, address, family) => resolve({ error, address, family })),
  );

describe('SsrfGuard.checkUrl', () => {
  const guard = new SsrfGuard();

  it.each(['file:///etc/passwd', 'ftp://example.com/file', 'data:text/html,<p>hi</p>', 'gopher://example.com/', 'javascript:alert(1)'])(
    'refuses %s: only http and https',
    (url) => {
      expect(() => guard.checkUrl(new URL(url))).toThrow(/only http: and https: URLs can be fetched/);
      expect(() => guard.checkUrl(new URL(url))).toThrow(expect.objectContaining({ name: 'TargetError', kind: 'ssrf' }));
    },
  );

  it.each([
    ['http://127.0.0.1/', '127.0.0.1 is a loopback address'],
    ['http://127.1/', '127.0.0.1 is a loopback address'],
    ['http://0x7f.1/', '127.0.0.1 is a loopback address'],
    ['http://2130706433/', '127.0.0.1 is a loopback address'],
    ['http://017700000001/', '127.0.0.1 is a loopback address'],
    ['http://0/', '0.0.0.0 is an unspecified address'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a link-local address'],
    ['https://10.0.0.1:8443/', '10.0.0.1 is a private address'],
    ['http://[::1]:8080/', '::1 is a loopback address'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1 (IPv4-mapped 127.0.0.1) is a loopback address'],
    ['http://[64:ff9b::a9fe:a9fe]/', '64:ff9b::a9fe:a9fe (NAT64 169.254.169.254) is a link-local address'],
    ['http://[fd00::1]/', 'fd00::1 is a unique-local address'],
  ])('refuses %s', (url, reason) => {
    const host = new URL(url).host;
    expect(() => guard.checkUrl(new URL(url))).toThrow(
      `Refused to connect to ${host}: ${reason}; allow it with the \`allowPrivateHosts\` option (host names, IPs or CIDRs)`,
    );
  });

  it('lets host names through (they are checked when resolved) and allowed literals', () => {
    expect(() => guard.checkUrl(new URL('http://example.com/'))).not.toThrow();
    expect(() => new SsrfGuard({ allowPrivateHosts: ['127.0.0.1'] }).checkUrl(new URL('http://a.localhost/'))).not.toThrow();
    expect(() => guard.checkUrl(new URL('https://8.8.8.8/'))).not.toThrow();
    expect(() => new SsrfGuard({ allowPrivateHosts: ['127.0.0.0/8'] }).checkUrl(new URL('http://127.1/'))).not.toThrow();
    expect(() => new SsrfGuard({ allowPrivateHosts: ['::1'] }).checkUrl(new URL('http://[::1]/'))).not.toThrow();
  });

  it('remembers only what passed, per guard: refusals and other schemes are checked again every time', () => {
    const allowing = new SsrfGuard({ allowPrivateHosts: ['127.0.0.1'] });
    for (let round = 0; round < 3; round++) {
      expect(() => allowing.checkUrl(new URL('http://127.0.0.1:8080/a'))).not.toThrow();
      expect(() => allowing.checkUrl(new URL('https://127.0.0.1/b'))).not.toThrow();
      expect(() => allowing.checkUrl(new URL('ftp://127.0.0.1/'))).toThrow(/only http: and https:/);
      expect(() => allowing.checkUrl(new URL('http://10.0.0.1/'))).toThrow(/10\.0\.0\.1 is a private address/);
      expect(() => guard.checkUrl(new URL('http://127.0.0.1:8080/a'))).toThrow(/127\.0\.0\.1 is a loopback address/);
    }
  });

  it('refuses localhost and every name under it as loopback without resolving them (RFC 6761)', () => {
    for (const url of ['http://localhost/', 'http://a.localhost/', 'http://x.y.LOCALHOST./']) {
      expect(() => guard.checkUrl(new URL(url)), url).toThrow(/it resolves to 127\.0\.0\.1, a loopback address/);
    }
  });

  it('puts host, address and kind in the details', () => {
    try {
      guard.checkUrl(new URL('http://127.0.0.1:9/'));
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ details: { kind: 'ssrf', host: '127.0.0.1:9', address: '127.0.0.1', addressKind: 'loopback', range: '127.0.0.0/8' } });
    }
  });
});

describe('SsrfGuard.resolve and lookup', () => {
  const resolver = tableResolver({
    'public.test': ['93.184.216.34'],
    'mixed.test': ['10.0.0.7', '93.184.216.34'],
    'private.test': ['10.0.0.7', 'fd00::7'],
    'dual.test': ['93.184.216.34', '2606:2800:220:1::1'],
    localhost: ['127.0.0.1', '::1'],
  });
  const guard = new SsrfGuard({ resolve: resolver });

  it('returns public addresses', async () => {
    await expect(guard.resolve('public.test')).resolves.toEqual([{ address: '93.184.216.34', family: 4 }]);
  });

  it('drops refused addresses and keeps the allowed ones', async () => {
    await expect(guard.resolve('mixed.test')).resolves.toEqual([{ address: '93.184.216.34', family: 4 }]);
  });

  it('refuses a name with no allowed address, naming host, address and reason', async () => {
    await expect(guard.resolve('localhost')).rejects.toThrow(
      'Refused to connect to localhost: it resolves to 127.0.0.1, a loopback address; allow it with the `allowPrivateHosts` option (host names, IPs or CIDRs)',
    );
    await expect(guard.resolve('private.test')).rejects.toMatchObject({
      name: 'TargetError',
      kind: 'ssrf',
      details: { address: '10.0.0.7', addressKind: 'private' },
    });
  });

  it('passes DNS failures through', async () => {
    await expect(guard.resolve('missing.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('allows by host name, CIDR or *', async () => {
    const byName = new SsrfGuard({ resolve: resolver, allowPrivateHosts: ['localhost'] });
    await expect(byName.resolve('localhost')).resolves.toHaveLength(2);
    const byRange = new SsrfGuard({ resolve: resolver, allowPrivateHosts: ['fd00::/8'] });
    await expect(byRange.resolve('private.test')).resolves.toEqual([{ address: 'fd00::7', family: 6 }]);
    const all = new SsrfGuard({ resolve: resolver, allowPrivateHosts: ['*'] });
    await expect(all.resolve('private.test')).resolves.toHaveLength(2);
  });

  it('answers like dns.lookup: one address, all of them, or one family', async () => {
    await expect(lookupAsync(guard, 'dual.test', {})).resolves.toEqual({ error: null, address: '93.184.216.34', family: 4 });
    await expect(lookupAsync(guard, 'dual.test', { all: true })).resolves.toEqual({
      error: null,
      address: [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1::1', family: 6 },
      ],
      family: undefined,
    });
    await expect(lookupAsync(guard, 'dual.test', { family: 6 })).resolves.toMatchObject({ address: '2606:2800:220:1::1', family: 6 });
    const refused = await lookupAsync(guard, 'localhost', { all: true });
    expect(refused.error).toMatchObject({ name: 'TargetError', kind: 'ssrf' });
  });

  it('resolves once per lookup', async () => {
    const counting = tableResolver({ 'once.test': ['93.184.216.34'] });
    await lookupAsync(new SsrfGuard({ resolve: counting }), 'once.test', { all: true });
    expect(counting.calls).toEqual(['once.test']);
  });
});

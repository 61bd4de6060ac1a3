import { describe, expect, it } from 'vitest';
import { isAllowedByList, parseAllowList } from './allow-list.js';

describe('parseAllowList', () => {
  it('sorts entries into names, suffixes, ranges and *', () => {
    const list = parseAllowList(['Intranet.Example.', '*.svc.cluster.local', '10.0.0.0/8', '::1', ' ', '127.1']);
    expect(list.allowsAll).toBe(false);
    expect([...list.hostnames]).toEqual(['intranet.example']);
    expect(list.suffixes).toEqual(['.svc.cluster.local']);
    expect(list.ranges.map(([address, bits]) => `${address.toString()}/${bits}`)).toEqual(['10.0.0.0/8', '::1/128', '127.0.0.1/32']);
    expect(parseAllowList(['*']).allowsAll).toBe(true);
  });

  it.each(['10.0.0.0/33', 'fd00::/129', '10.0.0.0/x', 'not a host/8', 'exa mple.com', 'http://x:y'])('rejects %s with a ValidationError', (entry) => {
    expect(() => parseAllowList([entry])).toThrow(`allowPrivateHosts entry "${entry}" is not a host name, an IP address, a CIDR range or "*"`);
  });
});

describe('isAllowedByList', () => {
  const list = parseAllowList(['localhost', '*.internal.test', '10.1.0.0/16', '127.0.0.1', 'fd00::/8', '[::1]']);

  it.each([
    [{ hostname: 'localhost', address: '127.0.0.5' }, true],
    [{ hostname: 'LOCALHOST.', address: '10.9.9.9' }, true],
    [{ hostname: 'api.internal.test', address: '10.9.9.9' }, true],
    [{ hostname: 'internal.test', address: '10.9.9.9' }, false],
    [{ hostname: 'evil.test', address: '10.1.2.3' }, true],
    [{ hostname: 'evil.test', address: '10.2.0.1' }, false],
    [{ hostname: 'evil.test', address: '127.0.0.1' }, true],
    [{ hostname: 'evil.test', address: '127.0.0.2' }, false],
    [{ hostname: 'evil.test', address: '::ffff:127.0.0.1' }, true],
    [{ hostname: 'evil.test', address: 'fd12::1' }, true],
    [{ hostname: 'evil.test', address: 'fe80::1' }, false],
    [{ hostname: 'evil.test', address: '::1' }, true],
    [{ address: '10.1.255.255' }, true],
    [{ hostname: 'localhost' }, true],
    [{}, false],
  ])('%j -> %s', (target, expected) => {
    expect(isAllowedByList(list, target)).toBe(expected);
  });

  it('accepts a plain list of entries and * allows everything', () => {
    expect(isAllowedByList(['192.168.0.0/16'], { address: '192.168.3.4' })).toBe(true);
    expect(isAllowedByList(['*'], { hostname: 'anything', address: '169.254.169.254' })).toBe(true);
    expect(isAllowedByList([], { hostname: 'localhost', address: '127.0.0.1' })).toBe(false);
  });

  it('matches IPv6 CIDRs only against IPv6 addresses and IPv4 CIDRs against IPv4 (and IPv4-mapped)', () => {
    expect(isAllowedByList(['::/0'], { address: '10.0.0.1' })).toBe(false);
    expect(isAllowedByList(['0.0.0.0/0'], { address: 'fd00::1' })).toBe(false);
    expect(isAllowedByList(['0.0.0.0/0'], { address: '::ffff:10.0.0.1' })).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { classifyAddress, describeAddress } from './ip-ranges.js';

describe('classifyAddress', () => {
  it.each([
    // IPv4 special-purpose ranges
    ['0.0.0.0', 'unspecified', '0.0.0.0/8'],
    ['0.1.2.3', 'unspecified', '0.0.0.0/8'],
    ['10.0.0.1', 'private', '10.0.0.0/8'],
    ['10.255.255.255', 'private', '10.0.0.0/8'],
    ['100.64.0.1', 'carrier-grade-nat', '100.64.0.0/10'],
    ['100.127.255.254', 'carrier-grade-nat', '100.64.0.0/10'],
    ['127.0.0.1', 'loopback', '127.0.0.0/8'],
    ['127.255.0.9', 'loopback', '127.0.0.0/8'],
    ['169.254.169.254', 'link-local', '169.254.0.0/16'],
    ['172.16.0.1', 'private', '172.16.0.0/12'],
    ['172.31.255.255', 'private', '172.16.0.0/12'],
    ['192.0.0.8', 'reserved', '192.0.0.0/24'],
    ['192.0.2.10', 'documentation', '192.0.2.0/24'],
    ['192.88.99.1', 'reserved', '192.88.99.0/24'],
    ['192.168.1.1', 'private', '192.168.0.0/16'],
    ['198.18.0.1', 'benchmarking', '198.18.0.0/15'],
    ['198.19.255.255', 'benchmarking', '198.18.0.0/15'],
    ['198.51.100.7', 'documentation', '198.51.100.0/24'],
    ['203.0.113.9', 'documentation', '203.0.113.0/24'],
    ['224.0.0.1', 'multicast', '224.0.0.0/4'],
    ['239.255.255.250', 'multicast', '224.0.0.0/4'],
    ['240.0.0.1', 'reserved', '240.0.0.0/4'],
    ['255.255.255.255', 'broadcast', '255.255.255.255/32'],
    // IPv6 special-purpose ranges
    ['::', 'unspecified', '::/128'],
    ['::1', 'loopback', '::1/128'],
    ['[::1]', 'loopback', '::1/128'],
    ['0:0:0:0:0:0:0:1', 'loopback', '::1/128'],
    ['fe80::1', 'link-local', 'fe80::/10'],
    ['febf::1', 'link-local', 'fe80::/10'],
    ['fc00::1', 'unique-local', 'fc00::/7'],
    ['fd12:3456:789a::1', 'unique-local', 'fc00::/7'],
    ['fec0::1', 'site-local', 'fec0::/10'],
    ['ff02::1', 'multicast', 'ff00::/8'],
    ['2001:db8::1', 'documentation', '2001:db8::/32'],
    ['3fff::1', 'documentation', '3fff::/20'],
    ['2001:2::1', 'benchmarking', '2001:2::/48'],
    ['2001::1', 'reserved', '2001::/23'],
    ['100::1', 'reserved', '100::/64'],
    ['::7f00:1', 'reserved', '::/8'],
    ['64:ff9b:1::1', 'private', '64:ff9b:1::/48'],
    ['5f00::1', 'reserved', '5f00::/16'],
  ])('%s is %s (%s)', (address, kind, range) => {
    expect(classifyAddress(address)).toMatchObject({ kind, range });
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001::200e'])('%s is public', (address) => {
    expect(classifyAddress(address)).toEqual({ address, kind: 'public', range: null });
  });

  describe('odd IPv4 notations', () => {
    it.each(['127.1', '0x7f.1', '0x7f000001', '2130706433', '017700000001', '0177.0.0.1', '127.0.1'])('%s is loopback 127.0.0.1', (notation) => {
      expect(classifyAddress(notation)).toMatchObject({ address: '127.0.0.1', kind: 'loopback' });
    });

    it('agrees with WHATWG URL, which normalises the same notations before the guard sees them', () => {
      for (const notation of ['127.1', '0x7f.1', '2130706433', '017700000001', '127.0.0.1.', '0177.0.0.1']) {
        expect(new URL(`http://${notation}/`).hostname).toBe('127.0.0.1');
      }
      expect(new URL('http://0/').hostname).toBe('0.0.0.0');
      expect(classifyAddress(new URL('http://0/').hostname).kind).toBe('unspecified');
    });
  });

  describe('IPv6 addresses that embed IPv4', () => {
    it.each([
      ['::ffff:127.0.0.1', 'IPv4-mapped', '127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'IPv4-mapped', '127.0.0.1', 'loopback'],
      ['[::ffff:10.0.0.1]', 'IPv4-mapped', '10.0.0.1', 'private'],
      ['::ffff:0:169.254.169.254', 'IPv4-translated', '169.254.169.254', 'link-local'],
      ['64:ff9b::192.168.0.1', 'NAT64', '192.168.0.1', 'private'],
      ['64:ff9b::7f00:1', 'NAT64', '127.0.0.1', 'loopback'],
      ['2002:7f00:1::', '6to4', '127.0.0.1', 'loopback'],
      ['2002:a9fe:a9fe::1', '6to4', '169.254.169.254', 'link-local'],
    ])('%s is %s %s, %s', (address, via, embedded, kind) => {
      expect(classifyAddress(address)).toMatchObject({ kind, embedded: { via, address: embedded } });
    });

    it.each(['::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])('%s embeds a public address and is public', (address) => {
      expect(classifyAddress(address).kind).toBe('public');
    });
  });

  it('throws for something that is not an IP address', () => {
    expect(() => classifyAddress('localhost')).toThrow(TypeError);
    expect(() => classifyAddress('example.com')).toThrow('expects an IP address; got "example.com"');
  });
});

describe('describeAddress', () => {
  it('says what the address is, and through which embedding', () => {
    expect(describeAddress(classifyAddress('127.0.0.1'))).toBe('127.0.0.1, a loopback address');
    expect(describeAddress(classifyAddress('::ffff:127.0.0.1'), ' is ')).toBe('::ffff:7f00:1 (IPv4-mapped 127.0.0.1) is a loopback address');
  });
});

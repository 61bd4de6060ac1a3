import { describe, expect, it } from 'vitest';
import { NotAvailableError, TargetError } from '../errors.js';
import { isRefusedThroughProxy, ProxyPools } from './proxy-pools.js';

describe('ProxyPools', () => {
  it('uses each proxy of a pool in turn', () => {
    const pools = new ProxyPools({ basic: ['http://a:1', 'http://b:2'], enhanced: [] });
    expect([pools.next('basic'), pools.next('basic'), pools.next('basic')]).toEqual(['http://a:1', 'http://b:2', 'http://a:1']);
    expect(pools.next('enhanced')).toBeUndefined();
  });

  it('plans basic alone, auto with the enhanced pool only when there is one, enhanced or a clear refusal', () => {
    const none = new ProxyPools();
    expect(none.plan('basic')).toEqual(['basic']);
    expect(none.plan('auto')).toEqual(['basic']);
    expect(() => none.plan('enhanced')).toThrow(NotAvailableError);
    expect(() => none.plan('stealth')).toThrow(/QUARRY_PROXY_ENHANCED/);
    const both = new ProxyPools({ basic: [], enhanced: ['http://e:1'] });
    expect(both.plan('auto')).toEqual(['basic', 'enhanced']);
    expect(both.plan('stealth')).toEqual(['enhanced']);
  });

  it('moves on after 401, 403, 429 and bot-protection pages only', () => {
    expect([401, 403, 429].map((status) => isRefusedThroughProxy({ status }))).toEqual([true, true, true]);
    expect([200, 404, 500].map((status) => isRefusedThroughProxy({ status }))).toEqual([false, false, false]);
    expect(isRefusedThroughProxy(new TargetError('blocked', 'challenge'))).toBe(true);
    expect(isRefusedThroughProxy(new TargetError('dns', 'no such host'))).toBe(false);
  });
});

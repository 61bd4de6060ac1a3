import { describe, expect, it } from 'vitest';
import { HopCookies, hopHeaders, redirectTarget } from './redirect-hops.js';

describe('redirectTarget', () => {
  const current = new URL('https://example.com/a/b?x=1');

  it.each([301, 302, 303, 307, 308])('follows %i with a Location, resolved against the current URL', (status) => {
    expect(redirectTarget(status, '../c', current)?.href).toBe('https://example.com/c');
  });

  it('keeps absolute and scheme-relative locations', () => {
    expect(redirectTarget(302, 'http://other.test/x', current)?.href).toBe('http://other.test/x');
    expect(redirectTarget(302, '//cdn.test/y', current)?.href).toBe('https://cdn.test/y');
  });

  it('treats other statuses and a missing Location as final', () => {
    expect(redirectTarget(200, '/x', current)).toBeNull();
    expect(redirectTarget(304, '/x', current)).toBeNull();
    expect(redirectTarget(302, undefined, current)).toBeNull();
    expect(redirectTarget(302, 'http://[bad', current)).toBeNull();
  });
});

describe('hopHeaders', () => {
  const first = new URL('https://www.example.com/start');
  const caller = { Cookie: 'session=1', Authorization: 'Bearer t', 'X-Custom': 'yes' };

  it('keeps credentials on the same origin', () => {
    for (const hop of ['https://www.example.com/next', 'https://www.example.com:443/other?x=1']) {
      expect(hopHeaders(caller, first, new URL(hop), new HopCookies())).toEqual({ cookie: 'session=1', authorization: 'Bearer t', 'x-custom': 'yes' });
    }
  });

  it('drops cookie, authorization and proxy-authorization on every hop to another origin', () => {
    const withProxy = { ...caller, 'Proxy-Authorization': 'Basic eA==' };
    for (const hop of [
      'https://tracker.test/',
      'https://notexample.com/',
      'https://example.com/', // another host, even without www
      'https://login.www.example.com/', // a subdomain
      'https://www.example.com:8443/', // another port
      'http://www.example.com/', // https -> http on the same host
    ]) {
      expect(hopHeaders(withProxy, first, new URL(hop), new HopCookies()), hop).toEqual({ 'x-custom': 'yes' });
    }
  });

  it('drops connection-level headers the client owns', () => {
    const headers = { Host: 'evil.test', Connection: 'close', 'Transfer-Encoding': 'chunked', 'Content-Length': '5', TE: 'trailers', Accept: 'text/html' };
    expect(hopHeaders(headers, first, first, new HopCookies())).toEqual({ accept: 'text/html' });
  });

  it('sends back cookies that earlier hops set for the same host only', () => {
    const cookies = new HopCookies();
    cookies.remember(new URL('https://www.example.com/start'), ['check=ok; Path=/; HttpOnly', 'gone=1', 'gone=; Max-Age=0']);
    expect(hopHeaders(caller, first, new URL('https://www.example.com/next'), cookies).cookie).toBe('session=1; check=ok');
    expect(hopHeaders({}, first, new URL('https://www.example.com/next'), cookies).cookie).toBe('check=ok');
    expect(hopHeaders({}, first, new URL('https://other.test/'), cookies).cookie).toBeUndefined();
  });
});

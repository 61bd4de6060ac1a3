import type { IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ResponseHeaders } from './response-headers.js';

/** What node's own `Headers` makes of the same response head: the reference for every read. */
function standardOf(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const name in raw) {
    const value = raw[name];
    if (value === undefined || name.startsWith(':')) continue;
    for (const item of typeof value === 'string' ? [value] : value) headers.append(name, item);
  }
  return headers;
}

const head: IncomingHttpHeaders = {
  ':status': '200',
  'content-type': 'text/html; charset=utf-8',
  'set-cookie': ['b=2; Path=/', 'a=1; Path=/'],
  'x-many': ['one', 'two'],
  vary: ' accept-encoding ',
  etag: '"abc"',
  'content-length': undefined,
};

describe('ResponseHeaders', () => {
  it('reads as the standard Headers class does', () => {
    const ours = new ResponseHeaders(head);
    const standard = standardOf(head);
    for (const name of ['content-type', 'Content-Type', 'SET-COOKIE', 'x-many', 'vary', 'etag', 'content-length', ':status', 'missing']) {
      if (name.startsWith(':')) {
        expect(() => ours.get(name)).toThrow(TypeError);
        expect(() => standard.get(name)).toThrow(TypeError);
        continue;
      }
      expect(ours.get(name)).toBe(standard.get(name));
      expect(ours.has(name)).toBe(standard.has(name));
    }
    expect(ours.getSetCookie()).toEqual(standard.getSetCookie());
    expect([...ours]).toEqual([...standard]);
    expect([...ours.keys()]).toEqual([...standard.keys()]);
    expect([...ours.values()]).toEqual([...standard.values()]);
    expect([...ours.entries()]).toEqual([...standard.entries()]);
    const seen: string[] = [];
    ours.forEach(function (this: unknown, value, name, parent) {
      expect(parent).toBe(ours);
      expect(this).toBe(seen);
      seen.push(`${name}=${value}`);
    }, seen);
    expect(seen).toEqual([...standard].map(([name, value]) => `${name}=${value}`));
    expect(Object.prototype.toString.call(ours)).toBe('[object Headers]');
  });

  it('changes as the standard class does, and refuses what it refuses', () => {
    const ours = new ResponseHeaders(head);
    const standard = standardOf(head);
    for (const headers of [ours, standard]) {
      headers.set('X-Many', 'only');
      headers.append('x-new', '\tpadded ');
      headers.delete('ETag');
      headers.append('Set-Cookie', 'c=3');
    }
    expect([...ours]).toEqual([...standard]);
    for (const headers of [ours, standard]) {
      expect(() => headers.append('bad name', 'x')).toThrow(TypeError);
      expect(() => headers.set('x-ok', 'line\nbreak')).toThrow(TypeError);
      expect(() => headers.has('')).toThrow(TypeError);
    }
  });

  it('is copied by the standard class and by Object.fromEntries', () => {
    const ours = new ResponseHeaders(head);
    expect([...new Headers(ours)]).toEqual([...standardOf(head)]);
    expect(new Response('', { headers: ours }).headers.get('x-many')).toBe('one, two');
    expect(Object.fromEntries(ours)['content-type']).toBe('text/html; charset=utf-8');
  });
});

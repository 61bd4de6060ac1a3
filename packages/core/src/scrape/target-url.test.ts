import { describe, expect, it } from 'vitest';
import { parseTargetUrl } from './target-url.js';

describe('parseTargetUrl', () => {
  it('accepts hosts at the DNS limits: labels of 63, names of 253 characters', () => {
    const label = 'a'.repeat(63);
    const host = `${[label, label, label].join('.')}.${'b'.repeat(57)}.com`;
    expect(host).toHaveLength(253);
    expect(parseTargetUrl(`https://${host}/`).hostname).toBe(host);
    expect(parseTargetUrl(`https://${host}./`).hostname).toBe(`${host}.`);
  });

  it('refuses a host no resolver can answer for, naming the field', () => {
    expect(() => parseTargetUrl(`https://${'a'.repeat(64)}.com/`)).toThrow(/`url` must have a host name of at most 253 characters in labels of at most 63/);
    expect(() => parseTargetUrl(`https://${'ab.'.repeat(90)}com/`, 'urls[3]')).toThrow(/`urls\[3\]` must have a host name/);
    // Unicode hosts are measured as punycode, as they are resolved.
    expect(() => parseTargetUrl(`http://${'ü'.repeat(3000)}.test/`)).toThrow(/host name of at most 253/);
  });
});

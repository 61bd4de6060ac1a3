import { describe, expect, it } from 'vitest';
import { chromeHintPattern, layoutChromeHintPattern, weakChromeHintPattern } from './boilerplate-patterns.js';

describe('class-name vocabulary', () => {
  it('reads top and bottom as places only at the start of a class name, not as the side of a box', () => {
    expect(weakChromeHintPattern.test('is-size-5 padding-bottom-2')).toBe(false);
    expect(weakChromeHintPattern.test('figcaption mt-0 border-top')).toBe(false);
    expect(weakChromeHintPattern.test('top-bar')).toBe(true);
    expect(weakChromeHintPattern.test('bottom links')).toBe(true);
  });

  it('treats a bare ad word as a layout name (spared when it reads like an article), other ad names as chrome', () => {
    expect(chromeHintPattern.test('cuerpo-ad')).toBe(false);
    expect(layoutChromeHintPattern.test('cuerpo-ad')).toBe(true);
    expect(chromeHintPattern.test('ad-slot')).toBe(true);
    expect(chromeHintPattern.test('adsbygoogle')).toBe(true);
  });

  it("reads TRUSTe's consent widget by its whole name, not inside a word (rustdoc's impl-TrustedLen-3)", () => {
    expect(chromeHintPattern.test('truste-consent-track')).toBe(true);
    expect(chromeHintPattern.test('truste_box_overlay')).toBe(true);
    expect(chromeHintPattern.test('impl-trustedlen-3')).toBe(false);
    expect(chromeHintPattern.test('trustee-report')).toBe(false);
  });
});

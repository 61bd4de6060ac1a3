import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { blockedPageTemplate } from './blocked-page.js';
import { parseHtml } from '../html/parse-html.js';
import { pageSignals, pageSignalsOf } from './page-signals.js';
import { scriptRenderedReason } from './script-rendered.js';

/**
 * Script-rendered and blocked-page detection on the fixtures in core/test/fixtures/page-kind/:
 * `spa-*` need a browser, `static-*` do not, `blocked-<template>` are bot-protection pages.
 */
const folder = new URL('../../test/fixtures/page-kind/', import.meta.url);
const fixtures = readdirSync(folder)
  .filter((name) => name.endsWith('.html'))
  .map((name) => ({ name, html: readFileSync(new URL(name, folder), 'utf8') }));

const expectedTemplates: Record<string, string> = {
  'blocked-cloudflare-challenge.html': 'cloudflare-challenge',
  'blocked-cloudflare-block.html': 'cloudflare-block',
  'blocked-imperva-pardon.html': 'imperva-interruption',
  'blocked-incapsula.html': 'imperva-incapsula',
  'blocked-akamai-access-denied.html': 'akamai-access-denied',
  'blocked-perimeterx.html': 'perimeterx',
  'blocked-datadome.html': 'datadome',
  'blocked-sucuri.html': 'sucuri',
  'blocked-generic-captcha.html': 'captcha',
};

describe('scriptRenderedReason', () => {
  for (const { name, html } of fixtures.filter((fixture) => /^(spa|static)-/.test(fixture.name))) {
    it(`${name} ${name.startsWith('spa-') ? 'needs' : 'does not need'} a browser`, () => {
      const reason = scriptRenderedReason(pageSignals(html));
      if (name.startsWith('spa-')) expect(reason).toBeDefined();
      else expect(reason).toBeUndefined();
    });
  }

  it('names the rule that matched', () => {
    const byName = (name: string) => scriptRenderedReason(pageSignals(fixtures.find((fixture) => fixture.name === name)!.html));
    expect(byName('spa-cra-empty-root.html')).toBe('empty-app-root');
    expect(byName('spa-angular-app-root.html')).toBe('empty-app-root');
    expect(byName('spa-noscript-loading.html')).toBe('noscript-asks-for-javascript');
    expect(byName('spa-inline-bundle.html')).toBe('little-text-heavy-scripts');
  });
});

describe('blockedPageTemplate', () => {
  for (const { name, html } of fixtures) {
    const expected = expectedTemplates[name];
    it(`${name} ${expected ? `is ${expected}` : 'is not blocked'}`, () => {
      const found = blockedPageTemplate({ status: expected ? 403 : 200, signals: pageSignals(html), html });
      expect(found?.name).toBe(expected);
    });
  }
});

describe('pageSignals', () => {
  it('measures visible text, scripts, noscript and app roots', () => {
    const signals = pageSignals(
      '<html><head><title> A  page </title><script>var x = 1;</script></head><body><div id="root"></div><noscript>Please enable JavaScript</noscript><p>Hello   <b>world</b></p><script src="/a.js"></script><style>p{}</style></body></html>',
    );
    expect(signals).toEqual({
      title: 'A page',
      textLength: 11,
      text: 'Hello world',
      inlineScriptBytes: 10,
      externalScripts: 1,
      noscriptText: 'Please enable JavaScript',
      appRoots: ['#root'],
      emptyAppRoots: ['#root'],
    });
  });

  it('counts a whitespace run once, also across text nodes, and a surrogate pair once', () => {
    const count = (body: string) => pageSignals(`<html><body>${body}</body></html>`).textLength;
    expect(count('<p>a  \n\t b</p>')).toBe(3);
    expect(count('<p>a </p>\n  <p>  b</p>')).toBe(3);
    expect(count('<p>\u00a0\u00a0a\u00a0</p><p> b </p>')).toBe(4);
    expect(count('<p>x \ud83d\ude00  y</p>')).toBe(5);
    expect(count('<p>x \ude00 \ude00 y</p>')).toBe(3);
    expect(count('<p>   </p><p>\n</p>')).toBe(0);
  });
});

describe('pageSignalsOf (from the parsed tree, in the transform)', () => {
  it('gives the same signals as the streaming pass on every fixture', () => {
    for (const { html } of fixtures) expect(pageSignalsOf(parseHtml(html))).toEqual(pageSignals(html));
  });
});

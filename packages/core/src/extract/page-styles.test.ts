import { isTag } from 'domhandler';
import { findOne } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { hiddenTokensOfCss, styleHiddenElements } from './page-styles.js';

const prose = 'A paragraph of the article, long enough to count as the text a reader of the page gets.';

/** The ids of the elements the page's styles hide. */
function hiddenIds(html: string): string[] {
  const document = parseDocument(html);
  const body = findOne((element) => element.name === 'body', document.children)!;
  return [...(styleHiddenElements(document, body) ?? [])].map((element) => (isTag(element) ? element.attribs.id! : '')).sort();
}

describe('hiddenTokensOfCss', () => {
  it('reads simple selectors at the top level and under screen media only', () => {
    const tokens = hiddenTokensOfCss(
      `/* .x{display:none} */ .a{display:none} div#b, .c{color:#fff; display : none !important} .d .e{display:none}
       @media print{.f{display:none}} @media only screen{.g{visibility:hidden}} @media (max-width:900px){.h{display:none}}
       .i:hover{display:none} .j{display:none;visibility:visible}`,
    );
    expect([...tokens!.hidden].sort()).toEqual(['#b', 'a', 'c', 'g', 'j']);
  });

  it('leaves out a token some rule shows again', () => {
    const tokens = hiddenTokensOfCss('.a{display:none} .menu.open .a{display:block} .b{display:none} @media (min-width:768px){.md\\:block{display:block}}');
    expect([...tokens!.hidden]).toEqual(['b']);
    expect(tokens!.shown.has('md:block')).toBe(true);
  });

  it('reads a hostile sheet in one pass: thousands of nested groups, lone and unclosed braces', () => {
    const nested = `${'@media screen{'.repeat(20_000)}.deep{display:none}${'}'.repeat(20_000)}`;
    expect([...hiddenTokensOfCss(nested)!.hidden]).toEqual(['deep']);
    expect([...hiddenTokensOfCss(`${'}'.repeat(50_000)}.a{display:none}${'{'.repeat(50_000)}`)!.hidden]).toEqual(['a']);
    expect(hiddenTokensOfCss('@font-face{src:url(x)} .b{display:none} @keyframes k{from{display:none}}')!.hidden).toEqual(new Set(['b']));
  });

  it('ends a comment left open with its sheet, as CSS does, in one pass', () => {
    // The rules after an open comment are inside it: nothing a browser applies.
    expect([...hiddenTokensOfCss('.a{display:none} /* open .x{color:red} .b{display:none}')!.hidden]).toEqual(['a']);
    expect([...hiddenTokensOfCss('/*/ .a{display:none} */ .b{display:none} /**/.c{display:none}')!.hidden]).toEqual(['b', 'c']);
    // 100,000 open comments (500 KB): each one searched the rest of the sheet for its close (28 s).
    expect([...hiddenTokensOfCss(`.a{display:none} ${'/* c '.repeat(100_000)}`)!.hidden]).toEqual(['a']);
  });

  it('finds nothing in a sheet that hides nothing', () => {
    expect(hiddenTokensOfCss('.a{display:block} .b{color:red}')).toBeUndefined();
  });
});

describe('styleHiddenElements', () => {
  it('finds the outermost hidden elements, not one that also carries a shown token', () => {
    const html = `<html><head><style>.dialog{display:none} .hidden{display:none} @media (min-width:768px){.md\\:block{display:block}}</style></head>
      <body><main id="main"><p>${prose}</p><p>${prose}</p></main>
      <div class="dialog" id="policy"><div class="dialog" id="inner"><p>Privacy policy.</p></div></div>
      <div class="hidden md:block" id="wide">Shown on a wide screen.</div></body></html>`;
    expect(hiddenIds(html)).toEqual(['policy']);
  });

  it('reads each <style> as a sheet of its own: a comment left open in one does not run into the next', () => {
    const html = `<html><head><style>.dialog{display:none} /* open</style><style>*/ .banner{display:none}</style><style>.promo{display:none}</style></head>
      <body><main id="main"><p>${prose}</p><p>${prose}</p></main>
      <div class="dialog" id="dialog">Dialog.</div><div class="banner" id="banner">Banner.</div><div class="promo" id="promo">Promo.</div></body></html>`;
    expect(hiddenIds(html)).toEqual(['dialog', 'promo']);
  });

  it('hides nothing when the hidden elements hold most of the text (content a script reveals)', () => {
    const html = `<html><head><style>.js-reveal{display:none}</style></head>
      <body><nav id="nav">Home</nav><div class="js-reveal" id="article"><p>${prose}</p><p>${prose}</p></div></body></html>`;
    expect(hiddenIds(html)).toEqual([]);
  });

  it('keeps repeated collapsed items (accordion answers a script opens) and drops what is hidden once', () => {
    const item = (n: number) => `<div class="faq-item"><h3>Question ${n}?</h3><div class="answer" id="answer${n}"><p>${prose}</p></div></div>`;
    const html = `<html><head><style>.answer{display:none} .newsletter{display:none}</style></head>
      <body><main id="main"><p>${prose}</p><p>${prose}</p>${item(1)}${item(2)}${item(3)}</main>
      <div class="newsletter" id="newsletter"><p>Subscribe to our newsletter.</p></div></body></html>`;
    expect(hiddenIds(html)).toEqual(['newsletter']);
  });

  it('ignores a stylesheet for print', () => {
    const html = `<html><head><style media="print">.share{display:none}</style></head><body><p>${prose}</p><div class="share" id="share">Share</div></body></html>`;
    expect(hiddenIds(html)).toEqual([]);
  });
});

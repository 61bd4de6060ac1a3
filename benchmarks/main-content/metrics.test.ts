import { describe, expect, it } from 'vitest';
import { markdownToText } from './markdown-to-text.js';
import { aebScores, shingleCounts, snippetCounts, trafScores } from './metrics.js';

describe('markdownToText', () => {
  it('drops markup and link targets, keeps text', () => {
    const markdown = [
      '# Title',
      '',
      '### 1. First step',
      '',
      'Some **bold** and *em* and _under_ text with a [link](https://x.example/a_(b)) and ![alt](i.png).',
      '',
      '- item one',
      '  1. nested [![img](a.png)](b) item',
      '> quoted - [ ] not a box',
      '',
      '| a | b |',
      '| --- | --- |',
      '| c \\| d | e |',
      '',
      '```js',
      'const x = a * b_c;',
      '```',
      'snake_case stays, 2 \\* 3, `a_b*c` code',
    ].join('\n');
    expect(
      markdownToText(markdown)
        .split('\n')
        .filter((line) => line !== ''),
    ).toEqual([
      'Title',
      '1. First step',
      'Some bold and em and under text with a link and .',
      'item one',
      'nested  item',
      'quoted - [ ] not a box',
      'a b',
      'c | d e',
      'const x = a * b_c;',
      'snake_case stays, 2 * 3, a_b*c code',
    ]);
  });
});

describe('aeb shingles', () => {
  it('scores identical texts as perfect and normalises counts', () => {
    expect(shingleCounts('one two three four five', 'one two three four five')).toEqual({ tp: 1, fp: 0, fn: 0 });
    const partial = shingleCounts('a b c d e', 'a b c d x');
    expect(partial.tp + partial.fp + partial.fn).toBeCloseTo(1);
    expect(partial.tp).toBeCloseTo(1 / 3);
  });

  it('treats a short text as one shingle and averages precision over pages with output', () => {
    expect(shingleCounts('hi there', 'hi there')).toEqual({ tp: 1, fp: 0, fn: 0 });
    const scores = aebScores([shingleCounts('a b c d', 'a b c d'), shingleCounts('a b c d', '')]);
    expect(scores.precision).toBe(1);
    expect(scores.recall).toBe(0.5);
    expect(scores.f1).toBeCloseTo(2 / 3);
  });
});

describe('traf snippets', () => {
  it('counts found with-snippets, missed ones and found without-snippets, whitespace-collapsed', () => {
    const counts = snippetCounts('Hello   big\nworld. Menu', ['Hello big world', 'absent'], ['Menu', 'Footer']);
    expect(counts).toEqual({ tp: 1, fn: 1, fp: 1 });
    expect(trafScores([counts]).f1).toBeCloseTo(0.5);
  });
});

describe('opaque names', () => {
  it('replaces class tokens and ids by meaningless names, the same token by the same name', async () => {
    const { withOpaqueNames } = await import('./opaque-names.js');
    const html = withOpaqueNames('<div id="comments" class="comment-list wrap"><p class="comment wrap">A &amp; B</p></div>');
    expect(html).toBe('<div id="u3" class="u1 u2"><p class="u4 u2">A &amp; B</p></div>');
  });
});

describe('opaque names for docs pages', () => {
  it('renames in-page references with their ids, keeps code languages, and names links back', async () => {
    const { opaquePage } = await import('./opaque-names.js');
    const page = opaquePage(
      '<h2 id="install">Install <a class="headerlink" href="#install">¶</a></h2><a name="old"></a>' +
        '<label for="q">Q</label><input id="q" aria-describedby="install"><a href="#old" rel="next">up</a>' +
        '<a href="other.html#install">there</a><pre><code class="language-js hl">x</code></pre>',
      { references: true, keepCodeLanguage: true },
    );
    expect(page.html).toBe(
      '<h2 id="u4">Install <a class="u5" href="#u4">¶</a></h2><a name="u2"></a>' +
        '<label for="u3">Q</label><input id="u3" aria-describedby="u4"><a href="#u2" rel="next">up</a>' +
        '<a href="other.html#install">there</a><pre><code class="language-js u1">x</code></pre>',
    );
    expect(page.restore('[Install](#u4) [up](#u2 "t") `#u5` [x](#u9)')).toBe('[Install](#install) [up](#old "t") `#u5` [x](#u9)');
  });
});

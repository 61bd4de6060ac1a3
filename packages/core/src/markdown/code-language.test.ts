import { parseDocument } from 'htmlparser2';
import { isTag, type AnyNode, type Element } from 'domhandler';
import { describe, expect, it } from 'vitest';
import { detectCodeLanguage, languageFromClass } from './code-language.js';

function firstPre(html: string): Element {
  const find = (nodes: AnyNode[]): Element | undefined => {
    for (const node of nodes) {
      if (!isTag(node)) continue;
      if (node.name === 'pre') return node;
      const found = find(node.children);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const pre = find(parseDocument(html).children);
  if (pre === undefined) throw new Error('no <pre> in fixture');
  return pre;
}

describe('languageFromClass', () => {
  it.each([
    ['language-ts', true, 'ts'],
    ['lang-js prettyprint', true, 'js'],
    ['hljs language-JavaScript', true, 'javascript'],
    ['sourceCode python', true, 'python'],
    ['hljs go', true, 'go'],
    ['brush: js; gutter: false', true, 'js'],
    ['language-none', true, ''],
    ['highlight highlight-source-python', false, 'python'],
    ['highlight highlight-text-html-basic', false, 'html'],
    ['highlight-python notranslate', false, 'python'],
    ['highlight-default notranslate', false, ''],
    ['mw-highlight mw-highlight-lang-php', false, 'php'],
    ['highlight js', false, 'js'],
    ['lang-en', false, ''],
    ['content js', false, ''],
    ['code-block', false, ''],
  ])('%j (code element: %s) -> %j', (className, isCodeElement, expected) => {
    expect(languageFromClass(className, isCodeElement)).toBe(expected);
  });
});

describe('detectCodeLanguage', () => {
  it('prefers the code element, then the pre, then wrappers', () => {
    expect(detectCodeLanguage(firstPre('<div class="language-css"><pre class="lang-js"><code class="language-ts">x</code></pre></div>'))).toBe('ts');
    expect(detectCodeLanguage(firstPre('<div class="language-css"><pre class="lang-js"><code>x</code></pre></div>'))).toBe('js');
    expect(detectCodeLanguage(firstPre('<div class="language-css"><div><pre><code>x</code></pre></div></div>'))).toBe('css');
  });

  it('reads through a few wrapping pres only: a page nesting thousands is read in bounded time and stack', () => {
    const deep = `${'<pre>'.repeat(20_000)}<code class="language-rust">x</code>${'</pre>'.repeat(20_000)}`;
    expect(detectCodeLanguage(firstPre(deep))).toBe('');
    expect(detectCodeLanguage(firstPre(`${'<pre>'.repeat(3)}<code class="language-rust">x</code>${'</pre>'.repeat(3)}`))).toBe('rust');
  });

  it('reads the language of a pre that another pre only wraps (mdBook playground blocks)', () => {
    expect(detectCodeLanguage(firstPre('<pre><pre class="playground"><code class="language-rust">fn main() {}</code></pre></pre>'))).toBe('rust');
    expect(detectCodeLanguage(firstPre('<pre>\n<pre><code class="language-rust ignore">x</code></pre>\n</pre>'))).toBe('rust');
    expect(detectCodeLanguage(firstPre('<pre>$ <pre><code class="language-rust">x</code></pre></pre>'))).toBe('');
  });

  it('reads data-language on code and pre, and on wrappers only for known languages', () => {
    expect(detectCodeLanguage(firstPre('<pre data-language="tsx"><code>x</code></pre>'))).toBe('tsx');
    expect(detectCodeLanguage(firstPre('<div data-lang="en"><pre>x</pre></div>'))).toBe('');
    expect(detectCodeLanguage(firstPre('<div data-lang="yaml"><pre>x</pre></div>'))).toBe('yaml');
  });

  it('finds the language of a Hexo figure around a gutter table', () => {
    const html = '<figure class="highlight js"><table><tr><td class="code"><pre>x</pre></td></tr></table></figure>';
    expect(detectCodeLanguage(firstPre(html))).toBe('js');
  });
});

import { describe, expect, it } from 'vitest';
import { generatorTruthHtml } from './generator-truth.js';
import { featuresOfHtml } from './score.js';

// Shapes copied from the installed pages' markup (rust-doc 1.63, openjdk-17-doc, mkdocs-doc 1.4).
const mdbook = `<html><body><nav id="sidebar"><a href="ch01.html">Getting started</a></nav>
<div id="content" class="content"><main>
<h2 id="functions"><a class="header" href="#functions">Functions</a></h2>
<p>Rust code uses <em>snake case</em>.</p>
<pre><pre class="playground"><code class="language-rust">fn main() {}
</code></pre></pre>
<pre><code class="language-console">$ cargo run
</code></pre>
</main><nav class="nav-wrapper"><a rel="next" href="ch03-04.html">Next</a></nav></div></body></html>`;

const rustdoc = `<html><body><nav class="sidebar"><a href="index.html">std</a></nav>
<section id="main-content" class="content"><div class="main-heading">
<h1 class="fqn"><span class="in-band">Trait <a href="../index.html">std</a>::<wbr><a class="trait" href="#">Eq</a><button id="copy-path" onclick="copy_path(this)"><img src="c.svg" alt="Copy item path"></button></span></h1>
<span class="out-of-band"><span class="since">1.0.0</span> · <a class="srclink" href="../../src/core/cmp.rs.html#287">source</a> · <a id="toggle-all-docs" href="javascript:void(0)">[<span class="inner">&#x2212;</span>]</a></span></div>
<div class="docblock item-decl"><pre class="rust trait"><code>pub trait Eq { }</code></pre></div>
<details class="rustdoc-toggle top-doc" open><summary class="hideme"><span>Expand description</span></summary><div class="docblock">
<h3 id="derivable"><a href="#derivable">Derivable</a></h3>
<div class="example-wrap"><pre class="rust rust-example-rendered"><code><span class="kw">enum</span> A {}</code></pre><a class="test-arrow" target="_blank" href="https://play.rust-lang.org/?code=x">Run</a></div>
</div></details>
<section id="method.new" class="method"><a href="#method.new" class="anchor"></a><h4 class="code-header">pub fn <a href="#method.new" class="fnname">new</a>() -&gt; Vec<span class="notable-traits"><span class="notable-traits-tooltip">ⓘ<span class="notable-traits-tooltiptext">Notable traits for Vec</span></span></span></h4></section>
</section></body></html>`;

const javadoc = `<html><body><header><nav><a href="index.html">Overview</a></nav></header><main role="main">
<h1 title="Class Optional" class="title">Class Optional&lt;T&gt;</h1>
<div class="table-tabs" role="tablist"><button id="t0" class="active-table-tab">All Methods</button><button id="t1" class="table-tab">Static Methods</button></div>
<div class="summary-table"><div class="col-first"><code>static Optional</code></div></div>
</main><footer><a href="https://bugreport.java.com/">Report a bug</a></footer></body></html>`;

const mkdocs = `<html><body><div class="navbar"><a href="index.html">MkDocs</a></div><div class="row"><div class="col-md-3"><ul><li>toc</li></ul></div>
<div class="col-md-9" role="main">
<h1 id="getting-started">Getting Started<a class="headerlink" href="#getting-started" title="Permanent link"></a></h1>
<pre class="highlight"><code class="language-bash">pip install mkdocs</code></pre>
</div></div></body></html>`;

describe('generatorTruthHtml', () => {
  it('mdBook: main, heading permalinks unwrapped, the playground wrapper pre unwrapped', () => {
    const features = featuresOfHtml(generatorTruthHtml('mdbook', mdbook));
    expect([...features.headings.keys()]).toEqual(['h2 Functions']);
    expect([...features.links.keys()]).toEqual([]);
    expect([...features.code.keys()]).toEqual(['rust\u0000fn main() {}', 'console\u0000$ cargo run']);
    expect(features.text).not.toContain('Getting started');
    expect(features.text).not.toContain('Next');
  });

  it('rustdoc: #main-content without its source link, toggles, buttons, anchors, Run links and tooltips; language from the pre', () => {
    const features = featuresOfHtml(generatorTruthHtml('rustdoc', rustdoc));
    expect([...features.headings.keys()]).toEqual(['h1 Trait std::Eq', 'h3 Derivable', 'h4 pub fn new() -> Vec']);
    expect([...features.code.keys()]).toEqual(['rust\u0000pub trait Eq { }', 'rust\u0000enum A {}']);
    expect([...features.links.keys()].sort()).toEqual([
      'Eq -> https://docs.example.com/guide/page#',
      'new -> https://docs.example.com/guide/page#method.new',
      'std -> https://docs.example.com/index.html',
    ]);
    for (const widget of ['source', 'Expand description', 'Run', 'Notable traits', '[−]', 'Copy item path']) expect(features.text).not.toContain(widget);
    expect(features.text).toContain('1.0.0');
  });

  it('separates blocks written with no space between them (rustdoc item tables), not inside code', () => {
    const table = `<section id="main-content"><div class="item-table"><div class="item-row"><div class="item-left module-item"><a class="constant" href="constant.E.html">E</a></div><div class="item-right docblock-short"><p>Euler’s number (e)</p></div></div></div><pre class="rust"><code><span>a</span><span>b</span></code></pre></section>`;
    const features = featuresOfHtml(generatorTruthHtml('rustdoc', table));
    expect(features.text).toBe('E Euler’s number (e) ab');
  });

  it('Javadoc: main without the summary tables tab buttons', () => {
    const features = featuresOfHtml(generatorTruthHtml('javadoc', javadoc));
    expect([...features.headings.keys()]).toEqual(['h1 Class Optional<T>']);
    expect(features.text).toBe('Class Optional<T> static Optional');
  });

  it('MkDocs: div[role=main] without heading permalinks', () => {
    const features = featuresOfHtml(generatorTruthHtml('mkdocs', mkdocs));
    expect([...features.headings.keys()]).toEqual(['h1 Getting Started']);
    expect([...features.links.keys()]).toEqual([]);
    expect([...features.code.keys()]).toEqual(['bash\u0000pip install mkdocs']);
  });
});

import { describe, expect, it } from 'vitest';
import { rstTruth } from './rst.js';
import { featuresOfHtml, featuresOfMarkdown } from './score.js';

// Sphinx's imgmath writes each formula as a PNG whose alt is its LaTeX (sympy's pages); docutils
// gives an image without `:alt:` its own address as alt (astropy's plot figures).
const markdown =
  'Let ![a_p](https://docs.example.com/_images/math/3c69.png) be a parameter.\n\n![../_images/robust-1.png](https://docs.example.com/_images/robust-1.png)\n';

describe('image alt text in the Sphinx text score', () => {
  it('reads a formula alt, not a file name, and only when asked', () => {
    expect(featuresOfMarkdown(markdown, { readsImageAlt: true }).text).toBe('Let a_p be a parameter.');
    expect(featuresOfMarkdown(markdown).text).toBe('Let be a parameter.');
  });

  it("states an image's :alt: in the truth text, and its file name not", () => {
    const source = 'Plot\n====\n\n.. image:: images/robust.png\n   :alt: Robust fit of a noisy line\n\n.. figure:: images/other.png\n\n   A caption.\n';
    const truth = rstTruth(source);
    expect(truth.text).toContain('Robust fit of a noisy line');
    expect(truth.text).not.toContain('robust.png');
  });
});

describe('code blocks in an HTML truth', () => {
  it('counts a pre inside a pre once, as the outer block', () => {
    // gi-docgen: `pre > code > div.highlight > pre`, one block on the page.
    const html = '<pre><code><div class="highlight"><pre><span>struct</span> GtkTextIter {\n}\n</pre></div></code></pre>';
    expect([...featuresOfHtml(html).code.entries()]).toEqual([['\u0000struct GtkTextIter {\n}', 1]]);
  });
});

import { describe, expect, it } from 'vitest';
import { shingleCounts } from '../main-content/metrics.js';
import { generatedText } from './generated.js';
import { rstTruth } from './rst.js';

// The shapes of dask's array-api page (autosummary + autofunction) and xarray's quick-overview
// (ipython), cut down.
const source = [
  'API',
  '===',
  '',
  '.. currentmodule:: dask.array',
  '',
  'Top level functions.',
  '',
  '.. autosummary::',
  '',
  '   ones',
  '',
  '.. autofunction:: ones',
  '',
  '.. ipython:: python',
  '',
  '    data.values',
  '',
].join('\n');

const html = `<section><h1>API</h1><p>Top level functions.</p>
<table class="autosummary longtable table autosummary"><tr><td><a href="#dask.array.ones">ones</a></td><td>Blockwise ones in the given shape</td></tr></table>
<dl class="py function"><dt class="sig sig-object py" id="dask.array.ones">dask.array.ones(shape)</dt><dd><p>Return a new array of given shape filled with ones.</p></dd></dl>
<dl class="py function"><dt class="sig sig-object py" id="dask.array.zeros">dask.array.zeros(shape)</dt><dd><p>Written by hand in the source.</p></dd></dl>
<div class="highlight-ipython notranslate"><pre>In [1]: data.values
Out[1]: array([[ 0.47, -1.41, 0.99]])</pre></div></section>`;

describe('generated content of a Sphinx page', () => {
  it('records the generating directives the source names', () => {
    const { generated } = rstTruth(source);
    expect(generated.objects).toEqual(['ones']);
    expect([...generated.regions].sort()).toEqual(['autosummary', 'ipython']);
  });

  it('finds their output in the HTML, and only theirs', () => {
    const text = generatedText(html, rstTruth(source).generated);
    expect(text).toContain('Blockwise ones in the given shape');
    expect(text).toContain('filled with ones');
    expect(text).toContain('Out[1]');
    expect(text).not.toContain('Written by hand');
    expect(text).not.toContain('Top level functions');
  });

  it('finds nothing on a page without generating directives', () => {
    expect(generatedText(html, rstTruth('Title\n=====\n\nText.\n').generated)).toBe('');
  });
});

describe('excused shingles', () => {
  const truth = 'the source states this sentence plainly';
  const extra = 'a docstring the build wrote in';

  it('neither costs nor earns, but for the shingles across a junction with the page text', () => {
    const dropped = shingleCounts(truth, truth, extra);
    expect(dropped).toEqual({ tp: 1, fp: 0, fn: 0 });
    // Kept: the region's own three shingles are excused; the three that span "plainly a docstring
    // the" are in neither text, and still count (the markdown has no marks where the region was).
    const kept = shingleCounts(truth, `${truth} ${extra}`, extra);
    expect(kept.tp / kept.fp).toBeCloseTo(3 / 3);
    expect(kept.fn).toBe(0);
    const unexcused = shingleCounts(truth, `${truth} ${extra}`);
    expect(unexcused.tp / unexcused.fp).toBeCloseTo(3 / 6);
  });

  it('still counts chrome that is not generated, and truth matches inside a generated region', () => {
    const withChrome = shingleCounts(truth, `${truth} navigation menu home about`, extra);
    expect(withChrome.fp).toBeGreaterThan(0);
    // The excused region repeats the truth (ipython input): the truth's copies still match.
    expect(shingleCounts(truth, truth, truth)).toEqual({ tp: 1, fp: 0, fn: 0 });
    expect(shingleCounts(truth, '', truth).fn).toBe(1);
  });
});

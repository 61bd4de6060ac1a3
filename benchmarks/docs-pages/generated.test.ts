import { describe, expect, it } from 'vitest';
import { shingleBreak, shingleCounts } from '../main-content/metrics.js';
import { generatedText, withoutUnshownTitles } from './generated.js';
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
    // Of the page text, only the three words on each side of a region (its junctions).
    expect(text).toContain('Top level functions ones Blockwise');
    expect(text).not.toContain('API Top');
  });

  it('joins inline text as the page shows it, and takes three words of the page text on each side', () => {
    // The shape of astropy's api/astropy.time.Time page: a title, then the autoclass object.
    const page = `<section><h1>Time</h1><dl class="py class"><dt id="astropy.time.Time">class astropy.time.Time</dt>
<dd><dl class="field-list"><dt>Parameters</dt><dd><dl><dt><strong>val</strong><span class="classifier">python:sequence</span></dt></dl></dd></dl></dd></dl>
<p>Written by hand after it.</p></section>`;
    const text = generatedText(page, rstTruth('Time\n====\n\n.. currentmodule:: astropy.time\n\n.. autoclass:: Time\n').generated);
    expect(text).toBe('Time class astropy.time.Time Parameters valpython:sequence Written by hand');
    // The junction shingles of an extractor that keeps the object are excused with it.
    const kept = shingleCounts('Time Written by hand after it', 'Time class astropy time Time Parameters valpython sequence Written by hand after it', text);
    expect(kept.fp).toBe(0);
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

describe('what Sphinx writes around the source', () => {
  it('shows info fields with their labels and types, and version notes with their sentence', () => {
    // The shape of cryptography's ed448 page.
    const source = [
      'Ed448',
      '=====',
      '',
      '.. class:: Ed448PrivateKey',
      '',
      '    .. versionadded:: 2.6',
      '',
      '    .. classmethod:: from_private_bytes(data)',
      '',
      '        :param data: 57 byte private key.',
      '        :type data: bytes-like',
      '        :param bool strict: Refuse weak keys.',
      '',
      '        :returns: A private key.',
      '        :raises ValueError: If the key is short.',
      '',
    ].join('\n');
    const { text } = rstTruth(source);
    expect(text).toContain('class Ed448PrivateKey New in version 2.6');
    expect(text).toContain('classmethod from_private_bytes(data) Parameters data (bytes-like) 57 byte private key. strict (bool) Refuse weak keys.');
    expect(text).toContain('Returns A private key. Raises ValueError If the key is short.');
    expect(text).not.toContain('param');
  });

  it('reads a literalinclude from the copy the build kept, and leaves out one it did not', () => {
    const source = 'Vectors\n=======\n\n.. literalinclude:: /vectors/generate.py\n\n.. literalinclude:: /vectors/Verify.java\n';
    const truth = rstTruth(source, (path) => (path.endsWith('generate.py') ? 'import binascii\nprint(binascii.hexlify(b"x"))\n' : undefined));
    expect([...truth.code.keys()]).toEqual(['import binascii print(binascii.hexlify(b"x"))']);
    expect(truth.text).toContain('import binascii');
  });

  it('shows a Python console block without its doctest flags, and a `~` reference by its last part', () => {
    // The shape of astropy's coordinates/velocities page.
    const source = [
      'Precision of `~astropy.coordinates.SkyCoord.radial_velocity_correction`',
      '=======================================================================',
      '',
      '.. currentmodule:: astropy.coordinates',
      '',
      'See :meth:`~astropy.units.Quantity.to` and :class:`astropy.time.Time`::',
      '',
      '    >>> sc.galactic  # doctest: +FLOAT_CMP',
      '    <SkyCoord (Galactic)>',
      '    >>> print(text)',
      '    <BLANKLINE>',
      '',
    ].join('\n');
    const truth = rstTruth(source);
    expect([...truth.headings.keys()]).toEqual(['Precision of radial_velocity_correction']);
    expect([...truth.code.keys()]).toEqual(['>>> sc.galactic <SkyCoord (Galactic)> >>> print(text)']);
    expect(truth.text).toContain('See to and astropy.time.Time:');
    expect(truth.text).not.toContain('astropy.coordinates');
    // Under `.. highlight:: rest` (sphinx-doc's doctest page) the block is not a console: flags stay.
    const rest = rstTruth('Doctest\n=======\n\n.. highlight:: rest\n\nLike in doctest::\n\n   >>> now()  # doctest: +SKIP\n');
    expect([...rest.code.keys()]).toEqual(['>>> now() # doctest: +SKIP']);
    // ...also inside a directive's body below it (the page describes the doctest directive there).
    const nested = rstTruth(
      'Doctest\n=======\n\n.. highlight:: rest\n\n.. rst:directive:: .. doctest::\n\n   Like in doctest::\n\n      >>> now()  # doctest: +SKIP\n',
    );
    expect([...nested.code.keys()]).toEqual(['>>> now() # doctest: +SKIP']);
  });

  it("shows a plot directive's code only with :include-source:", () => {
    // The shape of astropy's visualization/wcsaxes/overlays page.
    const source = [
      'Overlays',
      '========',
      '',
      '.. plot::',
      '   :nofigs:',
      '',
      '    ax = plt.subplot()',
      '',
      '.. plot::',
      '   :include-source:',
      '',
      '    ax.imshow(data)',
      '',
    ].join('\n');
    const truth = rstTruth(source);
    expect([...truth.code.keys()]).toEqual(['ax.imshow(data)']);
    expect(truth.text).not.toContain('subplot');
  });

  it('reads references, substitutions, abbreviations and admonition titles as the page shows them', () => {
    // The shapes of pandas' comparison_with_r and whatsnew pages and nipype's about page, cut down.
    const source = [
      ':orphan:',
      '',
      '{{ header }}',
      '',
      "Slicing with R's |c|_",
      '---------------------',
      '',
      'Deleting a branch on github_ keeps ``df_`` and `Download Paper`__.',
      '',
      '__ https://example.org/paper.pdf',
      '',
      'Edit the `.zenodo.json',
      '<https://github.com/nipy/nipype/blob/master/.zenodo.json>`__ file for a :abbr:`DOI (Digital Object Identifier)`.',
      '',
      '.. note:: Mind the gap.',
      '',
      '.. ipython:: python',
      '',
      '    df = pd.DataFrame()',
      '    df',
      '',
    ].join('\n');
    const truth = rstTruth(source);
    expect([...truth.headings.keys()]).toEqual(["Slicing with R's c"]);
    expect(truth.text).toBe(
      "Slicing with R's c Deleting a branch on github keeps df_ and Download Paper. Edit the .zenodo.json file for a DOI. Note Mind the gap.",
    );
    expect([...truth.links.keys()]).toEqual(['.zenodo.json -> https://github.com/nipy/nipype/blob/master/.zenodo.json']);
    // No opening backtick (it closes a literal), no link: docutils shows the address as text (pandas' text page).
    expect(rstTruth('T\n=\n\n``a`` added in Python 3.9\n<https://docs.python.org/3/>`__:\n').links.size).toBe(0);
    // The executed session is a generated region: excused in the page, not stated by the truth.
    expect([...truth.generated.regions]).toEqual(['ipython']);
  });

  it('lets no shingle span a generated region, on either side', () => {
    // The shape of pandas' reference/indexing page: titles over autosummary tables.
    const source =
      'Index\n=====\n\nThe index holds the labels.\n\n.. autosummary::\n\n   Index\n\nProperties\n----------\n\n.. autosummary::\n\n   Index.values\n\nModifying and computations\n--------------------------\n';
    const truth = rstTruth(source);
    const page = `<section><h1>Index</h1><p>The index holds the labels.</p><table class="autosummary"><tr><td>Index(data)</td><td>Immutable sequence used for indexing and alignment.</td></tr></table>
<section><h2>Properties</h2><table class="autosummary"><tr><td>Index.values</td><td>Return an array.</td></tr></table></section>
<section><h2>Modifying and computations</h2></section></section>`;
    const excused = generatedText(page, truth.generated);
    const output =
      'Index The index holds the labels Index data Immutable sequence used for indexing and alignment Properties Index values Return an array Modifying and computations';
    // Neither "Index Properties Modifying and" in the truth nor "alignment Properties Index values" in the page counts.
    expect(shingleCounts(truth.text, output, excused)).toEqual({ tp: 1, fp: 0, fn: 0 });
  });

  it('excuses the link an extension role over a number becomes, and leaves a gap in the truth', () => {
    // The shape of pandas' whatsnew pages (extlinks: `:issue:` shows "GH45637").
    const truth = rstTruth('v1.4.3\n======\n\n- Fixed regression in concat of empty frames (:issue:`45637`, :pep:`8`)\n');
    expect(truth.generated.numbered).toEqual(['45637']);
    expect(truth.text).toBe(`v1.4.3 Fixed regression in concat of empty frames ( ${shingleBreak} , 8)`);
    const page =
      '<li><p>Fixed regression in concat of empty frames (<a class="reference external" href="https://github.com/pandas-dev/pandas/issues/45637">GH45637</a>, PEP 8)</p></li>';
    expect(generatedText(page, truth.generated)).toBe('of empty frames GH45637 PEP 8');
  });

  it('excuses viewcode links on any page', () => {
    const page = '<dl class="py class"><dt id="a.B">class a.B<a href="_modules/a.html"><span class="viewcode-link">[source]</span></a></dt></dl>';
    // With the three words before it ("class a B"), whose shingles span the junction.
    expect(generatedText(page, rstTruth('T\n=\n\ntext\n').generated)).toBe('class a B [source]');
  });

  it("drops the titles pygame's build writes as no heading, for both extractors alike", () => {
    // The shapes of pygame's ref/camera page (title as a definition term) and its Red_or_Black
    // tutorials (stacked titles written as empty sections), cut down.
    const module = rstTruth(':mod:`pygame.camera`\n====================\n\nCameras.\n\n.. function:: init\n\nStarting\n--------\n\nOpen one.\n');
    const modulePage = `<section id="module-pygame.camera"><span id="pygame-camera"></span><dl class="definition"><dt class="title module"><code>pygame.camera</code></dt><dd><p>Cameras.</p></dd></dl>
<section id="starting"><h2>Starting<a class="headerlink" href="#starting">¶</a></h2><p>Open one.</p></section></section>`;
    const shown = withoutUnshownTitles(modulePage, module);
    expect([...shown.headings.keys()]).toEqual(['Starting']);
    // The term shows the title's words: they stay in the text.
    expect(shown.text).toBe(module.text);

    const tutorial = rstTruth(
      '============\nAuthor: Kim\n============\n\n============\nBasic INPUT\n============\nUsually we learn how to output something first.\n',
    );
    const tutorialPage = '<section id="author-kim"></section><section id="basic-input"><p>Usually we learn how to output something first.</p></section>';
    expect([...tutorial.headings.keys()]).toEqual(['Author: Kim', 'Basic INPUT']);
    const stripped = withoutUnshownTitles(tutorialPage, tutorial);
    expect(stripped.headings.size).toBe(0);
    expect(stripped.text.split(shingleBreak).map((part) => part.trim())).toEqual(['', '', 'Usually we learn how to output something first.']);

    // A page whose sections all have their heading keeps the whole truth (a title written
    // differently on the page is the extractor's to find).
    const titled = '<section id="author-kim"><h1>Author: Kim</h1></section><section id="basic-input"><h1>Basic input</h1><p>Usually</p></section>';
    expect(withoutUnshownTitles(titled, tutorial)).toBe(tutorial);
  });
});

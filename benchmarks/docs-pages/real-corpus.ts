/**
 * Real documentation sites not built by Sphinx (issue 13): each page the generator wrote, beside the
 * source it was written from, which is the ground truth (`real-truth.ts`). Sites are the unit of the
 * held-out split.
 *
 * The split (task 13i), decided from the Debian packages' file lists alone (`dpkg -L git-doc`, the
 * extracted `nodejs-doc` .deb), before any page or score of either site was read:
 * - **nodejs** (`nodejs-doc` 18.20: Node's own generator, `tools/doc`, writes `api/<module>.html`
 *   from `api/<module>.md`, shipped gzipped beside it; 48 sources of 1,500-80,000 bytes with their
 *   `.html`) is **held out, fresh**: its truth is the markdown rendered with the same micromark +
 *   GFM the template corpus uses, so it needs no parser written here that only its pages could
 *   debug. Read once, at the end.
 * - **git** (`git-doc` 2.39: asciidoc's xhtml11 backend writes `<page>.html` from `<page>.txt`
 *   beside it; 168 sources of 1,500-60,000 bytes with their `.html`) is **tuning**: its truth needs
 *   a small asciidoc reader (`asciidoc.ts`), which can only be made right by reading its pages.
 * Task 13i read nodejs once (0.922, readability 0.952; README.md) and then moved it to tuning, to
 * look at what it loses (code); no real non-Sphinx site is held out until a new one is found. The
 * pages read were Node 20.20.2's, which the installed `nodejs` package ships in
 * `/usr/share/doc/nodejs/api` with their `.md` (the first root in `roots`), not nodejs-doc 18's.
 * Not taken: mkdocs-doc (no markdown sources, see `sphinx-corpus.ts`), ruby3.1-doc (rdoc HTML from
 * C and Ruby comments, no source files beside the pages).
 *
 * Task 13n, decided from `dpkg -c` of the .deb files alone, before any page or score was read:
 * - **docutils** (`docutils-doc` 0.19: docutils' own front end, `tools/buildhtml.py`, writes each
 *   `<page>.html` from the `<page>.txt` reStructuredText beside it, with no Sphinx; 63 sources, in
 *   `docs/{api,dev,howto,peps,ref,user}/`) is **held out, fresh**: its truth is the existing
 *   reStructuredText reader of the Sphinx part (`rst.ts`), scored on the same four features.
 *   Read once (0.877, readability 0.575; README.md), then moved to tuning.
 * - Not taken: python-markdown-doc and mkdocs-literate-nav-doc (MkDocs, no `.md` beside the pages),
 *   cargo-doc and asciidoctor-doc (rustdoc and YARD/rdoc API pages from code comments).
 *
 * Task 13t, decided from `dpkg -c` of the .deb files and the markup of two pages and their Info
 * nodes (to write the reader), before any extractor's output or score of the site was read:
 * - **octave** (`octave-doc` 7.3: the GNU Octave manual, written in Texinfo, made into one HTML
 *   page per node by makeinfo 6.8, the generator of GNU manuals: a bare page, "Next/Previous/Up"
 *   bars above and below, definition lists for functions, menu tables) is **held out, fresh**. Its
 *   `.texi` is not shipped; the Info file of the same manual, which makeinfo wrote from the same
 *   `.texi`, is (`/usr/share/info/octave.info*.gz`) and states the titles, examples, URLs and prose
 *   (`texinfo.ts`). Scored on the Sphinx part's four features, as docutils is. Read once (0.972,
 *   readability 0.724; README.md), then moved to tuning.
 * - Not taken: cargo-doc and rust-doc (rustdoc and mdBook HTML, no markdown shipped), doxygen-doc
 *   (its `.doc` sources not shipped), erlang-doc (XML sources not shipped; EEP-48 chunks cover the
 *   reference pages only), docbook-xsl-doc-html (no XML beside it), ant-doc and gradle-doc
 *   (hand-written HTML and Javadoc), vim-doc (help files as `<pre>` pages), bash-doc and
 *   r-doc-html (a few single-page manuals), golang-doc (no pages).
 */
import { existsSync } from 'node:fs';

export interface RealSite {
  name: string;
  /** Debian package that installs it (`apt-get install -y <package>`). */
  package: string;
  /** Folders where the pages may be, first found wins (installed, or an extracted .deb). */
  roots: readonly string[];
  /** How its sources are written: the truth reader to use. */
  source: 'markdown' | 'asciidoc' | 'rst' | 'texinfo';
  /** A Texinfo site's Info file (its first part; `-1`, `-2`... parts beside it), the truth's source. */
  info?: readonly string[];
  /**
   * Scored case-folded (truth and both extractors alike): Info upper-cases `@var{x}`, the HTML does
   * not, and nothing else tells the two apart.
   */
  foldsCase?: boolean;
  heldOut: boolean;
  /** Held out and never read by any session before its figure was printed. */
  fresh?: boolean;
}

export const realSites: readonly RealSite[] = [
  { name: 'git', package: 'git-doc', roots: ['/usr/share/doc/git-doc'], source: 'asciidoc', heldOut: false },
  {
    // The first root found is read: on this machine the `nodejs` 20.20.2 package's own
    // `/usr/share/doc/nodejs/api` (the same generator, `.md` beside `.html`), not nodejs-doc 18's.
    name: 'nodejs',
    package: 'nodejs-doc',
    roots: ['/usr/share/doc/nodejs/api', '/tmp/nodejs-doc/root/usr/share/doc/nodejs/api'],
    source: 'markdown',
    // Fresh held-out in task 13i; read there (0.922), tuned on from then.
    heldOut: false,
  },
  {
    // Fresh held-out in task 13n: read once there (0.877, readability 0.575, at 35890aa), before any
    // of its pages was looked at; tuned on from then.
    name: 'docutils',
    package: 'docutils-doc',
    roots: ['/usr/share/doc/docutils-doc', '/tmp/docutils-doc/root/usr/share/doc/docutils-doc'],
    source: 'rst',
    heldOut: false,
  },
  {
    // Fresh held-out in task 13t, chosen before any score of it was read: read once there (0.972,
    // readability 0.724, at 71240f2; opaque names 0.971 / 0.724), then tuned on.
    name: 'octave',
    package: 'octave-doc',
    roots: ['/usr/share/doc/octave/octave.html', '/tmp/octave-doc/root/usr/share/doc/octave/octave.html'],
    info: ['/usr/share/info/octave.info.gz', '/tmp/octave-doc/root/usr/share/info/octave.info.gz'],
    source: 'texinfo',
    foldsCase: true,
    heldOut: false,
  },
];

/** Where a site's pages are on this machine, if anywhere. */
export function rootOf(site: RealSite): string | undefined {
  return site.roots.find((root) => existsSync(root));
}

import { describe, expect, it } from 'vitest';
import { shingleBreak } from '../main-content/metrics.js';
import { asciidocTruthHtml } from './asciidoc.js';
import { nodeTruthHtml } from './real-truth.js';
import { rstTruth, sectionTitle } from './rst.js';
import { featuresOfHtml } from './score.js';

// The shape of git's Documentation/git-mv.txt and its included option lists.
const manpage =
  `git-mv(1)
=========

NAME
----
git-mv - Move or rename a file

SYNOPSIS
--------
[verse]
'git mv' [<options>] <source>...
\t <destination>

OPTIONS
-------
-f::
--force::
\tForce renaming, see linkgit:git-add[1].

include::missing-options.txt[]

EXAMPLES
--------
* Listing a single attribute:
---------------
$ git check-attr diff
---------------

* First item
+
with a second paragraph
* Second item
` +
  `code` +
  ` and 'emphasis'
`;

describe('asciidoc truth (git-doc)', () => {
  const html = asciidocTruthHtml(manpage, () => undefined);
  const features = featuresOfHtml(html);

  it('writes the manpage title as asciidoc does, and the sections', () => {
    expect([...features.headings.keys()]).toEqual(['h1 git-mv(1) Manual Page', 'h2 NAME', 'h2 SYNOPSIS', 'h2 OPTIONS', 'h2 EXAMPLES']);
  });

  it('keeps a verse block as text (its emphasis cannot stay in a markdown code block) and links linkgit', () => {
    // Code is compared with its spaces folded (the page's indentation is the generator's).
    expect([...features.code.keys()][0]).toContain('git mv [<options>] <source>…\n<destination>');
    expect(features.links.get('git-add(1) -> https://docs.example.com/guide/git-add.html')).toBe(1);
    expect(features.emphasis.get('emphasis')).toBe(1);
  });

  it('leaves a gap for an include the package does not ship, and a block without `+` after the list', () => {
    expect(features.text).toContain(shingleBreak);
    expect(features.lists.get('Listing a single attribute:')).toBe(1);
    expect(features.lists.get('First item with a second paragraph')).toBe(1);
  });
});

describe('Node API markdown truth (nodejs-doc)', () => {
  const source = `# File system

<!--introduced_in=v0.10.0-->

<!-- source_link=lib/fs.js -->

## \`fs.access(path[, mode], callback)\`

<!-- YAML
added: v0.11.15
-->

* \`path\` {string|Buffer} See [\`fs.stat()\`][] and [Buffer][].

[\`fs.stat()\`]: #fsstatpath-options-callback
[Buffer]: buffer.md#class-buffer
`;
  const features = featuresOfHtml(nodeTruthHtml(source));

  it('writes what the generator writes: levels one down, types, links to pages, the source link', () => {
    expect([...features.headings.keys()]).toEqual(['h2 File system', 'h3 fs.access(path[, mode], callback)']);
    expect([...features.lists.keys()]).toEqual(['path <string> | <Buffer> See fs.stat() and Buffer.']);
    expect(features.links.get('Buffer -> https://docs.example.com/guide/buffer.html#class-buffer')).toBe(1);
    expect(features.text).toContain('Source Code: lib/fs.js');
    expect(features.text).toContain(shingleBreak);
  });
});

describe("docutils' own documents (reStructuredText read by rst.ts)", () => {
  // The shape of docutils' docs/ref/rst/roles.txt: an inset title between an overline and an
  // underline, a header include, docinfo fields, and section titles that are inline literals.
  const source = `.. include:: ../../header2.txt

=========================================
 reStructuredText Interpreted Text Roles
=========================================

:Author: David Goodger

.. contents::

----------------
 Standard Roles
----------------

\`\`:emphasis:\`\`
==============

Implements emphasis.
`;

  it('reads inset titles between an overline and an underline, and literals in titles as written', () => {
    expect([...rstTruth(source).headings.keys()]).toEqual(['reStructuredText Interpreted Text Roles', 'Standard Roles', ':emphasis:']);
  });

  it("drops the number docutils' sectnum writes, on both sides alike", () => {
    expect(sectionTitle('1.2\u00a0\u00a0\u00a0Section Title')).toBe('Section Title');
    expect(sectionTitle('16.1. Numbered by a toctree')).toBe('Numbered by a toctree');
  });
});

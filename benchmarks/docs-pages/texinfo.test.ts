import { describe, expect, it } from 'vitest';
import { infoInline, infoNodes, infoTruth, isIndexNode, nodeFileName } from './texinfo.js';

// The shape of octave.info's "Debug Mode" node (a section, prose, a definition with two headers,
// a table inside it, an example inside it, cross references) and of a node with a menu and footnotes.
const debugMode = `13.4 Debug Mode
===============

There are three additional support functions that allow the user to find
out where in the execution of a script Octave entered the debug mode.

 -- : dbclear FUNC
 -- : dbclear FUNC LINE
     Delete a breakpoint at line number LINE in the function FUNC.

     Arguments are

     FUNC
          Function name as a string variable.

     LINE
          Line number from which to remove a breakpoint.

     For example:

          dbclear ("myfunc", 10)

          dbstatus
          ⇒ no breakpoints

     See also: *note dbstop: XREFdbstop, *note dbstatus:
     XREFdbstatus.

   A breakpoint may also be set in a subfunction.  For example, if a
file contains the functions

     function y = func1 (x)
       y = func2 (x);
     endfunction

then a breakpoint can be set (*note Breakpoints::).  *Note Call Stack::.
`;

const withMenu = `18.1 Cell Arrays
================

Octave has cell arrays, described at <https://octave.org/doc> and in
the FAQ (https://wiki.octave.org/FAQ).

   • group together _multiple_ graphics objects,

   • create *linked* properties.

  1. Typing in a function at the command prompt.

  2. Storing a group of commands in a file.

18.1.1 Basic Usage
------------------

Text of the subsection that is long enough to matter.

* Menu:

* Basic Usage of Cell Arrays::
* Creating Cell Arrays::   How to make them.

   ---------- Footnotes ----------

   (1) Comma-separated lists are also sometimes called “cs-lists”.
`;

describe('texinfo (Info) truth', () => {
  it('reads section titles without their number', () => {
    expect([...infoTruth(debugMode).headings.keys()]).toEqual(['Debug Mode']);
    expect([...infoTruth(withMenu).headings.keys()]).toEqual(['Cell Arrays', 'Basic Usage']);
  });

  it('reads examples indented past their text as code, not a definition body or a table', () => {
    const code = [...infoTruth(debugMode).code.keys()];
    expect(code).toEqual(['dbclear ("myfunc", 10) dbstatus ⇒ no breakpoints', 'function y = func1 (x) y = func2 (x); endfunction']);
  });

  it('shows cross references as the HTML does, without the node name', () => {
    const { text } = infoTruth(debugMode);
    expect(text).toContain('See also: dbstop, dbstatus.');
    expect(text).toContain('can be set (see Breakpoints). See Call Stack.');
    expect(text).not.toContain('XREF');
    expect(text).not.toContain('*note');
  });

  it('expects a link for a bare URL only, and drops the address an @uref shows in parentheses', () => {
    const truth = infoTruth(withMenu);
    expect([...truth.links.keys()]).toEqual(['https://octave.org/doc -> https://octave.org/doc']);
    expect(truth.text).toContain('described at https://octave.org/doc and in the FAQ.');
  });

  it('drops bullets, item numbers, emphasis marks, the menu and the footnote rule', () => {
    const { text } = infoTruth(withMenu);
    expect(text).toContain('group together multiple graphics objects, create linked properties.');
    expect(text).toContain('Typing in a function at the command prompt. Storing a group');
    expect(text).not.toContain('•');
    expect(text).not.toContain('Menu');
    expect(text).not.toContain('Creating Cell Arrays');
    expect(text).not.toContain('Footnotes');
    expect(text).toContain('(1) Comma-separated lists are also sometimes called "cs-lists".');
  });

  it('reads titles in the text with their number, as the page shows them', () => {
    expect(infoTruth(withMenu).text).toContain('in a file. 18.1.1 Basic Usage Text of the subsection');
  });

  it('reads the node references of inline text', () => {
    expect(infoInline('see *note Label: Some Node, for more')).toBe('see Label, for more');
  });
});

describe('texinfo (Info) nodes', () => {
  const info = `This is octave.info, produced by makeinfo.\n\u001f\nFile: octave.info,  Node: Debug Mode,  Next: Call Stack,  Prev: Breakpoints,  Up: Debugging\n\n${debugMode}\u001f\nFile: octave.info,  Node: Concept Index,  Prev: Function Index,  Up: Top\n\nConcept Index\n*************\n\n\u0000\u0008[index\u0000\u0008]\n* Menu:\n\n\u001f\nTag Table:\n`;

  it('splits an Info file into its nodes and tells index nodes', () => {
    const nodes = infoNodes(info);
    expect(nodes.map((node) => node.name)).toEqual(['Debug Mode', 'Concept Index']);
    expect(nodes[0]!.body.startsWith('\n13.4 Debug Mode')).toBe(true);
    expect(nodes.map(isIndexNode)).toEqual([false, true]);
  });

  it('names each node’s HTML file as makeinfo does', () => {
    expect(nodeFileName('Basic Vectorization')).toBe('Basic-Vectorization.html');
    expect(nodeFileName('Two-Dimensional Plots')).toBe('Two_002dDimensional-Plots.html');
    expect(nodeFileName('Top')).toBe('index.html');
  });
});

import { describe, expect, it } from 'vitest';
import { MarkdownWriter } from './markdown-writer.js';

describe('MarkdownWriter inline spacing', () => {
  it('drops leading and trailing spaces and collapses spaces between pieces', () => {
    const writer = new MarkdownWriter();
    writer.appendText(' Hello ', false);
    writer.appendText(' ', false);
    writer.appendText('world ', false);
    expect(writer.finish()).toBe('Hello world');
  });

  it('keeps pieces without spaces glued', () => {
    const writer = new MarkdownWriter();
    writer.appendText('then', false);
    writer.appendText('adjacent', false);
    expect(writer.finish()).toBe('thenadjacent');
  });

  it('escapes line-start markers only at the start of a line', () => {
    const writer = new MarkdownWriter();
    writer.appendText('# one', false);
    writer.appendText(' # two', false);
    writer.lineBreak();
    writer.appendText('- three', false);
    expect(writer.finish()).toBe('\\# one # two\\\n\\- three');
  });

  it('moves edge spaces outside wrapped content', () => {
    const writer = new MarkdownWriter();
    writer.appendText('a', false);
    const mark = writer.mark();
    writer.appendText(' b ', false);
    writer.wrapSince(mark, '*', '*');
    writer.appendText('c', false);
    expect(writer.finish()).toBe('a *b* c');
  });

  it('merges touching emphasis of the same kind', () => {
    const writer = new MarkdownWriter();
    const first = writer.mark();
    writer.appendText('touch', false);
    writer.wrapSince(first, '**', '**');
    const second = writer.mark();
    writer.appendText('ing', false);
    writer.wrapSince(second, '**', '**');
    expect(writer.finish()).toBe('**touching**');
  });

  it('does not wrap what a block flushed in between', () => {
    const writer = new MarkdownWriter();
    const mark = writer.mark();
    writer.appendText('first', false);
    writer.flushParagraph();
    writer.separate(2);
    writer.appendText('second', false);
    expect(writer.wrapSince(mark, '*', '*')).toBe(false);
    expect(writer.finish()).toBe('first\n\nsecond');
  });

  it('drops content since a mark, keeping a separating space', () => {
    const writer = new MarkdownWriter();
    writer.appendText('a', false);
    const mark = writer.mark();
    writer.appendText(' link', false);
    writer.dropSince(mark);
    writer.appendText(' b', false);
    expect(writer.finish()).toBe('a b');
  });
});

describe('MarkdownWriter lines and blocks', () => {
  it('turns single breaks into hard breaks and double breaks into paragraphs', () => {
    const writer = new MarkdownWriter();
    writer.appendText('one', false);
    writer.lineBreak();
    writer.appendText('two', false);
    writer.lineBreak();
    writer.lineBreak();
    writer.appendText('three', false);
    writer.lineBreak();
    expect(writer.finish()).toBe('one\\\ntwo\n\nthree');
  });

  it('writes at most one blank line and none at the ends', () => {
    const writer = new MarkdownWriter();
    writer.separate(2);
    writer.writeLine('a');
    writer.separate(2);
    writer.separate(2);
    writer.writeLine('b');
    writer.separate(2);
    expect(writer.finish()).toBe('a\n\nb');
  });

  it('prefixes container lines, with the marker on the first line only', () => {
    const writer = new MarkdownWriter();
    writer.pushPrefix('> ', '> ', false);
    writer.pushPrefix('1. ', '   ', true);
    writer.writeLine('first');
    writer.separate(2);
    writer.writeLine('second');
    writer.popPrefix();
    writer.popPrefix();
    expect(writer.finish()).toBe('> 1. first\n>\n>    second');
  });

  it('keeps the separation of a container over requests made before its first line', () => {
    const writer = new MarkdownWriter();
    writer.writeLine('- item');
    writer.setSeparation(1);
    writer.pushPrefix('- ', '  ', true);
    writer.separate(2);
    writer.writeLine('next');
    writer.popPrefix();
    expect(writer.finish()).toBe('- item\n- next');
  });

  it('knows when a list item has not received content yet', () => {
    const writer = new MarkdownWriter();
    expect(writer.isAtListItemStart()).toBe(false);
    writer.pushPrefix('- ', '  ', true);
    expect(writer.isAtListItemStart()).toBe(true);
    writer.appendText('text', false);
    expect(writer.isAtListItemStart()).toBe(false);
  });

  it('joins cell lines with <br> and escapes pipes', () => {
    const writer = new MarkdownWriter(true);
    writer.appendText('a | b', false);
    writer.lineBreak();
    writer.appendText('- c', false);
    writer.flushParagraph();
    writer.separate(2);
    writer.writeLine('d');
    expect(writer.finish()).toBe('a \\| b<br>- c<br>d');
  });
});

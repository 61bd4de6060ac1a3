import { describe, expect, it } from 'vitest';
import { charsetFromMetaContent, decodeBody } from './decode-body.js';

const ascii = (text: string): number[] => [...text].map((char) => char.charCodeAt(0));
const bytesOf = (...parts: (string | number[])[]): Uint8Array => Uint8Array.from(parts.flatMap((part) => (typeof part === 'string' ? ascii(part) : part)));

/** 日本語 and こんにちは in Shift_JIS. */
const nihongoSjis = [0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea];
const konnichiwaSjis = [0x82, 0xb1, 0x82, 0xf1, 0x82, 0xc9, 0x82, 0xbf, 0x82, 0xcd];
/** café – “quotes” in windows-1252 (é E9, en dash 96, curly quotes 93/94). */
const cafeCp1252 = [0x63, 0x61, 0x66, 0xe9, 0x20, 0x96, 0x20, 0x93, 0x71, 0x75, 0x6f, 0x74, 0x65, 0x73, 0x94];
const cafeText = 'café – “quotes”';

describe('decodeBody', () => {
  it('decodes a Shift-JIS page that declares <meta charset>', () => {
    const page = bytesOf(
      '<!doctype html><html><head><meta charset="Shift_JIS"><title>',
      nihongoSjis,
      '</title></head><body>',
      konnichiwaSjis,
      '</body></html>',
    );
    const decoded = decodeBody(page, 'text/html');
    expect(decoded.charset).toBe('shift_jis');
    expect(decoded.text).toContain('<title>日本語</title>');
    expect(decoded.text).toContain('こんにちは');
  });

  it('decodes a page declared with <meta http-equiv="Content-Type" content="...charset=...">', () => {
    const page = bytesOf('<html><head><META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=sjis"></head><body>', nihongoSjis, '</body>');
    expect(decodeBody(page, 'text/html')).toMatchObject({ charset: 'shift_jis', text: expect.stringContaining('日本語') });
  });

  it('ignores a content charset without the http-equiv pragma', () => {
    const page = bytesOf('<meta content="text/html; charset=shift_jis"><p>', cafeCp1252);
    expect(decodeBody(page, 'text/html').charset).toBe('windows-1252');
  });

  it('decodes a windows-1252 page declared in the header', () => {
    const decoded = decodeBody(bytesOf('<p>', cafeCp1252, '</p>'), 'text/html; charset=windows-1252');
    expect(decoded).toEqual({ text: `<p>${cafeText}</p>`, charset: 'windows-1252' });
  });

  it('maps the iso-8859-1 label to windows-1252 as browsers do', () => {
    expect(decodeBody(bytesOf(cafeCp1252), 'text/html; charset="ISO-8859-1"')).toEqual({ text: cafeText, charset: 'windows-1252' });
  });

  it('falls back to windows-1252 for invalid UTF-8 when nothing declares a charset', () => {
    expect(decodeBody(bytesOf('<p>', cafeCp1252, '</p>'), 'text/html')).toEqual({ text: `<p>${cafeText}</p>`, charset: 'windows-1252' });
    expect(decodeBody(bytesOf(cafeCp1252), null).charset).toBe('windows-1252');
  });

  it('defaults to UTF-8', () => {
    const utf8 = new TextEncoder().encode('<p>日本語 café</p>');
    expect(decodeBody(utf8, 'text/html')).toEqual({ text: '<p>日本語 café</p>', charset: 'utf-8' });
    expect(decodeBody(utf8, null)).toEqual({ text: '<p>日本語 café</p>', charset: 'utf-8' });
  });

  it('lets the header charset win over a conflicting <meta>', () => {
    const page = bytesOf('<meta charset="shift_jis"><p>', cafeCp1252, '</p>');
    expect(decodeBody(page, 'text/html; charset=windows-1252')).toMatchObject({ charset: 'windows-1252', text: expect.stringContaining(cafeText) });
  });

  it('keeps a declared charset even when the bytes do not fit it', () => {
    const decoded = decodeBody(bytesOf(cafeCp1252), 'text/plain; charset=utf-8');
    expect(decoded.charset).toBe('utf-8');
    expect(decoded.text).toContain('\uFFFD');
  });

  it('skips an unknown header label and uses the document declaration', () => {
    const page = bytesOf('<meta charset=shift_jis>', nihongoSjis);
    expect(decodeBody(page, 'text/html; charset=no-such-charset')).toMatchObject({ charset: 'shift_jis', text: expect.stringContaining('日本語') });
  });

  describe('byte order marks', () => {
    it('UTF-8 BOM wins over header and meta, and is stripped', () => {
      const page = bytesOf([0xef, 0xbb, 0xbf], '<meta charset="shift_jis">', [...new TextEncoder().encode('日本語')]);
      expect(decodeBody(page, 'text/html; charset=windows-1252')).toEqual({ text: '<meta charset="shift_jis">日本語', charset: 'utf-8' });
    });

    it('UTF-16LE and UTF-16BE BOMs', () => {
      const text = '<p>日本</p>';
      const le = [0xff, 0xfe, ...[...text].flatMap((char) => [char.charCodeAt(0) & 0xff, char.charCodeAt(0) >> 8])];
      const be = [0xfe, 0xff, ...[...text].flatMap((char) => [char.charCodeAt(0) >> 8, char.charCodeAt(0) & 0xff])];
      expect(decodeBody(Uint8Array.from(le), 'text/html')).toEqual({ text, charset: 'utf-16le' });
      expect(decodeBody(Uint8Array.from(be), null)).toEqual({ text, charset: 'utf-16be' });
    });
  });

  describe('meta prescan (WHATWG rules)', () => {
    it('ignores <meta> inside comments', () => {
      const page = bytesOf('<!-- <meta charset="shift_jis"> --><meta charset="windows-1251">');
      expect(decodeBody(page, 'text/html').charset).toBe('windows-1251');
    });

    it('skips attributes of other tags that look like a meta', () => {
      const page = bytesOf('<div title="<meta charset=shift_jis>"></div><meta charset=koi8-r>');
      expect(decodeBody(page, 'text/html').charset).toBe('koi8-r');
    });

    it('looks past the first 1024 bytes while the page is still in its head, as Chromium does', () => {
      const lateInHead = bytesOf(
        `<html><head><script>var a = 1 < 2 && "<div>";</script><!-- ${'x'.repeat(1100)} -->`,
        '<meta charset="shift_jis"></head><body>',
        nihongoSjis,
      );
      expect(decodeBody(lateInHead, 'text/html')).toMatchObject({ charset: 'shift_jis', text: expect.stringContaining('日本語') });
      const afterBodyContent = bytesOf(`<html><head></head><body><p>${'x'.repeat(1100)}</p>`, '<meta charset="shift_jis">', cafeCp1252);
      expect(decodeBody(afterBodyContent, 'text/html').charset).toBe('windows-1252');
      const afterHeadEnd = bytesOf(`<head><title>t</title></head><!-- ${'x'.repeat(1100)} -->`, '<meta charset="shift_jis">', cafeCp1252);
      expect(decodeBody(afterHeadEnd, 'text/html').charset).toBe('windows-1252');
    });

    it('reads the first 1024 bytes whatever they hold', () => {
      const page = bytesOf('<body><p>text</p><meta charset="koi8-r">');
      expect(decodeBody(page, 'text/html').charset).toBe('koi8-r');
    });

    it('maps a declared utf-16 to utf-8 and x-user-defined to windows-1252', () => {
      expect(decodeBody(bytesOf('<meta charset="utf-16">hi'), 'text/html').charset).toBe('utf-8');
      expect(decodeBody(bytesOf('<meta charset="x-user-defined">hi'), 'text/html').charset).toBe('windows-1252');
    });

    it('accepts unquoted values and self-closing tags', () => {
      expect(decodeBody(bytesOf('<meta charset=euc-jp />'), 'text/html').charset).toBe('euc-jp');
      // WHATWG reads an unquoted value up to a space or `>`: `euc-jp/` is no label.
      expect(decodeBody(bytesOf('<meta charset=euc-jp/>'), 'text/html').charset).toBe('utf-8');
      expect(decodeBody(bytesOf('<meta/charset="gb18030">'), 'text/html').charset).toBe('gb18030');
    });

    it('does not run for non-HTML types', () => {
      expect(decodeBody(bytesOf('<meta charset="shift_jis">ok'), 'text/plain').charset).toBe('utf-8');
    });
  });

  describe('XML declaration', () => {
    it('is used for XML types', () => {
      const page = bytesOf('<?xml version="1.0" encoding="Shift_JIS"?><r>', nihongoSjis, '</r>');
      expect(decodeBody(page, 'application/rss+xml')).toMatchObject({ charset: 'shift_jis', text: expect.stringContaining('日本語') });
      expect(decodeBody(page, 'text/xml').charset).toBe('shift_jis');
    });

    it('yields to the header charset', () => {
      const page = bytesOf("<?xml version='1.0' encoding='shift_jis'?><r>", cafeCp1252, '</r>');
      expect(decodeBody(page, 'application/xml; charset=windows-1252').charset).toBe('windows-1252');
    });
  });
});

describe('charsetFromMetaContent', () => {
  it.each([
    ['text/html; charset=utf-8', 'utf-8'],
    ['text/html;charset="Shift_JIS"', 'shift_jis'],
    ["text/html; charset = 'koi8-r' ", 'koi8-r'],
    ['text/html; charset=', null],
    ['text/html; charset="unterminated', null],
    ['text/html; charsetx; charset=big5', 'big5'],
    ['text/html', null],
  ])('%s -> %s', (content, expected) => {
    expect(charsetFromMetaContent(content)).toBe(expected);
  });
});

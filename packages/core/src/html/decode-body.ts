/**
 * Bytes to text with the right character encoding, the way browsers pick it (WHATWG Encoding and
 * HTML "determining the character encoding"), in this order:
 *
 * 1. a byte order mark (UTF-8, UTF-16LE, UTF-16BE);
 * 2. the `charset` parameter of the Content-Type header;
 * 3. the document's own declaration: for HTML the `<meta charset>` / `<meta http-equiv
 *    content-type>` prescan of the first 1024 bytes and of the rest of the `<head>` (as Chromium), for XML the `<?xml encoding?>` declaration;
 * 4. UTF-8, or windows-1252 when the bytes are not valid UTF-8 and nothing declared a charset.
 *
 * Labels are resolved by TextDecoder (WHATWG labels: `latin1` and `iso-8859-1` mean
 * windows-1252, `sjis` means shift_jis...); unknown labels are skipped. Pure.
 */

export interface DecodedBody {
  text: string;
  /** The encoding used, as TextDecoder names it: `utf-8`, `shift_jis`, `windows-1252`... */
  charset: string;
}

type Sniffer = (bytes: Uint8Array) => string | null;

const prescanLimit = 1024;

const boms: readonly [bytes: readonly number[], encoding: string][] = [
  [[0xef, 0xbb, 0xbf], 'utf-8'],
  [[0xfe, 0xff], 'utf-16be'],
  [[0xff, 0xfe], 'utf-16le'],
];

/** What a document may declare, by media type; anything else relies on the header and UTF-8. */
function sniffersFor(mediaType: string | null): readonly Sniffer[] {
  if (mediaType === null || mediaType === '') return [metaPrescan, xmlDeclaration];
  if (mediaType === 'text/html') return [metaPrescan];
  if (mediaType === 'application/xhtml+xml') return [xmlDeclaration, metaPrescan];
  if (mediaType === 'text/xml' || mediaType === 'application/xml' || mediaType.endsWith('+xml')) return [xmlDeclaration];
  return [];
}

/** TextDecoder's name for a label, or null when it knows no such encoding. */
function encodingOf(label: string): string | null {
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return null;
  }
}

/** A declaration inside the document cannot mean UTF-16 (it was read as ASCII), per WHATWG. */
function fromDocument(label: string | null): string | null {
  const encoding = label === null ? null : label.trim().toLowerCase() === 'x-user-defined' ? 'windows-1252' : encodingOf(label);
  return encoding === 'utf-16le' || encoding === 'utf-16be' ? 'utf-8' : encoding;
}

function bomEncoding(bytes: Uint8Array): string | null {
  const match = boms.find(([bom]) => bom.every((byte, index) => bytes[index] === byte));
  return match ? match[1] : null;
}

function parseContentType(contentType: string | null): { mediaType: string | null; charset: string | null } {
  if (contentType === null) return { mediaType: null, charset: null };
  const [mediaType = '', ...parameters] = contentType.split(';');
  const charsetParameter = parameters.map((parameter) => /^\s*charset\s*=\s*(?:"([^"]*)"|([^\s"]*))/i.exec(parameter)).find((match) => match !== null);
  const label = charsetParameter ? (charsetParameter[1] ?? charsetParameter[2] ?? '') : '';
  return { mediaType: mediaType.trim().toLowerCase(), charset: label === '' ? null : encodingOf(label) };
}

// --- WHATWG "prescan a byte stream to determine its encoding" -------------------------------

const isSpace = (byte: number | undefined): boolean => byte === 0x09 || byte === 0x0a || byte === 0x0c || byte === 0x0d || byte === 0x20;
const isLetter = (byte: number | undefined): boolean => byte !== undefined && ((byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a));
const lower = (byte: number): string => String.fromCharCode(byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte);

function startsWithAt(bytes: Uint8Array, position: number, text: string, ignoreCase = false): boolean {
  for (let index = 0; index < text.length; index++) {
    const byte = bytes[position + index];
    if (byte === undefined) return false;
    const char = ignoreCase ? lower(byte) : String.fromCharCode(byte);
    if (char !== text[index]) return false;
  }
  return true;
}

interface Attribute {
  name: string;
  value: string;
  next: number;
}

/** Attribute names a `<meta>` is read for; a longer name is none of them and is not spelled out. */
const metaAttributeNames: ReadonlySet<string> = new Set(['http-equiv', 'content', 'charset']);
const longestMetaAttributeName = 10;

/** A `<meta>` attribute value is read up to this many bytes (a content type or a label is short). */
const longestMetaValue = 1024;

/** Bytes `start`..`end` as text, one char per byte, ASCII letters lower-cased (WHATWG's prescan reading). */
function lowerText(bytes: Uint8Array, start: number, end: number): string {
  let text = '';
  for (let position = start; position < end; position++) text += lower(bytes[position]!);
  return text;
}

/**
 * WHATWG "get an attribute": the next attribute from `start`, or null at `>` or the end. Its name
 * and value are spelled out only when `spell` is set (a `<meta>`), and the value only for the
 * names a `<meta>` is read for: the prescan walks a whole `<head>`, whose other tags may carry
 * attributes of megabytes (a data URL), and only their end is needed.
 */
function readAttribute(bytes: Uint8Array, start: number, end: number, spell = false): Attribute | null {
  let position = start;
  while (position < end && (isSpace(bytes[position]) || bytes[position] === 0x2f)) position++;
  if (position >= end || bytes[position] === 0x3e) return null;
  const nameStart = position;
  let nameEnd = position;
  let valueStart = 0;
  let valueEnd = 0;
  const attribute = (next: number): Attribute => {
    if (!spell) return { name: '', value: '', next };
    const name = nameEnd - nameStart > longestMetaAttributeName ? '' : lowerText(bytes, nameStart, nameEnd);
    const value = metaAttributeNames.has(name) ? lowerText(bytes, valueStart, Math.min(valueEnd, valueStart + longestMetaValue)) : '';
    return { name, value, next };
  };
  for (;;) {
    if (position >= end) return null;
    const byte = bytes[position]!;
    if (byte === 0x3d && position > nameStart) {
      nameEnd = position;
      position++;
      break;
    }
    if (isSpace(byte)) {
      nameEnd = position;
      while (position < end && isSpace(bytes[position])) position++;
      if (bytes[position] !== 0x3d) return attribute(position);
      position++;
      break;
    }
    if (byte === 0x2f || byte === 0x3e) {
      nameEnd = position;
      return attribute(position);
    }
    position++;
  }
  while (position < end && isSpace(bytes[position])) position++;
  const quote = bytes[position];
  if (quote === 0x22 || quote === 0x27) {
    valueStart = position + 1;
    const close = bytes.indexOf(quote, valueStart);
    if (close === -1 || close >= end) return null;
    valueEnd = close;
    return attribute(close + 1);
  }
  if (quote === 0x3e) return attribute(position);
  valueStart = position;
  for (; position < end; position++) {
    const byte = bytes[position]!;
    if (isSpace(byte) || byte === 0x3e) {
      valueEnd = position;
      return attribute(position);
    }
  }
  return null;
}

/** WHATWG "extract a character encoding from a meta element" (the `content` attribute). */
export function charsetFromMetaContent(content: string): string | null {
  const text = content.toLowerCase();
  for (let position = 0; ; ) {
    const found = text.indexOf('charset', position);
    if (found === -1) return null;
    position = found + 'charset'.length;
    while (/\s/.test(text[position] ?? '')) position++;
    if (text[position] !== '=') continue;
    position++;
    while (/\s/.test(text[position] ?? '')) position++;
    const quote = text[position];
    if (quote === '"' || quote === "'") {
      const close = text.indexOf(quote, position + 1);
      return close === -1 ? null : text.slice(position + 1, close);
    }
    const rest = /^[^\s;]+/.exec(text.slice(position));
    return rest ? rest[0] : null;
  }
}

/** The charset a `<meta>` tag's attributes declare, or null (WHATWG need-pragma rules). */
function metaCharset(bytes: Uint8Array, start: number, end: number): { charset: string | null; next: number } {
  const seen = new Set<string>();
  let hasPragma = false;
  let needsPragma: boolean | null = null;
  let charset: string | null = null;
  let position = start;
  for (let attribute = readAttribute(bytes, position, end, true); attribute; attribute = readAttribute(bytes, position, end, true)) {
    position = attribute.next;
    if (attribute.name === '') continue;
    if (seen.has(attribute.name)) continue;
    seen.add(attribute.name);
    if (attribute.name === 'http-equiv' && attribute.value === 'content-type') hasPragma = true;
    if (attribute.name === 'content' && charset === null) {
      const declared = charsetFromMetaContent(attribute.value);
      if (declared !== null) {
        charset = fromDocument(declared);
        needsPragma = true;
      }
    }
    if (attribute.name === 'charset') {
      charset = fromDocument(attribute.value);
      needsPragma = false;
    }
  }
  const isDeclared = needsPragma === false || (needsPragma === true && hasPragma);
  return { charset: isDeclared ? charset : null, next: position };
}

/** Skips a tag's attributes (for tags other than `<meta>`), returning the position after them. */
function skipTag(bytes: Uint8Array, start: number, end: number): number {
  let position = start;
  while (position < end && !isSpace(bytes[position]) && bytes[position] !== 0x3e) position++;
  for (let attribute = readAttribute(bytes, position, end); attribute; attribute = readAttribute(bytes, position, end)) {
    position = attribute.next;
  }
  return position;
}

/** Tags that may stand in a page's `<head>`: while only these are met, the head goes on (Chromium's list). */
const headTagNames: ReadonlySet<string> = new Set(['script', 'noscript', 'style', 'link', 'meta', 'object', 'title', 'base']);
/** Elements whose text is not markup: a `<` inside them opens no tag. */
const rawTextTagNames: ReadonlySet<string> = new Set(['script', 'style', 'title', 'textarea', 'xmp', 'iframe', 'noembed', 'noframes']);

/**
 * The WHATWG prescan for `<meta charset>` / `<meta http-equiv>`: the first 1024 bytes always, and
 * past them for as long as the page is still in its `<head>` (only head tags met so far), as
 * Chromium reads it. A page that declares its charset late in a long head (1,222 bytes in, after
 * consent-manager scripts and comments) is then read in its own charset, as a browser shows it,
 * rather than as windows-1252; the HTML parser's "change the encoding" step reaches the same
 * charset in a browser. The text of scripts and styles is skipped (a `<` there opens no tag).
 */
function metaPrescan(bytes: Uint8Array): string | null {
  const end = bytes.length;
  let inHead = true;
  for (let position = bytes.indexOf(0x3c); position !== -1 && position < end; position = bytes.indexOf(0x3c, position + 1)) {
    if (position >= prescanLimit && !inHead) return null;
    if (startsWithAt(bytes, position, '<!--')) {
      const close = findSequence(bytes, position + 2, end, '-->');
      if (close === -1) return null;
      position = close + 2;
    } else if (startsWithAt(bytes, position, '<meta', true) && (isSpace(bytes[position + 5]) || bytes[position + 5] === 0x2f)) {
      const { charset, next } = metaCharset(bytes, position + 5, end);
      if (charset !== null) return charset;
      position = next;
    } else if (bytes[position] === 0x3c && (isLetter(bytes[position + 1]) || (bytes[position + 1] === 0x2f && isLetter(bytes[position + 2])))) {
      const isEndTag = bytes[position + 1] === 0x2f;
      const name = tagNameAt(bytes, position + (isEndTag ? 2 : 1));
      position = skipTag(bytes, position + 1, end);
      if (!headTagNames.has(name) && (isEndTag || (name !== 'html' && name !== 'head'))) inHead = false;
      if (!isEndTag && rawTextTagNames.has(name)) {
        const close = findTagEnd(bytes, position, end, name);
        if (close === -1) return null;
        position = close;
      }
    } else if (startsWithAt(bytes, position, '<!') || startsWithAt(bytes, position, '</') || startsWithAt(bytes, position, '<?')) {
      const close = findSequence(bytes, position + 2, end, '>');
      if (close === -1) return null;
      position = close;
    }
  }
  return null;
}

/** The lower-case tag name at `start` (letters and digits). */
function tagNameAt(bytes: Uint8Array, start: number): string {
  let name = '';
  for (let position = start; position < bytes.length; position++) {
    const byte = bytes[position]!;
    if (!isLetter(byte) && !(byte >= 0x30 && byte <= 0x39)) break;
    name += lower(byte);
  }
  return name;
}

/** The position of the `</name` that closes a raw-text element's text (any case), or -1. */
function findTagEnd(bytes: Uint8Array, from: number, end: number, name: string): number {
  for (let position = bytes.indexOf(0x3c, from); position !== -1 && position < end; position = bytes.indexOf(0x3c, position + 1)) {
    if (bytes[position + 1] === 0x2f && startsWithAt(bytes, position + 2, name, true)) return position;
  }
  return -1;
}

function findSequence(bytes: Uint8Array, from: number, end: number, text: string): number {
  for (let position = from; position + text.length <= end; position++) {
    if (startsWithAt(bytes, position, text)) return position;
  }
  return -1;
}

/** `<?xml version="1.0" encoding="..."?>` at the start of the document. */
function xmlDeclaration(bytes: Uint8Array): string | null {
  const head = String.fromCharCode(...bytes.subarray(0, Math.min(bytes.length, prescanLimit)));
  const match = /^<\?xml\s[^>]*?\bencoding\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(head);
  return match ? fromDocument(match[1] ?? match[2] ?? '') : null;
}

/**
 * WHATWG windows-1252 for bytes 0x80-0x9F. Node 20's TextDecoder decodes windows-1252 (and so the
 * `latin1`, `iso-8859-1` and `ascii` labels) as ISO-8859-1, leaving C1 controls where `€ “ ” –`
 * belong (nodejs/node#56542); they are mapped here. A fixed Node leaves only the five C1 bytes
 * windows-1252 keeps, which map to themselves.
 */
const windows1252C1 =
  '\u20ac\x81\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\x8d\u017d\x8f' +
  '\x90\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\x9d\u017e\u0178';

function decode(bytes: Uint8Array, charset: string): DecodedBody {
  const text = new TextDecoder(charset).decode(bytes);
  if (charset !== 'windows-1252') return { text, charset };
  return { text: text.replace(/[\x80-\x9f]/g, (char) => windows1252C1[char.charCodeAt(0) - 0x80]!), charset };
}

/**
 * Decodes a response body. `contentType` is the Content-Type header as received (null when
 * absent). The header's charset wins over the document's own declaration; a BOM wins over both.
 */
export function decodeBody(bytes: Uint8Array, contentType: string | null): DecodedBody {
  const bom = bomEncoding(bytes);
  if (bom) return decode(bytes, bom);
  const { mediaType, charset } = parseContentType(contentType);
  if (charset) return decode(bytes, charset);
  for (const sniff of sniffersFor(mediaType)) {
    const declared = sniff(bytes);
    if (declared) return decode(bytes, declared);
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), charset: 'utf-8' };
  } catch {
    return decode(bytes, 'windows-1252');
  }
}

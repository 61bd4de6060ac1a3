/**
 * Decodes raw page bytes to a string the way a browser picks the encoding: a byte order mark first,
 * then a charset declared in the first bytes (`<meta charset>`, `<meta http-equiv="content-type">`,
 * or an XML declaration), then UTF-8 when the bytes are valid UTF-8, else windows-1252 (the web's
 * default for undeclared legacy pages).
 */

/** How many leading bytes are scanned for a declaration (browsers scan 1024; real pages put it later). */
const prescanBytes = 4096;

const metaCharsetPattern = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i;
const xmlDeclarationPattern = /^<\?xml[^>]+encoding\s*=\s*["']([\w.:-]+)/i;

/** Labels that the HTML standard maps to another decoder when declared in a page. */
const labelOverrides: Record<string, string> = {
  'utf-16': 'utf-8',
  'utf-16le': 'utf-8',
  'utf-16be': 'utf-8',
  'x-user-defined': 'windows-1252',
};

export function decodeHtml(bytes: Uint8Array): string {
  const bom = encodingFromBom(bytes);
  if (bom) return new TextDecoder(bom).decode(bytes.subarray(bom === 'utf-8' ? 3 : 2));
  const declared = declaredEncoding(bytes);
  if (declared) return new TextDecoder(declared).decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

function encodingFromBom(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

function declaredEncoding(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder('windows-1252').decode(bytes.subarray(0, prescanBytes));
  const label = (metaCharsetPattern.exec(head) ?? xmlDeclarationPattern.exec(head))?.[1]?.toLowerCase();
  if (!label) return undefined;
  const mapped = labelOverrides[label] ?? label;
  try {
    return new TextDecoder(mapped).encoding;
  } catch {
    return undefined;
  }
}

const magic = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

/** Bytes that may precede the header in real-world files: a UTF-8 BOM, whitespace, NUL. */
const skippable = new Set([0xef, 0xbb, 0xbf, 0x09, 0x0a, 0x0d, 0x20, 0x00]);

/**
 * Whether the bytes start with the PDF header `%PDF-`, after at most 16 bytes of BOM, whitespace
 * or NUL padding. Strict on purpose: an HTML page that mentions "%PDF-" is not a PDF.
 */
export function isPdf(bytes: Uint8Array): boolean {
  let start = 0;
  while (start < 16 && start < bytes.length && skippable.has(bytes[start] as number)) start++;
  return magic.every((byte, index) => bytes[start + index] === byte);
}

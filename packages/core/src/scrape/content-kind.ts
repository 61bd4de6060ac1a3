import { officeKindOfZip, officeMediaTypes, type OfficeKind } from '../documents/document-kind.js';
import { isZip } from '../documents/zip-entries.js';

/** What a response body is, from its Content-Type and, when that is missing or vague, its first bytes. */
export type ContentKind = 'html' | 'pdf' | 'json' | 'text' | 'xml' | OfficeKind | 'unsupported';

const byMediaType: Array<[RegExp, ContentKind]> = [
  [/^application\/pdf$/, 'pdf'],
  [/^(text\/html|application\/xhtml\+xml)$/, 'html'],
  [/^(application\/(ld\+)?json|application\/[\w.+-]+\+json|text\/json)$/, 'json'],
  [/^(application\/(rss\+|atom\+)?xml|text\/xml|application\/[\w.+-]+\+xml)$/, 'xml'],
  [/^text\/(plain|markdown|x-markdown|tab-separated-values|css|javascript)$/, 'text'],
];

export function contentKindOf(contentType: string | null, body: Uint8Array): ContentKind {
  if (startsWith(body, '%PDF-')) return 'pdf';
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  for (const [pattern, kind] of byMediaType) if (pattern.test(mediaType)) return kind;
  const office = officeMediaTypes[mediaType];
  if (office) return office;
  if (isZip(body) && (mediaType === '' || mediaType === 'application/octet-stream' || mediaType === 'application/zip'))
    return officeKindOfZip(body) ?? 'unsupported';
  if (mediaType === '' || mediaType === 'application/octet-stream' || mediaType === 'text/x-unknown') return sniff(body);
  return 'unsupported';
}

function sniff(body: Uint8Array): ContentKind {
  const head = new TextDecoder()
    .decode(body.subarray(0, 512))
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (head.startsWith('<?xml') && !head.includes('<html')) return 'xml';
  if (head.startsWith('<')) return 'html';
  if (head.startsWith('{') || head.startsWith('[')) return 'json';
  return body.length === 0 ? 'html' : 'text';
}

function startsWith(body: Uint8Array, prefix: string): boolean {
  if (body.length < prefix.length) return false;
  for (let index = 0; index < prefix.length; index++) if (body[index] !== prefix.charCodeAt(index)) return false;
  return true;
}

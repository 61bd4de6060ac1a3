import { createRequire } from 'node:module';
import { TargetError } from '../errors.js';

/**
 * The entries of a zip container (DOCX, XLSX, PPTX and ODF files are zips of XML) that `wanted`
 * names, decompressed. Refuses before inflating when the wanted entries would expand past
 * `maxBytes` (a zip bomb), and answers TargetError kind `parse` when the bytes are no zip.
 */
export const maxExpandedBytes = 200 * 1024 * 1024;

/**
 * fflate loads on the first zip read (office documents), not with the engine: every `quarry`
 * command imports the engine and few read a zip (issue 14, sixth pass).
 */
let fflate: typeof import('fflate') | undefined;
function unzipSync(...args: Parameters<typeof import('fflate').unzipSync>): ReturnType<typeof import('fflate').unzipSync> {
  fflate ??= createRequire(import.meta.url)('fflate') as typeof import('fflate');
  return fflate.unzipSync(...args);
}

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

export function zipEntries(bytes: Uint8Array, wanted: (name: string) => boolean, maxBytes = maxExpandedBytes): Map<string, Uint8Array> {
  let expanded = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (file) => {
        if (!wanted(file.name)) return false;
        expanded += file.originalSize;
        if (expanded > maxBytes) throw new TargetError('too-large', `The document expands to more than ${maxBytes} bytes`);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof TargetError) throw error;
    throw new TargetError('parse', `The file is not a readable zip container: ${(error as Error).message}`, { cause: error });
  }
  return new Map(Object.entries(files));
}

/** The names of the entries, without decompressing any. */
export function zipNames(bytes: Uint8Array): string[] {
  const names: string[] = [];
  try {
    unzipSync(bytes, {
      filter: (file) => {
        names.push(file.name);
        return false;
      },
    });
  } catch {
    return names;
  }
  return names;
}

export const utf8 = (bytes: Uint8Array | undefined) => (bytes ? new TextDecoder().decode(bytes) : '');

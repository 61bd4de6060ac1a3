import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API key secrets: `fc-` and 40 random hex characters (160 bits), the shape Firecrawl clients
 * expect. Only the SHA-256 hash is stored: the key has far too much entropy for a guess to find it,
 * so a slow password hash would add nothing but latency to every request.
 */
export const apiKeyPattern = /^fc-[0-9a-f]{40}$/;

export function newApiKey(): string {
  return `fc-${randomBytes(20).toString('hex')}`;
}

export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** Compares two hashes in constant time. */
export function hashesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && timingSafeEqual(a, b);
}

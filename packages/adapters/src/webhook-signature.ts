/**
 * Webhook signatures, as Firecrawl sends them: `sha256=<hex HMAC-SHA256 of the exact raw body>`
 * under the team's webhook secret, in `X-Quarry-Signature` and `X-Firecrawl-Signature`.
 * A receiver recomputes the HMAC over the bytes it received (before any JSON parsing) and
 * compares with `verifyWebhookSignature`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const prefix = 'sha256=';

/** `sha256=<hex>` for `body` (a string is signed as its UTF-8 bytes). */
export function signWebhookBody(body: string | Uint8Array, secret: string): string {
  return prefix + createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Whether `signature` (the header value; an array takes its first item) is the signature of
 * `body` under `secret`. Compares in constant time; a missing or malformed header is false.
 */
export function verifyWebhookSignature(body: string | Uint8Array, secret: string, signature: string | string[] | undefined): boolean {
  const value = Array.isArray(signature) ? signature[0] : signature;
  if (!value) return false;
  const expected = Buffer.from(signWebhookBody(body, secret));
  const received = Buffer.from(value.trim().toLowerCase());
  return received.length === expected.length && timingSafeEqual(received, expected);
}

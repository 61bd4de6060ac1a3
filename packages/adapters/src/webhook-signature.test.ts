import { describe, expect, it } from 'vitest';
import { signWebhookBody, verifyWebhookSignature } from './webhook-signature.js';

describe('webhook signatures', () => {
  const body = '{"success":true,"type":"crawl.page","data":[{"markdown":"# “ü”"}]}';

  it('signs the raw UTF-8 body as sha256=<hex HMAC-SHA256>', () => {
    // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?".
    expect(signWebhookBody('what do ya want for nothing?', 'Jefe')).toBe('sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
    expect(signWebhookBody(Buffer.from(body, 'utf8'), 'secret')).toBe(signWebhookBody(body, 'secret'));
  });

  it('verifies its own signature, and nothing else', () => {
    const signature = signWebhookBody(body, 'secret');
    expect(verifyWebhookSignature(body, 'secret', signature)).toBe(true);
    expect(verifyWebhookSignature(body, 'secret', [signature.toUpperCase().replace('SHA256=', 'sha256=')])).toBe(true);
    expect(verifyWebhookSignature(body, 'other', signature)).toBe(false);
    expect(verifyWebhookSignature(`${body} `, 'secret', signature)).toBe(false);
    expect(verifyWebhookSignature(body, 'secret', signature.slice(0, -1))).toBe(false);
    expect(verifyWebhookSignature(body, 'secret', undefined)).toBe(false);
    expect(verifyWebhookSignature(body, 'secret', 'sha1=abc')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { checkWebhookUrl } from './webhook-url.js';

function issuesOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues;
  }
  throw new Error('expected a ValidationError');
}

describe('checkWebhookUrl', () => {
  it('accepts https, and http only when allowed', () => {
    expect(checkWebhookUrl('https://hooks.example/quarry?x=1', { allowHttp: false }).href).toBe('https://hooks.example/quarry?x=1');
    expect(checkWebhookUrl('http://hooks.example/in', { allowHttp: true }).protocol).toBe('http:');
  });

  it('refuses http unless allowed, saying how to allow it', () => {
    expect(issuesOf(() => checkWebhookUrl('http://hooks.example/in', { allowHttp: false }))).toEqual([
      {
        field: 'webhook.url',
        message: '`webhook.url`: webhook URLs must use https; allow http with QUARRY_WEBHOOK_ALLOW_HTTP=true; got "http://hooks.example/in"',
      },
    ]);
  });

  it('refuses what is not a URL, and other schemes, naming the field', () => {
    expect(issuesOf(() => checkWebhookUrl('hooks.example/in', { allowHttp: true, field: 'webhook' }))).toEqual([
      { field: 'webhook', message: '`webhook` must be an absolute http(s) URL; got "hooks.example/in"' },
    ]);
    expect(issuesOf(() => checkWebhookUrl('ftp://hooks.example/in', { allowHttp: true }))).toEqual([
      { field: 'webhook.url', message: '`webhook.url` must be an http: or https: URL; got ftp: in "ftp://hooks.example/in"' },
    ]);
  });

  it('quotes at most 200 characters of a long URL', () => {
    const [issue] = issuesOf(() => checkWebhookUrl(`http://${'a'.repeat(300)}.example/`, { allowHttp: false }));
    expect(issue!.message.length).toBeLessThan(320);
  });
});

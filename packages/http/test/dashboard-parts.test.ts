import { describe, expect, it } from 'vitest';
import { curlSnippet, javascriptSnippet, pythonSnippet } from '../src/dashboard/code-snippets.js';
import { renderMarkdown, screenshotSource } from '../src/dashboard/document-view.js';
import { html, trustedHtml } from '../src/dashboard/html.js';
import { SessionSigner, type DashboardSession } from '../src/dashboard/session-cookie.js';
import { parseCredits } from '../src/dashboard/admin-pages.js';
import { summarize } from '../src/dashboard/usage-view.js';

/** The dashboard's pure parts: escaping, signed sessions, usage per day, snippets, page rendering. */
describe('html templates', () => {
  it('escapes every interpolated value, in arrays too, and passes only Html through', () => {
    const name = `<script>alert("x")</script>&'`;
    expect(html`<p title="${name}">${name}</p>`.text).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</p>',
    );
    expect(html`<ul>${['<a>', html`<li>b</li>`]}</ul>`.text).toBe('<ul>&lt;a&gt;<li>b</li></ul>');
    expect(html`${null}${undefined}${false}${0}${trustedHtml('<br>')}`.text).toBe('0<br>');
  });
});

describe('session cookies', () => {
  const session: DashboardSession = { role: 'team', id: 's1', expiresAt: 2_000, teamId: 'acme', keyId: 'k1' };
  const signer = new SessionSigner(Buffer.alloc(32, 7));

  it('opens what it sealed until it expires', () => {
    const sealed = signer.seal(session);
    expect(signer.open(sealed, 1_000)).toEqual(session);
    expect(signer.open(sealed, 2_000)).toBeUndefined();
  });

  it('refuses changed payloads, another key, and garbage', () => {
    const [payload, signature] = signer.seal(session).split('.');
    const changed = Buffer.from(JSON.stringify({ ...session, teamId: 'other' })).toString('base64url');
    expect(signer.open(`${changed}.${signature}`, 1_000)).toBeUndefined();
    expect(new SessionSigner(Buffer.alloc(32, 8)).open(`${payload}.${signature}`, 1_000)).toBeUndefined();
    for (const garbage of ['', '.', 'a.b.c', `${payload}.`, `${payload}.${signature}.x`]) expect(signer.open(garbage, 1_000)).toBeUndefined();
  });

  it('derives a CSRF token per session', () => {
    expect(signer.csrfToken(session)).toBe(signer.csrfToken({ ...session }));
    expect(signer.csrfToken(session)).not.toBe(signer.csrfToken({ ...session, id: 's2' }));
  });
});

describe('usage per day', () => {
  it('fills 30 UTC days, adds up per day and per endpoint kind, and ignores days outside the window', () => {
    const firstDay = Date.UTC(2024, 0, 1);
    const usage = summarize(
      [
        { day: '2024-01-01', kind: 'credits', reason: 'scrape', amount: 2 },
        { day: '2024-01-01', kind: 'credits', reason: 'page', amount: 5 },
        { day: '2024-01-03', kind: 'tokens', reason: 'extract', amount: 700 },
        { day: '2024-01-30', kind: 'credits', reason: 'page', amount: 1 },
      ],
      firstDay,
    );
    expect(usage.days).toHaveLength(30);
    expect(usage.days[0]).toEqual({ day: '2024-01-01', credits: 7, tokens: 0 });
    expect(usage.days[2]).toEqual({ day: '2024-01-03', credits: 0, tokens: 700 });
    expect(usage.days[29]).toEqual({ day: '2024-01-30', credits: 1, tokens: 0 });
    expect(usage.byReason).toEqual([
      { reason: 'page', credits: 6, tokens: 0 },
      { reason: 'scrape', credits: 2, tokens: 0 },
      { reason: 'extract', credits: 0, tokens: 700 },
    ]);
    expect([usage.credits, usage.tokens]).toEqual([8, 700]);
  });
});

describe('forms', () => {
  it('reads credits as a whole number, or unlimited when empty', () => {
    expect(parseCredits('1,000')).toBe(1_000);
    expect(parseCredits('')).toBeNull();
    expect(parseCredits('unlimited')).toBeNull();
    expect(() => parseCredits('-3')).toThrow('`credits` must be a whole number >= 0');
    expect(() => parseCredits('1.5')).toThrow();
  });
});

describe('code snippets', () => {
  const request = { baseUrl: 'http://127.0.0.1:3002', url: "https://example.com/it's", formats: ['markdown', 'links'], onlyMainContent: false };

  it('quotes the body for a POSIX shell and reads the key from the environment', () => {
    expect(curlSnippet(request)).toBe(
      [
        `curl -X POST 'http://127.0.0.1:3002/v2/scrape' \\`,
        `  -H "Authorization: Bearer $QUARRY_API_KEY" \\`,
        `  -H 'Content-Type: application/json' \\`,
        `  -d '{"url":"https://example.com/it'\\''s","formats":["markdown","links"],"onlyMainContent":false}'`,
      ].join('\n'),
    );
  });

  it('writes the SDK calls with this server as the API URL', () => {
    expect(javascriptSnippet(request)).toContain(`apiUrl: "http://127.0.0.1:3002"`);
    expect(javascriptSnippet(request)).toContain(`firecrawl.scrape("https://example.com/it's", {"formats":["markdown","links"],"onlyMainContent":false})`);
    expect(pythonSnippet(request)).toContain(`formats=["markdown", "links"], only_main_content=False)`);
  });
});

describe('page rendering', () => {
  it('renders GitHub-flavoured markdown without letting the page inject markup or script links', () => {
    const rendered = renderMarkdown('# Title\n\n<img src=x onerror=alert(1)>\n\n[click](javascript:alert(1))\n\n| a |\n|---|\n| b |').text;
    expect(rendered).toContain('<h1>Title</h1>');
    expect(rendered).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(rendered).toContain('<a href="">click</a>');
    expect(rendered).toContain('<table>');
  });

  it('shows only same-origin blob screenshots and image data URLs', () => {
    expect(screenshotSource(`http://0.0.0.0:3002/v2/blobs/${'a'.repeat(32)}`)).toBe(`/v2/blobs/${'a'.repeat(32)}`);
    expect(screenshotSource('data:image/png;base64,AAAA')).toBe('data:image/png;base64,AAAA');
    expect(screenshotSource('https://evil.example/track.png')).toBeUndefined();
    expect(screenshotSource('javascript:alert(1)')).toBeUndefined();
    expect(screenshotSource(undefined)).toBeUndefined();
  });
});

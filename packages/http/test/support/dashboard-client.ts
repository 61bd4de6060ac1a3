/**
 * A cookie-keeping HTTP client of the dashboard, for tests that speak to it without a browser:
 * signs in through the real form (with its double-submit token) and posts forms with the
 * session's CSRF token, or with whatever a test wants to forge.
 */
export class DashboardClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly base: string) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(`${this.base}${path}`, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index);
      const value = pair!.slice(index + 1);
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  async page(path: string): Promise<{ status: number; text: string; response: Response }> {
    const response = await this.request(path, { headers: { 'sec-fetch-site': 'same-origin' } });
    return { status: response.status, text: await response.text(), response };
  }

  /** Posts a form as a browser on the dashboard's own page would, unless `headers` say otherwise. */
  async post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: this.base, 'sec-fetch-site': 'same-origin', ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }

  async signIn(secret: string): Promise<Response> {
    const form = await this.page('/dashboard/login');
    return this.post('/dashboard/login', { _csrf: csrfOf(form.text), secret });
  }

  /** The CSRF token of the signed-in session, read from a page's sign-out form. */
  async csrf(): Promise<string> {
    return csrfOf((await this.page('/dashboard/keys')).text || (await this.page('/dashboard/admin')).text);
  }
}

export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('No CSRF field on the page');
  return match[1]!;
}

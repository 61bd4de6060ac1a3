import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DashboardAuth } from './dashboard-auth.js';
import { html } from './html.js';
import { notice, renderPage } from './layout.js';
import { formText, requireCsrfToken, requireSameOrigin } from './request-guards.js';
import { clearCookie, newNonce, readCookie, sessionCookie, sessionLifetimeMs, setCookie, signInCookie } from './session-cookie.js';

/**
 * Sign-in with the admin token or a team's API key (one field: keys start with `fc-`), and
 * sign-out. The sign-in form has no session yet, so its CSRF token is a double-submit nonce kept in
 * its own SameSite=Strict cookie. Attempts are rate limited per client address at the `crawl` rate
 * (15 a minute by default).
 */
export function signInPages(scope: FastifyInstance, auth: DashboardAuth): void {
  scope.get('/', async (request, reply) => {
    const session = await auth.sessionOf(request);
    const home = !session ? '/dashboard/login' : session.role === 'admin' ? '/dashboard/admin' : '/dashboard/usage';
    return reply.redirect(home, 303);
  });

  scope.get('/login', async (request, reply) => {
    if (await auth.sessionOf(request)) return reply.redirect('/dashboard', 303);
    const nonce = newNonce();
    setCookie(request, reply, signInCookie, nonce, 3_600);
    return sendSignIn(reply, nonce, undefined);
  });

  scope.post('/login', async (request, reply) => {
    requireSameOrigin(request);
    const nonce = readCookie(request, signInCookie) ?? '';
    if (!nonce) return reply.redirect('/dashboard/login', 303);
    requireCsrfToken(request, nonce);
    await auth.services.rateLimiter.consume(`dashboard-sign-in:${request.ip}`, 'crawl');
    const session = await auth.signIn(formText(request, 'secret'));
    if (!session) return sendSignIn(reply.status(401), nonce, 'That is not a valid admin token or API key (revoked keys no longer sign in).');
    clearCookie(request, reply, signInCookie);
    setCookie(request, reply, sessionCookie, auth.seal(session), Math.floor(sessionLifetimeMs / 1000));
    return reply.redirect('/dashboard', 303);
  });

  scope.post('/logout', async (request: FastifyRequest, reply: FastifyReply) => {
    requireSameOrigin(request);
    const session = await auth.sessionOf(request);
    if (session) {
      requireCsrfToken(request, auth.csrfOf(session));
      await auth.signOut(session);
    }
    clearCookie(request, reply, sessionCookie);
    return reply.redirect('/dashboard/login', 303);
  });
}

function sendSignIn(reply: FastifyReply, nonce: string, error: string | undefined) {
  const body = html`
${error ? notice('error', error) : ''}
<form class="stack card" method="post" action="/dashboard/login">
  <input type="hidden" name="_csrf" value="${nonce}">
  <div class="field">
    <label for="secret">Admin token or API key</label>
    <span class="hint" id="secret-hint">The operator's admin token opens the admin view; a team's API key (fc-…) opens that team's view.</span>
    <input id="secret" name="secret" type="password" autocomplete="current-password" required aria-describedby="secret-hint" autofocus>
  </div>
  <div><button type="submit">Sign in</button></div>
</form>`;
  return reply.type('text/html; charset=utf-8').send(renderPage({ title: 'Sign in' }, body));
}

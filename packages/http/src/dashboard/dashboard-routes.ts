import { NotFoundError, ValidationError } from '@quarry/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { logFailure, toHttpError } from '../errors/to-http.js';
import type { Services } from '../server/services.js';
import { adminPages } from './admin-pages.js';
import { assetRoutes } from './assets.js';
import { DashboardAuth } from './dashboard-auth.js';
import { html } from './html.js';
import { jobDetailPages } from './job-detail-pages.js';
import { jobsPages } from './jobs-pages.js';
import { keysPages } from './keys-pages.js';
import { renderPage } from './layout.js';
import { playgroundTools } from './playground-tools.js';
import { playgroundPages } from './playground-pages.js';
import { signInPages } from './sign-in-pages.js';
import { usagePages } from './usage-pages.js';

/**
 * The dashboard at /dashboard, served by the API server itself: server-rendered pages, one small
 * script and one stylesheet compiled into the bundle, forms posted as
 * application/x-www-form-urlencoded (parsed only inside this scope). Every response forbids
 * framing and caching and allows scripts, styles and images only from this origin.
 */
const securityHeaders: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

export function dashboardRoutes(app: FastifyInstance, services: Services): void {
  const auth = new DashboardAuth(services);
  app.addHook('onReady', async () => auth.prepare(app.log));
  app.register(
    async (scope) => {
      scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
        done(null, new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8')));
      });
      scope.addHook('onSend', async (_request, reply, payload) => {
        void reply.headers(securityHeaders);
        if (!reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
        return payload;
      });
      scope.setErrorHandler((error: FastifyError, request, reply) => sendError(error, request, reply));
      scope.setNotFoundHandler((request, reply) => sendError(new NotFoundError('No such page in the dashboard'), request, reply));

      assetRoutes(scope);
      signInPages(scope, auth);
      adminPages(scope, auth);
      usagePages(scope, auth);
      keysPages(scope, auth);
      jobsPages(scope, auth);
      jobDetailPages(scope, auth);
      playgroundPages(scope, auth);
      playgroundTools(scope, auth);
    },
    { prefix: '/dashboard' },
  );
}

function sendError(error: Error & { statusCode?: number }, request: FastifyRequest, reply: FastifyReply) {
  // Fastify's own errors (unreadable or too large bodies, unknown content types) are bad input too.
  const isBadInput = error.statusCode === 400 || error.statusCode === 413 || error.statusCode === 415;
  const normalized = isBadInput ? new ValidationError(`The form could not be read: ${error.message}`, 'body') : error;
  const failure = toHttpError(normalized);
  const status = error.statusCode === 413 || error.statusCode === 415 ? error.statusCode : failure.status;
  logFailure(request.server.log.child({ reqId: request.id }), normalized, `dashboard ${request.method} ${request.routeOptions.url ?? request.url}`);
  void reply.status(status).headers(failure.headers);
  if ((request.headers.accept ?? '').includes('application/json')) return reply.send(failure.body);
  const message = status >= 500 ? 'Something went wrong on the server; the log says more.' : failure.body.error;
  const body = html`<div class="notice notice-error" role="alert"><p>${message}</p></div>
<p class="actions">${status === 401 ? html`<a class="button" href="/dashboard/login">Sign in</a>` : html`<a class="button secondary" href="/dashboard">Back to the dashboard</a>`}</p>`;
  const titles: Record<number, string> = { 401: 'Please sign in', 403: 'Refused', 404: 'Not found', 429: 'Too many requests' };
  return reply.type('text/html; charset=utf-8').send(renderPage({ title: titles[status] ?? (status >= 500 ? 'Server error' : 'That did not work') }, body));
}

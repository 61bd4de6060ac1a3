import { UnauthorizedError, ForbiddenError } from '@quarry/core';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { EndpointKind } from '../server/rate-limiter.js';
import type { Services } from '../server/services.js';
import { loadAdminToken, loadSessionKey, type AdminToken } from './admin-token.js';
import { requireCsrfToken, requireSameOrigin } from './request-guards.js';
import { newSessionId, readCookie, sessionCookie, sessionLifetimeMs, SessionSigner, type DashboardSession, type SessionOf } from './session-cookie.js';

/**
 * Who is signed in to the dashboard. A session is checked against the ledger on every request: a
 * team session ends when the key it was opened with is revoked (on the next request), an admin
 * session when the admin token changes. Every request of a session counts against the team's rate
 * limits (the admin's against its own), exactly like the API's.
 */
export interface PageContext<Session extends DashboardSession = DashboardSession> {
  session: Session;
  /** The session's CSRF token, for the forms of the page. */
  csrf: string;
}

export type Role = DashboardSession['role'];
type PageHandler<R extends Role> = (request: FastifyRequest, reply: FastifyReply, context: PageContext<SessionOf<R>>) => Promise<unknown>;

/** The rate-limit bucket of admin sessions (teams use their own id). */
export const adminRateKey = 'dashboard:admin';

export class DashboardAuth {
  private prepared: { admin: AdminToken; signer: SessionSigner } | undefined;

  constructor(readonly services: Services) {}

  /** Loads (at first start: makes) the admin token and the session key; says once where the token is. */
  async prepare(log: FastifyBaseLogger): Promise<void> {
    const [admin, sessionKey] = await Promise.all([loadAdminToken(this.services.config, this.services.ledger), loadSessionKey(this.services.ledger)]);
    this.prepared = { admin, signer: new SessionSigner(sessionKey) };
    if (admin.generated) {
      // Warn level, so that a quieter LOG_LEVEL still shows it. It is never printed again.
      log.warn(`Dashboard admin token (shown only this once; stored hashed): ${admin.generated}`);
    } else if (admin.source === 'stored') {
      log.info('Dashboard: /dashboard; the admin token was printed at the first start (set QUARRY_ADMIN_TOKEN to use your own)');
    } else {
      log.info('Dashboard: /dashboard; admin token from QUARRY_ADMIN_TOKEN');
    }
  }

  private get state() {
    if (!this.prepared) throw new Error('The dashboard is not ready yet');
    return this.prepared;
  }

  now(): number {
    return this.services.clock.now();
  }

  /** A new session for the admin token or a team's valid API key; undefined for anything else. */
  async signIn(secret: string): Promise<DashboardSession | undefined> {
    const base = { id: newSessionId(), expiresAt: this.now() + sessionLifetimeMs };
    if (secret.startsWith('fc-')) {
      const key = await this.services.ledger.authenticate(secret);
      return key ? { role: 'team', ...base, teamId: key.teamId, keyId: key.keyId } : undefined;
    }
    return this.state.admin.matches(secret) ? { role: 'admin', ...base, admin: this.state.admin.fingerprint } : undefined;
  }

  /** Ends the session for good: a copy of its cookie kept elsewhere no longer signs anyone in. */
  async signOut(session: DashboardSession): Promise<void> {
    await this.services.ledger.claimSetting(signedOutSetting(session.id), new Date(this.now()).toISOString());
  }

  seal(session: DashboardSession): string {
    return this.state.signer.seal(session);
  }

  csrfOf(session: DashboardSession): string {
    return this.state.signer.csrfToken(session);
  }

  /**
   * The request's session if it is signed, unexpired, not signed out, and still backed by a live
   * key or the current admin token.
   */
  async sessionOf(request: FastifyRequest): Promise<DashboardSession | undefined> {
    const session = this.state.signer.open(readCookie(request, sessionCookie), this.now());
    if (!session) return undefined;
    if ((await this.services.ledger.getSetting(signedOutSetting(session.id))) !== undefined) return undefined;
    if (session.role === 'admin') return session.admin === this.state.admin.fingerprint ? session : undefined;
    const keys = await this.services.ledger.listKeys(session.teamId);
    return keys.some((key) => key.id === session.keyId && key.revokedAt === undefined) ? session : undefined;
  }

  /**
   * Wraps a page handler: signed in with `role` or sent to sign in; counted against the rate
   * limit of `kind`; forms (anything but GET) checked for origin and CSRF token.
   */
  page<R extends Role>(role: R, kind: EndpointKind, handler: PageHandler<R>) {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const session = await this.sessionOf(request);
      const isRead = request.method === 'GET' || request.method === 'HEAD';
      if (!session) {
        if (isRead && !wantsJson(request)) return reply.redirect('/dashboard/login', 303);
        throw new UnauthorizedError('Sign in to the dashboard first');
      }
      if (session.role !== role) {
        if (isRead) return reply.redirect('/dashboard', 303);
        throw new ForbiddenError('This page belongs to another kind of session');
      }
      await this.services.rateLimiter.consume(session.role === 'team' ? session.teamId : adminRateKey, kind);
      const csrf = this.csrfOf(session);
      if (!isRead) {
        requireSameOrigin(request);
        requireCsrfToken(request, csrf);
      }
      return handler(request, reply, { session: session as SessionOf<R>, csrf });
    };
  }
}

function wantsJson(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('application/json');
}

/** The ledger setting that marks a session as signed out (sessions are not stored otherwise). */
function signedOutSetting(sessionId: string): string {
  return `dashboard-signed-out:${sessionId}`;
}

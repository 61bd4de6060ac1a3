import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Dashboard sessions: a signed cookie, so any number of API processes that share the ledger (and
 * so the session key) accept each other's sessions. The cookie holds who signed in (the admin, or
 * a team and the id of the key used), never a secret; it is HttpOnly, SameSite=Strict, scoped to
 * /dashboard, and Secure when the request came over TLS (directly or through a proxy). Each session has its own CSRF token,
 * derived from the session id with the same key.
 */
export type DashboardSession =
  | { role: 'admin'; id: string; expiresAt: number; admin: string }
  | { role: 'team'; id: string; expiresAt: number; teamId: string; keyId: string };

export type SessionOf<Role extends DashboardSession['role']> = Extract<DashboardSession, { role: Role }>;

export const sessionCookie = 'quarry_session';
/** The sign-in form's double-submit token, set with the form (there is no session yet). */
export const signInCookie = 'quarry_sign_in';
export const sessionLifetimeMs = 12 * 3_600_000;
const cookiePath = '/dashboard';

export class SessionSigner {
  constructor(private readonly key: Buffer) {}

  seal(session: DashboardSession): string {
    const payload = Buffer.from(JSON.stringify(session)).toString('base64url');
    return `${payload}.${this.sign(`session:${payload}`)}`;
  }

  /** The session in a cookie value, or undefined when it is malformed, forged or expired. */
  open(value: string | undefined, now: number): DashboardSession | undefined {
    if (!value) return undefined;
    const [payload, signature, extra] = value.split('.');
    if (!payload || !signature || extra !== undefined || !sameText(signature, this.sign(`session:${payload}`))) return undefined;
    try {
      const session = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as DashboardSession;
      return typeof session.expiresAt === 'number' && session.expiresAt > now ? session : undefined;
    } catch {
      return undefined;
    }
  }

  csrfToken(session: DashboardSession): string {
    return this.sign(`csrf:${session.id}`);
  }

  private sign(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('base64url');
  }
}

export function newSessionId(): string {
  return randomBytes(16).toString('base64url');
}

export function newNonce(): string {
  return randomBytes(24).toString('base64url');
}

/** Constant-time comparison of two strings. */
export function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

export function setCookie(request: FastifyRequest, reply: FastifyReply, name: string, value: string, maxAgeSeconds: number): void {
  const attributes = [`${name}=${value}`, `Path=${cookiePath}`, `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Strict'];
  // Secure over TLS, also when a proxy terminated it (trusting the header can only make the cookie stricter).
  if (request.protocol === 'https' || String(request.headers['x-forwarded-proto'] ?? '').startsWith('https')) attributes.push('Secure');
  const previous = reply.getHeader('set-cookie');
  const list = previous === undefined ? [] : Array.isArray(previous) ? previous.map(String) : [String(previous)];
  void reply.header('set-cookie', [...list, attributes.join('; ')]);
}

export function clearCookie(request: FastifyRequest, reply: FastifyReply, name: string): void {
  setCookie(request, reply, name, '', 0);
}

import { ForbiddenError } from '@quarry/core';
import type { FastifyRequest } from 'fastify';
import { sameText } from './session-cookie.js';

/**
 * What makes a dashboard form safe from cross-site requests, on top of the SameSite=Strict cookie:
 * the browser's own word on where the request came from (Sec-Fetch-Site, Origin) must be this
 * origin when it is given, and the form must carry the session's CSRF token.
 */
export function requireSameOrigin(request: FastifyRequest): void {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') throw crossSite();
  const origin = request.headers.origin;
  if (origin === undefined) return;
  // Hosts only, not schemes: behind a TLS-terminating proxy the page is https and this server is
  // not. A proxy that rewrites Host says the original in X-Forwarded-Host, which a cross-site form
  // cannot set.
  const forwarded = request.headers['x-forwarded-host'];
  const hosts = [request.headers.host, ...(typeof forwarded === 'string' ? forwarded.split(',').map((host) => host.trim()) : [])];
  const originHost = hostOf(origin);
  if (!originHost || !hosts.includes(originHost)) throw crossSite();
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/** The form's `_csrf` field must equal `expected` (constant time). */
export function requireCsrfToken(request: FastifyRequest, expected: string): void {
  const token = formBody(request).get('_csrf') ?? '';
  if (!token || !sameText(token, expected)) {
    throw new ForbiddenError('This form expired or did not come from the dashboard: reload the page and submit it again');
  }
}

const crossSite = () => new ForbiddenError('Cross-site form submissions are refused');

/** The parsed form body (application/x-www-form-urlencoded); empty for anything else. */
export function formBody(request: FastifyRequest): URLSearchParams {
  return request.body instanceof URLSearchParams ? request.body : new URLSearchParams();
}

/** A trimmed text field of the form, '' when absent. */
export function formText(request: FastifyRequest, name: string): string {
  return (formBody(request).get(name) ?? '').trim();
}

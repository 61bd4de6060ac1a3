import type { FastifyRequest } from 'fastify';

/** Who is calling: set by the auth hook on every API request. */
export interface Caller {
  teamId: string;
  keyId: string | undefined;
  /**
   * The client's idempotency key (`Idempotency-Key` or `x-idempotency-key` header), when it sent
   * one: a request retried with the same key is charged once (Billing.chargeRequest).
   */
  requestId?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
  }
}

export type ApiVersion = 'v1' | 'v2';

/** The origin clients used to reach us (for the `url` and `next` links we hand out). */
export function publicOrigin(request: FastifyRequest): string {
  const host = request.headers.host ?? `${request.hostname}`;
  return `${request.protocol}://${host}`;
}

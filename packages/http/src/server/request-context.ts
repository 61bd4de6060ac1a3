import type { FastifyRequest } from 'fastify';

/** Who is calling: set by the auth hook on every API request. */
export interface Caller {
  teamId: string;
  keyId: string | undefined;
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

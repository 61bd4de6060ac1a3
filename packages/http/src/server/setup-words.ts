import type { ServerConfig } from '@quarry/core';
import { isLoopbackHost, isUnthrottledKeyless } from './loopback.js';

/**
 * The rate limits and the authentication in force, in words: the startup log and `quarry doctor`
 * say the same thing.
 */
export function describeRateLimits(config: ServerConfig, hasKeys: boolean): string {
  return isUnthrottledKeyless(config) && !hasKeys
    ? 'none for keyless requests on loopback (set QUARRY_RATE_LIMITS to apply them); per team once keys exist'
    : `per team and endpoint kind (${config.QUARRY_RATE_LIMITS || 'defaults'})`;
}

export function describeAuth(config: ServerConfig, hasKeys: boolean): string {
  if (config.QUARRY_AUTH === 'off') return 'off (QUARRY_AUTH=off): every request is accepted';
  if (hasKeys || config.QUARRY_AUTH === 'required') return 'API key required (Authorization: Bearer fc-...)';
  return 'no API keys exist and the server is bound to loopback, so requests need no key; create one with `npx quarry keys create --team NAME`';
}

/** Why `serve` refuses to start (no keys on a public address), or undefined when it will start. */
export function keylessRefusal(config: ServerConfig, hasKeys: boolean): string | undefined {
  if (config.QUARRY_AUTH !== 'auto' || hasKeys || isLoopbackHost(config.HOST)) return undefined;
  return `Refusing to serve ${config.HOST} without API keys: anyone could use this instance. Create a key (npx quarry keys create --team NAME), bind to 127.0.0.1, or set QUARRY_AUTH=off.`;
}

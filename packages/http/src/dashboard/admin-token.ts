import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Ledger, ServerConfig } from '@quarry/core';

/**
 * The operator secret of the dashboard's admin view. `QUARRY_ADMIN_TOKEN` when set; otherwise a
 * random token made at the first start of an instance, of which only the SHA-256 hash is kept (a
 * ledger setting, so every process of a distributed instance shares it). The plain token is
 * handed back to be printed once, by the process that stored it; later starts only say that one
 * exists.
 */
export const adminTokenSetting = 'dashboard.admin-token-sha256';
export const sessionKeySetting = 'dashboard.session-key';

export interface AdminToken {
  /** Whether `token` is the admin token (constant time). */
  matches(token: string): boolean;
  /** Names the current token without revealing it: admin sessions carry it, so a new token ends them. */
  fingerprint: string;
  /** Where the token comes from; `generated` only at the start that created it. */
  source: 'environment' | 'generated' | 'stored';
  /** The plain token, only when this start generated it (to print once). */
  generated?: string;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

export async function loadAdminToken(config: ServerConfig, ledger: Ledger): Promise<AdminToken> {
  let hash: Buffer;
  let source: AdminToken['source'];
  let generated: string | undefined;
  if (config.QUARRY_ADMIN_TOKEN) {
    hash = sha256(config.QUARRY_ADMIN_TOKEN);
    source = 'environment';
  } else {
    const candidate = `qa-${randomBytes(24).toString('base64url')}`;
    const stored = await ledger.claimSetting(adminTokenSetting, sha256(candidate).toString('hex'));
    hash = Buffer.from(stored, 'hex');
    const isOurs = stored === sha256(candidate).toString('hex');
    source = isOurs ? 'generated' : 'stored';
    if (isOurs) generated = candidate;
  }
  return {
    matches: (token) => {
      const candidate = sha256(token);
      return candidate.length === hash.length && timingSafeEqual(candidate, hash);
    },
    fingerprint: createHash('sha256').update('fingerprint:').update(hash).digest('base64url').slice(0, 22),
    source,
    ...(generated ? { generated } : {}),
  };
}

/** The key that signs dashboard sessions, made once per instance and shared through the ledger. */
export async function loadSessionKey(ledger: Ledger): Promise<Buffer> {
  const stored = await ledger.claimSetting(sessionKeySetting, randomBytes(32).toString('hex'));
  return Buffer.from(stored, 'hex');
}

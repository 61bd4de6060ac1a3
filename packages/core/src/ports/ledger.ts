/**
 * The Ledger port: teams, their API keys and their credits. The server authenticates every request
 * with it; `Billing` (core/src/billing/billing.ts) is the only caller of its `charge*` methods
 * (scripts/check-boundaries.mjs checks that no route or action charges it directly).
 *
 * Keys are `fc-` followed by random characters, shown once at creation and stored only as a SHA-256
 * hash (a leaked database does not leak usable keys). Credits are a remaining balance: `null` means
 * unlimited, and a charge never takes a balance below 0 (the page was already scraped, so it is
 * charged as far as the balance goes and the next request is refused with 402 upstream).
 *
 * Implementations: `SqliteLedger` (storage, embedded default; `SqliteJobStore.finishItem` charges the
 * same tables in its own transaction). All pass `describeLedger` from
 * core/src/ports/testing/ledger-suite.ts.
 */

/** The team every keyless request belongs to when the server has no API keys: unlimited credits. */
export const localTeamId = 'local';

export interface Team {
  id: string;
  name: string;
  /** Credits remaining (an integer >= 0), or null for unlimited. */
  credits: number | null;
  /** Tokens used so far (extract, research and the json formats record the model's tokens). */
  tokensUsed: number;
  /**
   * The team's token plan: its token balance is `tokens - tokensUsed` (never below 0), so every
   * use draws it down. null: unlimited (reported as a plan of 999,999,999 less what was used).
   */
  tokens: number | null;
  createdAt: number;
}

/** What may be shown about a key: never the key itself. */
export interface ApiKeyInfo {
  id: string;
  teamId: string;
  name: string;
  /** The first characters of the key (`fc-` and 4 more), to recognise it in a list. */
  prefix: string;
  /** The last 4 characters of the key. */
  last4: string;
  createdAt: number;
  lastUsedAt?: number;
  revokedAt?: number;
}

/** A key just created: the only time the plain `key` is available. */
export interface CreatedApiKey extends ApiKeyInfo {
  key: string;
}

export interface AuthenticatedKey {
  teamId: string;
  keyId: string;
}

export type UsageKind = 'credits' | 'tokens';

/** Who and what a charge is for, kept in the usage history. */
export interface ChargeContext {
  apiKeyId?: string;
  jobId?: string;
}

/** What one billable request or page used: credits (priced by billing/prices.ts) and model tokens. */
export interface Usage {
  credits: number;
  tokens: number;
}

/** A charge's context plus the key that makes it idempotent. */
export interface RequestChargeContext extends ChargeContext {
  /**
   * The request's idempotency key (the client's `Idempotency-Key` header): a second charge with the
   * same key for the same team charges nothing and answers what the first one took.
   */
  requestId?: string;
}

/** What a charge took: credits as far as the balance went, tokens recorded. */
export interface ChargeResult extends Usage {
  /** True when the request id was charged before: nothing was taken now. */
  repeated: boolean;
}

/** One row of usage history (credit-usage/historical, token-usage/historical). */
export interface UsageRecord extends ChargeContext {
  teamId: string;
  kind: UsageKind;
  /** Credits actually taken from the balance, or tokens used. */
  amount: number;
  reason: string;
  at: number;
}

export interface UsageQuery {
  kind?: UsageKind;
  /** Inclusive lower bound on `at`. */
  since?: number;
  /** Exclusive upper bound on `at`. */
  until?: number;
}

/** Usage of one UTC day, one kind and one reason, added up (the dashboard's chart). */
export interface DailyUsage {
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
  kind: UsageKind;
  reason: string;
  amount: number;
}

export interface Ledger {
  /**
   * Creates the team when it does not exist, with unlimited credits; an existing team is returned
   * unchanged (its name is not overwritten). Idempotent. The team `localTeamId` always exists.
   */
  ensureTeam(id: string, name: string): Promise<Team>;
  /** The team, or undefined when unknown. */
  getTeam(id: string): Promise<Team | undefined>;
  /** Every team, oldest first (the local team included). */
  listTeams(): Promise<Team[]>;

  /**
   * Creates an API key for a team (NotFoundError when the team is unknown). The returned `key` is
   * the only copy of the secret: only its SHA-256 hash is stored.
   */
  createKey(teamId: string, name: string): Promise<CreatedApiKey>;
  /**
   * The team and key id of a valid, unrevoked key, or undefined (unknown, malformed or revoked key:
   * never an error). Compares hashes in constant time and records `lastUsedAt`.
   */
  authenticate(key: string): Promise<AuthenticatedKey | undefined>;
  /** The team's keys, revoked ones included, oldest first; never the secret. */
  listKeys(teamId: string): Promise<ApiKeyInfo[]>;
  /**
   * Revokes a key with immediate effect: the next `authenticate` with it fails. Returns false when
   * the key is unknown or was already revoked (idempotent).
   */
  revokeKey(keyId: string): Promise<boolean>;
  /**
   * Whether any key was ever created (revoked ones count, so revoking the last key does not open
   * the server to keyless use). The server asks for no key while this is false.
   */
  hasAnyKey(): Promise<boolean>;

  /** Remaining credits, null for unlimited. NotFoundError when the team is unknown. */
  getCredits(teamId: string): Promise<number | null>;
  /** Sets the remaining credits (null: unlimited). NotFoundError when the team is unknown. */
  setCredits(teamId: string, credits: number | null): Promise<void>;
  /** Sets the team's token plan (null: unlimited); the balance is it less `tokensUsed`. NotFoundError when unknown. */
  setTokens(teamId: string, tokens: number | null): Promise<void>;
  /**
   * Takes `credits` (a non-negative integer) from the balance atomically and returns what was
   * taken: all of it for an unlimited team or a sufficient balance, else what was left (the balance
   * ends at 0, never below). Records a usage row of what was taken, when it is above 0. NotFoundError
   * when the team is unknown.
   */
  charge(teamId: string, credits: number, reason: string, context?: ChargeContext): Promise<number>;
  /** Adds `tokens` to the team's tokens used and records a usage row. NotFoundError when unknown. */
  chargeTokens(teamId: string, tokens: number, reason: string, context?: ChargeContext): Promise<void>;
  /**
   * Charges a request's credits and tokens in one transaction (as `charge` and `chargeTokens`), and
   * with a `context.requestId` at most once per team and id: a request retried with the same id
   * charges nothing again and answers the first charge (`repeated: true`). NotFoundError when the
   * team is unknown (nothing is recorded then).
   */
  chargeUsage(teamId: string, usage: Usage, reason: string, context?: RequestChargeContext): Promise<ChargeResult>;
  /** The team's usage history, oldest first. */
  listUsage(teamId: string, query?: UsageQuery): Promise<UsageRecord[]>;
  /**
   * The team's webhook signing secret (webhooks carry an HMAC-SHA256 of the body made with it), or
   * undefined when the team has none. Unknown teams have none.
   */
  getWebhookSecret(teamId: string): Promise<string | undefined>;
  /** Sets (or, with null, removes) the team's webhook secret; effective for the next delivery. */
  setWebhookSecret(teamId: string, secret: string | null): Promise<void>;
  /**
   * The team's usage added up per UTC day, kind and reason, within `since`/`until` (as `listUsage`),
   * ordered by day, kind and reason. An unknown team, or one with no usage, answers [].
   */
  usageByDay(teamId: string, query?: Omit<UsageQuery, 'kind'>): Promise<DailyUsage[]>;
  /**
   * An operator setting of the instance (e.g. the dashboard's hashed admin token): stores `value`
   * under `name` unless a value is stored already, and answers the stored value. Atomic: of
   * concurrent callers (in any number of processes) exactly one value wins and all get it. A stored
   * value is never replaced through this method.
   */
  claimSetting(name: string, value: string): Promise<string>;
  /** A stored setting, or undefined when none was claimed under `name`. */
  getSetting(name: string): Promise<string | undefined>;
}

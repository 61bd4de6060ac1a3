import {
  NotFoundError,
  ValidationError,
  type ApiKeyInfo,
  type OutboxEntry,
  type OutboxEvent,
  type OutboxPhase,
  type OutboxState,
  type Team,
  type UsageKind,
  type UsageRecord,
} from '@quarry/core';

/**
 * Rows of the tables both backends share (same columns in SQLite and PostgreSQL) and their
 * mapping to the ports' shapes, written once.
 */
export interface KeyRow {
  id: string;
  team_id: string;
  name: string;
  prefix: string;
  last4: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface UsageRow {
  team_id: string;
  kind: UsageKind;
  amount: number;
  reason: string;
  at: number;
  api_key_id: string | null;
  job_id: string | null;
}

export interface OutboxRow {
  id: string;
  job_id: string;
  team_id: string;
  url: string;
  headers: string;
  body: string;
  created_at: number;
  state: OutboxState;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  finished_at: number | null;
  /** The event's phase as a rank (`phaseRank`): 0 first, 1 middle, 2 last. */
  phase: number;
}

export function toKeyInfo(row: KeyRow): ApiKeyInfo {
  return {
    id: row.id,
    teamId: row.team_id,
    name: row.name,
    prefix: row.prefix,
    last4: row.last4,
    createdAt: row.created_at,
    ...(row.last_used_at !== null ? { lastUsedAt: row.last_used_at } : {}),
    ...(row.revoked_at !== null ? { revokedAt: row.revoked_at } : {}),
  };
}

export function toUsage(row: UsageRow): UsageRecord {
  return {
    teamId: row.team_id,
    kind: row.kind,
    amount: row.amount,
    reason: row.reason,
    at: row.at,
    ...(row.api_key_id !== null ? { apiKeyId: row.api_key_id } : {}),
    ...(row.job_id !== null ? { jobId: row.job_id } : {}),
  };
}

/**
 * An outbox phase as the `phase` column holds it (both backends): an event is leased only when no
 * pending event of its job has a lower rank. A row without one (written before phases) is middle.
 */
export const phaseRank = { first: 0, middle: 1, last: 2 } as const;

const phaseOfRank = (rank: number): OutboxPhase | undefined => (rank === phaseRank.first ? 'first' : rank === phaseRank.last ? 'last' : undefined);

/**
 * Writes an event as a pending SQLite row (the outbox and the job store, which writes a change's
 * events in its transaction), unless its job's last event is already there: nothing follows it.
 */
export const insertOutboxSql = `INSERT INTO webhook_outbox (id, job_id, team_id, url, headers, body, created_at, next_attempt_at, phase)
  SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM webhook_outbox WHERE job_id = ? AND phase = ${phaseRank.last})
  ON CONFLICT (id) DO NOTHING`;

export type InsertOutboxValues = [string, string, string, string, string, string, number, number, number, string];

export function insertOutboxValues(event: OutboxEvent): InsertOutboxValues {
  const { id, jobId, teamId, url, headers, body, createdAt, phase } = event;
  return [id, jobId, teamId, url, JSON.stringify(headers), body, createdAt, createdAt, phaseRank[phase ?? 'middle'], jobId];
}

export function toEntry(row: OutboxRow): OutboxEntry {
  return {
    id: row.id,
    jobId: row.job_id,
    teamId: row.team_id,
    url: row.url,
    headers: JSON.parse(row.headers) as Record<string, string>,
    body: row.body,
    createdAt: row.created_at,
    state: row.state,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    ...(row.last_error !== null ? { lastError: row.last_error } : {}),
    ...(row.finished_at !== null ? { finishedAt: row.finished_at } : {}),
    ...(phaseOfRank(row.phase) ? { phase: phaseOfRank(row.phase) } : {}),
  };
}

export interface TeamRow {
  id: string;
  name: string;
  credits: number | null;
  tokens_used: number;
  tokens: number | null;
  created_at: number;
}

export const toTeam = (row: TeamRow): Team => ({
  id: row.id,
  name: row.name,
  credits: row.credits,
  tokensUsed: row.tokens_used,
  tokens: row.tokens,
  createdAt: row.created_at,
});

/** A credit or token count a ledger takes: a non-negative safe integer, or a 400 naming the field. */
export function requireCount(field: string, value: number) {
  if (!Number.isSafeInteger(value) || value < 0) throw new ValidationError(`\`${field}\` must be a non-negative integer; got ${value}`, field);
}

export const unknownTeam = (teamId: string) => new NotFoundError(`Team ${teamId} not found`);

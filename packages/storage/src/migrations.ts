/**
 * The schema, as an ordered list of migrations. A database records the number of migrations it has
 * applied in `schema_version`; opening applies the rest in one transaction. Append only:
 * never edit a migration that has shipped, add the next one.
 */
export const migrations: readonly string[] = [
  // 1: jobs, their items (the frontier), results, errors and robots-blocked URLs.
  `
  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    team_id TEXT NOT NULL,
    status TEXT NOT NULL,
    url TEXT NOT NULL,
    request TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    kickoff_done INTEGER NOT NULL DEFAULT 0,
    error TEXT,
    live INTEGER NOT NULL DEFAULT 0,
    pending INTEGER NOT NULL DEFAULT 0,
    completed INTEGER NOT NULL DEFAULT 0,
    failed INTEGER NOT NULL DEFAULT 0,
    credits_used INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX jobs_active ON jobs (kind, status, created_at);

  -- state: queued | done | failed | cancelled, or seen (a key recorded by markSeen, not an item).
  CREATE TABLE job_items (
    seq INTEGER PRIMARY KEY,
    job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    url TEXT NOT NULL,
    discovery_depth INTEGER NOT NULL,
    state TEXT NOT NULL
  );
  CREATE UNIQUE INDEX job_items_key ON job_items (job_id, key);
  CREATE INDEX job_items_state ON job_items (job_id, state);

  -- seq is the completion order of documents (AUTOINCREMENT: never reused).
  CREATE TABLE job_documents (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    document TEXT NOT NULL
  );
  CREATE INDEX job_documents_job ON job_documents (job_id, seq);

  CREATE TABLE job_errors (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    url TEXT NOT NULL,
    code TEXT,
    message TEXT NOT NULL,
    at INTEGER NOT NULL
  );
  CREATE INDEX job_errors_job ON job_errors (job_id, seq);

  CREATE TABLE job_robots_blocked (
    seq INTEGER PRIMARY KEY,
    job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    url TEXT NOT NULL
  );
  CREATE UNIQUE INDEX job_robots_blocked_url ON job_robots_blocked (job_id, url);
  `,
  // 2: the work queue. A message is ready when ready_at has passed and it is not leased (or its
  // lease has expired); seq keeps first in, first out within a priority.
  `
  CREATE TABLE queue (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    job_id TEXT NOT NULL,
    key TEXT NOT NULL,
    url TEXT NOT NULL,
    discovery_depth INTEGER NOT NULL,
    priority INTEGER,
    ready_at INTEGER NOT NULL,
    lease_until INTEGER,
    lease_token TEXT,
    attempts INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX queue_order ON queue (coalesce(priority, 0), seq);
  CREATE INDEX queue_job ON queue (job_id);
  `,
  // 3: teams, API keys (hashed) and usage.
  `
  CREATE TABLE teams (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    credits INTEGER CHECK (credits IS NULL OR credits >= 0),
    tokens_used INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
  );

  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL REFERENCES teams (id),
    name TEXT NOT NULL,
    key_hash BLOB NOT NULL UNIQUE,
    prefix TEXT NOT NULL,
    last4 TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    last_used_at INTEGER,
    revoked_at INTEGER
  );
  CREATE INDEX api_keys_team ON api_keys (team_id, created_at);

  CREATE TABLE usage (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    team_id TEXT NOT NULL REFERENCES teams (id),
    kind TEXT NOT NULL,
    amount INTEGER NOT NULL,
    reason TEXT NOT NULL,
    at INTEGER NOT NULL,
    api_key_id TEXT,
    job_id TEXT
  );
  CREATE INDEX usage_team ON usage (team_id, at);
  `,
  // 4: the document cache and the webhook outbox.
  `
  CREATE TABLE document_cache (
    key TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    team_id TEXT,
    document TEXT NOT NULL,
    stored_at INTEGER NOT NULL
  );

  CREATE TABLE webhook_outbox (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    job_id TEXT NOT NULL,
    team_id TEXT NOT NULL,
    url TEXT NOT NULL,
    headers TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    lease_until INTEGER,
    last_error TEXT,
    finished_at INTEGER
  );
  CREATE INDEX webhook_outbox_due ON webhook_outbox (state, next_attempt_at);
  CREATE INDEX webhook_outbox_job ON webhook_outbox (job_id, created_at);
  `,
  // 5: a webhook signing secret per team.
  `ALTER TABLE teams ADD COLUMN webhook_secret TEXT;`,
  // 6: operator settings (the dashboard's hashed admin token and session key); a team's jobs, newest first.
  `
  CREATE TABLE settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  CREATE INDEX jobs_team ON jobs (team_id, created_at);
  `,
  // 7: the working state of agent jobs (extract, deep research, llms.txt) and the step it was saved at.
  `
  ALTER TABLE jobs ADD COLUMN state TEXT;
  ALTER TABLE jobs ADD COLUMN state_step INTEGER NOT NULL DEFAULT 0;
  `,
  // 8: the index: links kept with cached documents, a full-text index of stored pages (FTS5, BM25),
  // and per-team change-tracking histories (tag '' is the default history).
  `
  ALTER TABLE document_cache ADD COLUMN links TEXT;

  CREATE TABLE page_index (
    seq INTEGER PRIMARY KEY,
    url TEXT NOT NULL UNIQUE,
    site TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    body TEXT NOT NULL,
    stored_at INTEGER NOT NULL
  );
  CREATE INDEX page_index_site ON page_index (site, stored_at);
  CREATE VIRTUAL TABLE page_index_fts USING fts5 (
    title, description, body, content = 'page_index', content_rowid = 'seq', tokenize = 'porter unicode61'
  );
  CREATE TRIGGER page_index_insert AFTER INSERT ON page_index BEGIN
    INSERT INTO page_index_fts (rowid, title, description, body) VALUES (new.seq, new.title, new.description, new.body);
  END;
  CREATE TRIGGER page_index_delete AFTER DELETE ON page_index BEGIN
    INSERT INTO page_index_fts (page_index_fts, rowid, title, description, body) VALUES ('delete', old.seq, old.title, old.description, old.body);
  END;
  CREATE TRIGGER page_index_update AFTER UPDATE ON page_index BEGIN
    INSERT INTO page_index_fts (page_index_fts, rowid, title, description, body) VALUES ('delete', old.seq, old.title, old.description, old.body);
    INSERT INTO page_index_fts (rowid, title, description, body) VALUES (new.seq, new.title, new.description, new.body);
  END;

  CREATE TABLE change_history (
    team_id TEXT NOT NULL,
    tag TEXT NOT NULL,
    url_key TEXT NOT NULL,
    job_id TEXT NOT NULL,
    url TEXT NOT NULL,
    site TEXT NOT NULL,
    scraped_at INTEGER NOT NULL,
    status_code INTEGER NOT NULL,
    markdown TEXT NOT NULL,
    fields TEXT,
    PRIMARY KEY (team_id, tag, url_key, job_id)
  );
  CREATE INDEX change_history_latest ON change_history (team_id, tag, url_key, scraped_at);
  CREATE INDEX change_history_site ON change_history (team_id, tag, site, scraped_at);
  `,
  // 9: a token plan per team (null: unlimited); the token balance is tokens - tokens_used.
  `ALTER TABLE teams ADD COLUMN tokens INTEGER;`,
  // 10: monitors (the definition as JSON; next_check_id is the schedule's compare-and-set token) and their checks.
  `
  CREATE TABLE monitors (
    id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    next_check_id TEXT,
    body TEXT NOT NULL
  );
  CREATE INDEX monitors_team ON monitors (team_id, created_at);
  CREATE TABLE monitor_checks (
    seq INTEGER PRIMARY KEY,
    monitor_id TEXT NOT NULL,
    check_id TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX monitor_checks_monitor ON monitor_checks (monitor_id, created_at);
  `,
  // 11: the index per scope (the team that stored a page, '' when shared across teams): one entry per
  // scope and URL. Pages indexed before keep scope '' (seen only with QUARRY_SHARED_INDEX=true).
  `
  DROP TRIGGER page_index_insert;
  DROP TRIGGER page_index_delete;
  DROP TRIGGER page_index_update;
  DROP TABLE page_index_fts;
  DROP INDEX page_index_site;
  ALTER TABLE page_index RENAME TO page_index_unscoped;
  CREATE TABLE page_index (
    seq INTEGER PRIMARY KEY,
    scope TEXT NOT NULL,
    url TEXT NOT NULL,
    site TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    body TEXT NOT NULL,
    stored_at INTEGER NOT NULL,
    UNIQUE (scope, url)
  );
  INSERT INTO page_index (seq, scope, url, site, title, description, body, stored_at)
    SELECT seq, '', url, site, title, description, body, stored_at FROM page_index_unscoped;
  DROP TABLE page_index_unscoped;
  CREATE INDEX page_index_site ON page_index (scope, site, stored_at);
  CREATE VIRTUAL TABLE page_index_fts USING fts5 (
    title, description, body, content = 'page_index', content_rowid = 'seq', tokenize = 'porter unicode61'
  );
  INSERT INTO page_index_fts (page_index_fts) VALUES ('rebuild');
  CREATE TRIGGER page_index_insert AFTER INSERT ON page_index BEGIN
    INSERT INTO page_index_fts (rowid, title, description, body) VALUES (new.seq, new.title, new.description, new.body);
  END;
  CREATE TRIGGER page_index_delete AFTER DELETE ON page_index BEGIN
    INSERT INTO page_index_fts (page_index_fts, rowid, title, description, body) VALUES ('delete', old.seq, old.title, old.description, old.body);
  END;
  CREATE TRIGGER page_index_update AFTER UPDATE ON page_index BEGIN
    INSERT INTO page_index_fts (page_index_fts, rowid, title, description, body) VALUES ('delete', old.seq, old.title, old.description, old.body);
    INSERT INTO page_index_fts (rowid, title, description, body) VALUES (new.seq, new.title, new.description, new.body);
  END;
  `,
  // 12: requests charged with an idempotency key (Billing.chargeRequest): one row per team and key,
  // holding what the first charge took, so a retried request is charged once.
  `
  CREATE TABLE charged_requests (
    team_id TEXT NOT NULL,
    request_id TEXT NOT NULL,
    reason TEXT NOT NULL,
    credits INTEGER NOT NULL,
    tokens INTEGER NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (team_id, request_id)
  );
  `,
  // 13: a job's webhook events go out in phases (row-mappers' phaseRank): started (0) first, pages
  // (1) next, completed/failed/cancelled (2) last; a row waits while a pending row of its job has a
  // lower phase, and nothing of a job is written after its last row. Rows written before are middle,
  // so they are leased as they were. The partial indexes answer both checks without reading the
  // job's delivered rows.
  `
  ALTER TABLE webhook_outbox ADD COLUMN phase INTEGER NOT NULL DEFAULT 1;
  CREATE INDEX webhook_outbox_last ON webhook_outbox (job_id) WHERE phase = 2;
  CREATE INDEX webhook_outbox_job_pending ON webhook_outbox (job_id, phase) WHERE state = 'pending';
  `,
];

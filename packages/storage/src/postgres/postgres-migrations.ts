/**
 * The PostgreSQL schema, as an ordered list of migrations (the same tables as the SQLite ones, in
 * PostgreSQL types). A schema records how many it has applied in `schema_version`; `openPostgres`
 * applies the rest in one transaction under an advisory lock, so processes starting together do
 * not race. Append only: never edit a migration that has shipped, add the next one.
 *
 * The hot paths of a crawl (`quarry_add_items`, `quarry_finish_item`, `quarry_charge`) are SQL
 * functions: one round trip each, whatever they touch, and each statement inside sees the rows
 * committed before it (READ COMMITTED), after the row locks it waits for.
 */
export const postgresMigrations: readonly string[] = [
  // 1: jobs, items (the frontier), results, errors, robots-blocked URLs; teams, keys, usage; the
  // document cache and the webhook outbox. Times are epoch milliseconds.
  `
  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    seq BIGSERIAL NOT NULL,
    kind TEXT NOT NULL,
    team_id TEXT NOT NULL,
    status TEXT NOT NULL,
    url TEXT NOT NULL,
    request TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    kickoff_done BOOLEAN NOT NULL DEFAULT false,
    error TEXT,
    live INTEGER NOT NULL DEFAULT 0,
    pending INTEGER NOT NULL DEFAULT 0,
    completed INTEGER NOT NULL DEFAULT 0,
    failed INTEGER NOT NULL DEFAULT 0,
    credits_used BIGINT NOT NULL DEFAULT 0
  );
  CREATE INDEX jobs_active ON jobs (kind, created_at, seq) WHERE status = 'scraping';
  CREATE INDEX jobs_expiry ON jobs (expires_at) WHERE status <> 'scraping';

  -- state: queued | done | failed | cancelled, or seen (a key recorded by markSeen, not an item).
  CREATE TABLE job_items (
    job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    seq BIGSERIAL NOT NULL,
    url TEXT NOT NULL,
    discovery_depth INTEGER NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (job_id, key)
  );
  CREATE INDEX job_items_queued ON job_items (job_id, seq) WHERE state = 'queued';

  -- One result per item: (job_id, key) is unique, so a page is stored once whatever happens upstream.
  CREATE TABLE job_documents (
    seq BIGSERIAL PRIMARY KEY,
    job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    document TEXT NOT NULL,
    UNIQUE (job_id, key)
  );
  CREATE INDEX job_documents_job ON job_documents (job_id, seq);

  CREATE TABLE job_errors (
    seq BIGSERIAL PRIMARY KEY,
    job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    url TEXT NOT NULL,
    code TEXT,
    message TEXT NOT NULL,
    at BIGINT NOT NULL
  );
  CREATE INDEX job_errors_job ON job_errors (job_id, seq);

  CREATE TABLE job_robots_blocked (
    job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    seq BIGSERIAL NOT NULL,
    PRIMARY KEY (job_id, url)
  );

  CREATE TABLE teams (
    id TEXT PRIMARY KEY,
    seq BIGSERIAL NOT NULL,
    name TEXT NOT NULL,
    credits BIGINT CHECK (credits IS NULL OR credits >= 0),
    tokens_used BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
  );

  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    seq BIGSERIAL NOT NULL,
    team_id TEXT NOT NULL REFERENCES teams (id),
    name TEXT NOT NULL,
    key_hash BYTEA NOT NULL UNIQUE,
    prefix TEXT NOT NULL,
    last4 TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    last_used_at BIGINT,
    revoked_at BIGINT
  );
  CREATE INDEX api_keys_team ON api_keys (team_id, created_at, seq);

  CREATE TABLE usage (
    seq BIGSERIAL PRIMARY KEY,
    team_id TEXT NOT NULL REFERENCES teams (id),
    kind TEXT NOT NULL,
    amount BIGINT NOT NULL,
    reason TEXT NOT NULL,
    at BIGINT NOT NULL,
    api_key_id TEXT,
    job_id TEXT
  );
  CREATE INDEX usage_team ON usage (team_id, at, seq);

  CREATE TABLE document_cache (
    key TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    team_id TEXT,
    document TEXT NOT NULL,
    stored_at BIGINT NOT NULL
  );
  CREATE INDEX document_cache_stored ON document_cache (stored_at);

  CREATE TABLE webhook_outbox (
    seq BIGSERIAL PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    job_id TEXT NOT NULL,
    team_id TEXT NOT NULL,
    url TEXT NOT NULL,
    headers TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    lease_until BIGINT,
    last_error TEXT,
    finished_at BIGINT
  );
  CREATE INDEX webhook_outbox_due ON webhook_outbox (next_attempt_at) WHERE state = 'pending';
  CREATE INDEX webhook_outbox_job ON webhook_outbox (job_id, created_at, seq);

  -- Webhook deliveries written with a change: a JSON array of OutboxEvent objects.
  CREATE FUNCTION quarry_add_outbox(p_events TEXT) RETURNS void
  LANGUAGE sql SET search_path FROM CURRENT AS $fn$
    INSERT INTO webhook_outbox (id, job_id, team_id, url, headers, body, created_at, next_attempt_at)
    SELECT e.id, e."jobId", e."teamId", e.url, e.headers::text, e.body, e."createdAt", e."createdAt"
    FROM json_to_recordset(p_events::json) AS e(id TEXT, "jobId" TEXT, "teamId" TEXT, url TEXT, headers JSON, body TEXT, "createdAt" BIGINT)
    ON CONFLICT (id) DO NOTHING
  $fn$;

  -- Takes up to p_credits from the team (a balance never goes below 0) and records what was taken.
  -- Returns what was taken, or NULL for an unknown team.
  CREATE FUNCTION quarry_charge(p_team TEXT, p_credits BIGINT, p_reason TEXT, p_at BIGINT, p_key TEXT, p_job TEXT) RETURNS BIGINT
  LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  DECLARE
    v_balance BIGINT;
    v_taken BIGINT;
  BEGIN
    SELECT credits INTO v_balance FROM teams WHERE id = p_team FOR NO KEY UPDATE;
    IF NOT FOUND THEN RETURN NULL; END IF;
    v_taken := CASE WHEN v_balance IS NULL THEN p_credits ELSE least(p_credits, v_balance) END;
    IF v_taken <= 0 THEN RETURN 0; END IF;
    IF v_balance IS NOT NULL THEN UPDATE teams SET credits = credits - v_taken WHERE id = p_team; END IF;
    INSERT INTO usage (team_id, kind, amount, reason, at, api_key_id, job_id) VALUES (p_team, 'credits', v_taken, p_reason, p_at, p_key, p_job);
    RETURN v_taken;
  END
  $fn$;

  -- Adds the entries whose keys the job has not seen, in order, while it holds fewer than p_limit
  -- live items. The job row lock serialises every writer of the job's keys. Row locks here are
  -- FOR NO KEY UPDATE, not FOR UPDATE: the latter conflicts with the KEY SHARE locks that inserts
  -- of rows referencing the job (documents, items) take, and two such transactions deadlock.
  CREATE FUNCTION quarry_add_items(p_job TEXT, p_keys TEXT[], p_urls TEXT[], p_depths INTEGER[], p_limit INTEGER)
  RETURNS TABLE (out_key TEXT, out_url TEXT, out_depth INTEGER)
  LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  DECLARE
    v_live INTEGER;
    v_added INTEGER;
  BEGIN
    SELECT live INTO v_live FROM jobs WHERE id = p_job FOR NO KEY UPDATE;
    IF NOT FOUND THEN RAISE EXCEPTION 'Job % not found', p_job USING ERRCODE = 'P0002'; END IF;
    RETURN QUERY
      WITH input AS (
        SELECT t.key, t.url, t.depth, t.ord FROM unnest(p_keys, p_urls, p_depths) WITH ORDINALITY AS t(key, url, depth, ord)
      ), firsts AS (
        SELECT DISTINCT ON (i.key) i.key, i.url, i.depth, i.ord FROM input i ORDER BY i.key, i.ord
      ), fresh AS (
        SELECT f.key, f.url, f.depth, f.ord FROM firsts f
        WHERE NOT EXISTS (SELECT 1 FROM job_items x WHERE x.job_id = p_job AND x.key = f.key)
        ORDER BY f.ord LIMIT greatest(p_limit - v_live, 0)
      ), inserted AS (
        INSERT INTO job_items (job_id, key, url, discovery_depth, state)
        SELECT p_job, f.key, f.url, f.depth, 'queued' FROM fresh f ORDER BY f.ord
        ON CONFLICT DO NOTHING
        RETURNING job_items.key
      )
      SELECT f.key, f.url, f.depth FROM fresh f JOIN inserted USING (key) ORDER BY f.ord;
    GET DIAGNOSTICS v_added = ROW_COUNT;
    IF v_added > 0 THEN UPDATE jobs SET live = live + v_added, pending = pending + v_added WHERE id = p_job; END IF;
  END
  $fn$;

  -- Finishes a queued item exactly once: its document or error, the job's counters, the team's
  -- charge and the webhook deliveries, all in the caller's statement. False when the item is not
  -- queued (unknown, seen, already finished, cancelled).
  CREATE FUNCTION quarry_finish_item(
    p_job TEXT, p_team TEXT, p_key TEXT, p_document TEXT,
    p_error_url TEXT, p_error_code TEXT, p_error_message TEXT,
    p_credits BIGINT, p_at BIGINT, p_outbox TEXT
  ) RETURNS BOOLEAN
  LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  BEGIN
    UPDATE job_items SET state = CASE WHEN p_document IS NULL THEN 'failed' ELSE 'done' END
    WHERE job_id = p_job AND key = p_key AND state = 'queued';
    IF NOT FOUND THEN RETURN false; END IF;
    IF p_document IS NOT NULL THEN
      INSERT INTO job_documents (job_id, key, document) VALUES (p_job, p_key, p_document);
      UPDATE jobs SET pending = pending - 1, completed = completed + 1, credits_used = credits_used + p_credits WHERE id = p_job;
    ELSE
      IF p_error_message IS NOT NULL THEN
        INSERT INTO job_errors (job_id, key, url, code, message, at) VALUES (p_job, p_key, p_error_url, p_error_code, p_error_message, p_at);
      END IF;
      UPDATE jobs SET pending = pending - 1, live = live - 1, failed = failed + 1, credits_used = credits_used + p_credits WHERE id = p_job;
    END IF;
    IF p_credits > 0 THEN PERFORM quarry_charge(p_team, p_credits, 'page', p_at, NULL, p_job); END IF;
    IF p_outbox IS NOT NULL THEN PERFORM quarry_add_outbox(p_outbox); END IF;
    RETURN true;
  END
  $fn$;
  `,
  // 2: a webhook signing secret per team.
  `ALTER TABLE teams ADD COLUMN webhook_secret TEXT;`,
  // 3: operator settings (the dashboard's hashed admin token and session key); a team's jobs, newest first.
  `
  CREATE TABLE settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  CREATE INDEX jobs_team ON jobs (team_id, created_at, seq);
  `,
  // 4: the working state of agent jobs (extract, deep research, llms.txt) and the step it was saved at.
  `ALTER TABLE jobs ADD COLUMN state TEXT, ADD COLUMN state_step INTEGER NOT NULL DEFAULT 0;`,
  // 5: the index: links kept with cached documents, a full-text index of stored pages (tsvector,
  // ts_rank) and per-team change-tracking histories (tag '' is the default history).
  `
  ALTER TABLE document_cache ADD COLUMN links TEXT;

  CREATE TABLE page_index (
    url TEXT PRIMARY KEY,
    site TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    body TEXT NOT NULL,
    stored_at BIGINT NOT NULL,
    words tsvector GENERATED ALWAYS AS (
      setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', description), 'B') || setweight(to_tsvector('english', body), 'C')
    ) STORED
  );
  CREATE INDEX page_index_words ON page_index USING GIN (words);
  CREATE INDEX page_index_site ON page_index (site, stored_at);

  CREATE TABLE change_history (
    team_id TEXT NOT NULL,
    tag TEXT NOT NULL,
    url_key TEXT NOT NULL,
    job_id TEXT NOT NULL,
    seq BIGSERIAL NOT NULL,
    url TEXT NOT NULL,
    site TEXT NOT NULL,
    scraped_at BIGINT NOT NULL,
    status_code INTEGER NOT NULL,
    markdown TEXT NOT NULL,
    fields TEXT,
    PRIMARY KEY (team_id, tag, url_key, job_id)
  );
  CREATE INDEX change_history_latest ON change_history (team_id, tag, url_key, scraped_at);
  CREATE INDEX change_history_site ON change_history (team_id, tag, site, scraped_at);
  `,
  // 5: blobs every process shares (screenshots, PDFs), bytes in a bytea row; see postgres-blob-store.ts.
  `
  CREATE TABLE blobs (
    id TEXT PRIMARY KEY,
    content_type TEXT NOT NULL,
    bytes BYTEA NOT NULL
  );
  `,
  // 6: a token plan per team (null: unlimited); the token balance is tokens - tokens_used.
  `ALTER TABLE teams ADD COLUMN tokens BIGINT;`,
  // 7: monitors (the definition as JSON; next_check_id is the schedule's compare-and-set token) and their checks.
  `
  CREATE TABLE monitors (
    id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    next_check_id TEXT,
    body TEXT NOT NULL
  );
  CREATE INDEX monitors_team ON monitors (team_id, created_at);
  CREATE TABLE monitor_checks (
    seq BIGSERIAL PRIMARY KEY,
    monitor_id TEXT NOT NULL,
    check_id TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX monitor_checks_monitor ON monitor_checks (monitor_id, created_at);
  `,
  // 8: the index per scope (the team that stored a page, '' when shared across teams): one row per
  // scope and URL. Pages indexed before keep scope '' (seen only with QUARRY_SHARED_INDEX=true).
  `
  ALTER TABLE page_index ADD COLUMN scope TEXT NOT NULL DEFAULT '';
  ALTER TABLE page_index DROP CONSTRAINT page_index_pkey;
  ALTER TABLE page_index ADD PRIMARY KEY (scope, url);
  DROP INDEX page_index_site;
  CREATE INDEX page_index_site ON page_index (scope, site, stored_at);
  `,
  // 9: requests charged with an idempotency key (Billing.chargeRequest), one row per team and key
  // holding what the first charge took; a page's tokens are charged by quarry_finish_item in the
  // transaction that stores the page, with its credits.
  `
  CREATE TABLE charged_requests (
    team_id TEXT NOT NULL REFERENCES teams (id),
    request_id TEXT NOT NULL,
    reason TEXT NOT NULL,
    credits BIGINT NOT NULL,
    tokens BIGINT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (team_id, request_id)
  );

  -- Adds p_tokens to the team's tokens used and records them. Returns false for an unknown team.
  CREATE FUNCTION quarry_charge_tokens(p_team TEXT, p_tokens BIGINT, p_reason TEXT, p_at BIGINT, p_key TEXT, p_job TEXT) RETURNS BOOLEAN
  LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  BEGIN
    UPDATE teams SET tokens_used = tokens_used + p_tokens WHERE id = p_team;
    IF NOT FOUND THEN RETURN false; END IF;
    IF p_tokens > 0 THEN
      INSERT INTO usage (team_id, kind, amount, reason, at, api_key_id, job_id) VALUES (p_team, 'tokens', p_tokens, p_reason, p_at, p_key, p_job);
    END IF;
    RETURN true;
  END
  $fn$;

  DROP FUNCTION quarry_finish_item(TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, BIGINT, TEXT);
  CREATE FUNCTION quarry_finish_item(
    p_job TEXT, p_team TEXT, p_key TEXT, p_document TEXT,
    p_error_url TEXT, p_error_code TEXT, p_error_message TEXT,
    p_credits BIGINT, p_tokens BIGINT, p_at BIGINT, p_outbox TEXT
  ) RETURNS BOOLEAN
  LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  BEGIN
    UPDATE job_items SET state = CASE WHEN p_document IS NULL THEN 'failed' ELSE 'done' END
    WHERE job_id = p_job AND key = p_key AND state = 'queued';
    IF NOT FOUND THEN RETURN false; END IF;
    IF p_document IS NOT NULL THEN
      INSERT INTO job_documents (job_id, key, document) VALUES (p_job, p_key, p_document);
      UPDATE jobs SET pending = pending - 1, completed = completed + 1, credits_used = credits_used + p_credits WHERE id = p_job;
    ELSE
      IF p_error_message IS NOT NULL THEN
        INSERT INTO job_errors (job_id, key, url, code, message, at) VALUES (p_job, p_key, p_error_url, p_error_code, p_error_message, p_at);
      END IF;
      UPDATE jobs SET pending = pending - 1, live = live - 1, failed = failed + 1, credits_used = credits_used + p_credits WHERE id = p_job;
    END IF;
    IF p_credits > 0 THEN PERFORM quarry_charge(p_team, p_credits, 'page', p_at, NULL, p_job); END IF;
    IF p_tokens > 0 THEN PERFORM quarry_charge_tokens(p_team, p_tokens, 'page', p_at, NULL, p_job); END IF;
    IF p_outbox IS NOT NULL THEN PERFORM quarry_add_outbox(p_outbox); END IF;
    RETURN true;
  END
  $fn$;
  `,
  // 10: a job's webhook events go out in phases (row-mappers' phaseRank): started (0) first, pages
  // (1) next, completed/failed/cancelled (2) last; a row waits while a pending row of its job has a
  // lower phase, and nothing of a job is written after its last row. Rows written before are middle,
  // so they are leased as they were. The function reads "phase" ('first', 'last' or absent). A page
  // finished while its job is failed or cancelled serialises with that change on the job's row (both
  // update it), so it sees the last event. The partial indexes answer both checks without reading
  // the job's delivered rows.
  `
  ALTER TABLE webhook_outbox ADD COLUMN phase SMALLINT NOT NULL DEFAULT 1;
  CREATE INDEX webhook_outbox_last ON webhook_outbox (job_id) WHERE phase = 2;
  CREATE INDEX webhook_outbox_job_pending ON webhook_outbox (job_id, phase) WHERE state = 'pending';

  CREATE OR REPLACE FUNCTION quarry_add_outbox(p_events TEXT) RETURNS void
  LANGUAGE sql SET search_path FROM CURRENT AS $fn$
    INSERT INTO webhook_outbox (id, job_id, team_id, url, headers, body, created_at, next_attempt_at, phase)
    SELECT e.id, e."jobId", e."teamId", e.url, e.headers::text, e.body, e."createdAt", e."createdAt",
      CASE e.phase WHEN 'first' THEN 0 WHEN 'last' THEN 2 ELSE 1 END
    FROM json_to_recordset(p_events::json) AS e(id TEXT, "jobId" TEXT, "teamId" TEXT, url TEXT, headers JSON, body TEXT, "createdAt" BIGINT, phase TEXT)
    WHERE NOT EXISTS (SELECT 1 FROM webhook_outbox AS last WHERE last.job_id = e."jobId" AND last.phase = 2)
    ON CONFLICT (id) DO NOTHING
  $fn$;
  `,
  // 11: a job's documents become visible in the order of their seq. The document's seq was drawn
  // before the job's row was locked, so two pages finishing together could commit 6 before 5, and
  // a reader paging by offset (status pages, the crawl watcher) that had read 6 skipped 5 for
  // good. The job's row is now locked first: the pages of one job draw their seq and commit one
  // after another (they serialised on that row anyway, at the counters' update).
  `
  CREATE OR REPLACE FUNCTION quarry_finish_item(
    p_job TEXT, p_team TEXT, p_key TEXT, p_document TEXT,
    p_error_url TEXT, p_error_code TEXT, p_error_message TEXT,
    p_credits BIGINT, p_tokens BIGINT, p_at BIGINT, p_outbox TEXT
  ) RETURNS BOOLEAN
  LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  BEGIN
    PERFORM 1 FROM jobs WHERE id = p_job FOR UPDATE;
    UPDATE job_items SET state = CASE WHEN p_document IS NULL THEN 'failed' ELSE 'done' END
    WHERE job_id = p_job AND key = p_key AND state = 'queued';
    IF NOT FOUND THEN RETURN false; END IF;
    IF p_document IS NOT NULL THEN
      INSERT INTO job_documents (job_id, key, document) VALUES (p_job, p_key, p_document);
      UPDATE jobs SET pending = pending - 1, completed = completed + 1, credits_used = credits_used + p_credits WHERE id = p_job;
    ELSE
      IF p_error_message IS NOT NULL THEN
        INSERT INTO job_errors (job_id, key, url, code, message, at) VALUES (p_job, p_key, p_error_url, p_error_code, p_error_message, p_at);
      END IF;
      UPDATE jobs SET pending = pending - 1, live = live - 1, failed = failed + 1, credits_used = credits_used + p_credits WHERE id = p_job;
    END IF;
    IF p_credits > 0 THEN PERFORM quarry_charge(p_team, p_credits, 'page', p_at, NULL, p_job); END IF;
    IF p_tokens > 0 THEN PERFORM quarry_charge_tokens(p_team, p_tokens, 'page', p_at, NULL, p_job); END IF;
    IF p_outbox IS NOT NULL THEN PERFORM quarry_add_outbox(p_outbox); END IF;
    RETURN true;
  END
  $fn$;
  `,
];

/** Rows every Quarry schema has: the local team ($1, for keyless requests), oldest of all teams. */
export const postgresSeed = `INSERT INTO teams (id, name, credits, created_at) VALUES ($1, 'Local', NULL, 0) ON CONFLICT (id) DO NOTHING`;

import type pg from 'pg';
import { StorageError } from '../../core/errors.js';

/**
 * Versioned schema migrations of the PostgreSQL engine. Append only: never edit a released step,
 * add a new one. `switchboard_schema` holds one row per applied step. Times are epoch
 * milliseconds (BIGINT), as on SQLite, so both engines hand the same values to core.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: the initial schema (the SQLite schema at its version 2, in PostgreSQL's own types)
  `
  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    key TEXT NOT NULL,
    platform TEXT NOT NULL,
    chat_id TEXT NOT NULL,
    thread_id TEXT,
    user_id TEXT NOT NULL,
    person_key TEXT NOT NULL,
    started_at BIGINT NOT NULL,
    last_active_at BIGINT NOT NULL,
    ended_at BIGINT,
    end_reason TEXT,
    prompt TEXT NOT NULL,
    prompt_sha256 TEXT NOT NULL,
    prompt_layers TEXT NOT NULL,
    tools_signature TEXT NOT NULL DEFAULT '',
    summary TEXT,
    prompt_rebuilds INTEGER NOT NULL DEFAULT 0,
    requests BIGINT NOT NULL DEFAULT 0,
    input_tokens BIGINT NOT NULL DEFAULT 0,
    output_tokens BIGINT NOT NULL DEFAULT 0,
    cached_tokens BIGINT NOT NULL DEFAULT 0,
    cache_write_tokens BIGINT NOT NULL DEFAULT 0
  );
  CREATE INDEX sessions_open ON sessions(key) WHERE ended_at IS NULL;
  CREATE INDEX sessions_user ON sessions(platform, user_id) WHERE ended_at IS NULL;
  CREATE INDEX sessions_person ON sessions(person_key, started_at);
  CREATE INDEX sessions_active ON sessions(last_active_at);

  CREATE TABLE messages (
    id BIGSERIAL PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    person_key TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('user','assistant','tool')),
    content TEXT NOT NULL,
    tool_calls TEXT,
    tool_call_id TEXT,
    tool_name TEXT,
    created_at BIGINT NOT NULL,
    input_tokens BIGINT,
    output_tokens BIGINT,
    cached_tokens BIGINT,
    compressed BOOLEAN NOT NULL DEFAULT FALSE,
    -- Full-text search (session_search): words as written ('simple') and English stems, so both
    -- "invoices" and "invoice" find "invoice", and names or other languages still match exactly.
    tsv tsvector GENERATED ALWAYS AS (
      CASE WHEN role IN ('user','assistant') THEN to_tsvector('simple', content) || to_tsvector('english', content) END
    ) STORED
  );
  CREATE INDEX messages_session ON messages(session_id, id);
  CREATE INDEX messages_person ON messages(person_key, id);
  CREATE INDEX messages_tsv ON messages USING GIN (tsv);

  CREATE TABLE inbound (
    seq BIGSERIAL UNIQUE,
    platform TEXT NOT NULL,
    update_id TEXT NOT NULL,
    received_at BIGINT NOT NULL,
    session_key TEXT,
    payload TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    PRIMARY KEY (platform, update_id)
  );
  CREATE INDEX inbound_pending ON inbound(received_at, seq) WHERE status = 'pending';

  CREATE TABLE outbox (
    id BIGSERIAL PRIMARY KEY,
    session_key TEXT,
    chat_key TEXT NOT NULL,
    platform TEXT NOT NULL,
    chat_id TEXT NOT NULL,
    thread_id TEXT,
    target TEXT NOT NULL,
    message TEXT NOT NULL,
    next_chunk INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    status TEXT NOT NULL DEFAULT 'pending',
    created_at BIGINT NOT NULL,
    next_attempt_at BIGINT NOT NULL,
    sent_at BIGINT
  );
  CREATE INDEX outbox_pending ON outbox(chat_key, id) WHERE status = 'pending';

  CREATE TABLE cron_jobs (
    id TEXT PRIMARY KEY,
    source TEXT NOT NULL CHECK (source IN ('config','chat')),
    owner TEXT,
    schedule TEXT NOT NULL,
    timezone TEXT,
    prompt TEXT NOT NULL,
    deliver_platform TEXT NOT NULL,
    deliver_chat TEXT NOT NULL,
    deliver_thread TEXT,
    paused BOOLEAN NOT NULL DEFAULT FALSE,
    created_at BIGINT NOT NULL,
    last_slot BIGINT,
    last_run_at BIGINT,
    last_status TEXT,
    last_result TEXT
  );

  CREATE TABLE cron_runs (
    id BIGSERIAL PRIMARY KEY,
    job_id TEXT NOT NULL,
    slot BIGINT NOT NULL,
    started_at BIGINT NOT NULL,
    finished_at BIGINT,
    status TEXT NOT NULL,
    detail TEXT,
    UNIQUE (job_id, slot)
  );
  CREATE INDEX cron_runs_running ON cron_runs(started_at) WHERE status = 'running';

  CREATE TABLE pairing_codes (
    seq BIGSERIAL UNIQUE,
    code TEXT PRIMARY KEY,
    platform TEXT NOT NULL,
    user_id TEXT NOT NULL,
    chat_id TEXT,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending'
  );
  CREATE INDEX pairing_pending ON pairing_codes(platform, user_id) WHERE status = 'pending';
  CREATE TABLE paired_users (
    platform TEXT NOT NULL,
    user_id TEXT NOT NULL,
    approved_at BIGINT NOT NULL,
    PRIMARY KEY (platform, user_id)
  );

  -- MEMORY.md / USER.md of each person (files on SQLite): every instance sees the same.
  CREATE TABLE memory (
    person_key TEXT NOT NULL,
    target TEXT NOT NULL CHECK (target IN ('memory','user')),
    entries TEXT[] NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (person_key, target)
  );
  `,
  // 2: retention picks its victims through these, so a pass costs what it deletes
  `
  CREATE INDEX inbound_done ON inbound(received_at) WHERE status != 'pending';
  CREATE INDEX outbox_sent ON outbox(sent_at) WHERE status = 'sent';
  CREATE INDEX cron_runs_finished ON cron_runs(finished_at) WHERE status != 'running';
  CREATE INDEX sessions_ended ON sessions(ended_at) WHERE ended_at IS NOT NULL;
  `,
  // 3: the model a session was started with (a chat's `model` from `chats:`, ARCHITECTURE.md §13); NULL = the global one
  `ALTER TABLE sessions ADD COLUMN model TEXT;`,
  // 4: leases (a session on one instance at a time, single-consumer doors) and instance heartbeats
  `
  CREATE TABLE leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, acquired_at BIGINT NOT NULL, expires_at BIGINT NOT NULL);
  CREATE INDEX leases_holder ON leases(holder);
  CREATE TABLE instances (id TEXT PRIMARY KEY, host TEXT NOT NULL, pid INTEGER NOT NULL, started_at BIGINT NOT NULL,
    heartbeat_at BIGINT NOT NULL, expires_at BIGINT NOT NULL);
  CREATE INDEX inbound_session_pending ON inbound(session_key, received_at, seq) WHERE status = 'pending';
  `,
  // 5: streamed replies (ARCHITECTURE.md §10): the messages a turn is streaming into, so a turn restarted after
  // a crash finishes (edits) them instead of posting the answer twice; cleared with the turn's reply
  `
  CREATE TABLE live_streams (
    session_key TEXT PRIMARY KEY,
    message_ids TEXT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  `,
  // 6: the web console — the 7-day
  // figures read only this index (the sessions list already pages by sessions_active), and `held`
  // keeps an operator's pause of a config job across the config sync at start
  `
  CREATE INDEX messages_created ON messages(created_at) INCLUDE (role, input_tokens, cached_tokens);
  ALTER TABLE cron_jobs ADD COLUMN held BOOLEAN NOT NULL DEFAULT FALSE;
  `,  // 7: media (ARCHITECTURE.md §15): the bytes in the database, so every instance sees them
  `
  CREATE TABLE media (id TEXT PRIMARY KEY, mime TEXT NOT NULL, bytes BIGINT NOT NULL, data BYTEA NOT NULL, stored_at BIGINT NOT NULL);
  CREATE INDEX media_stored ON media(stored_at);
  ALTER TABLE messages ADD COLUMN media TEXT;
  `,
  // 8: approvals (ARCHITECTURE.md §16): a paused tool call, the turn so far, and who answered
  `
  CREATE TABLE approvals (
    id TEXT PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    session_key TEXT NOT NULL,
    person_key TEXT NOT NULL,
    platform TEXT NOT NULL,
    chat_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    tool TEXT NOT NULL,
    server TEXT,
    args TEXT NOT NULL,
    reason TEXT NOT NULL,
    turn TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending',
    decision TEXT,
    answered_by TEXT,
    answered_at BIGINT,
    result TEXT
  );
  CREATE INDEX approvals_pending ON approvals(expires_at) WHERE state = 'pending';
  CREATE INDEX approvals_created ON approvals(created_at);
  `,
  // 9: a lease someone else tried to take while it was held (issue 42): the turn whose write gives a
  // session's lease up reads the journal once more only then (src/store/postgres/turns.ts)
  `
  ALTER TABLE leases ADD COLUMN wanted BOOLEAN NOT NULL DEFAULT FALSE;
  `,
  // 10: where each approval prompt was posted, as its door reported it, so any instance (and this one after a
  // restart) can close the prompt (ARCHITECTURE.md §16)
  `
  ALTER TABLE approvals ADD COLUMN prompt_ref TEXT;
  `,
];

/** Any fixed number: the key of the advisory lock that keeps two starting instances from migrating at once. */
const MIGRATION_LOCK = 7_110_415_001;

/**
 * Applies the pending steps in one transaction under `pg_advisory_xact_lock`: of several instances
 * starting at once, one migrates and the others wait for it, then find nothing left to do. The lock
 * ends with the transaction, also when the process dies.
 */
export async function migrate(client: pg.PoolClient): Promise<number> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS switchboard_schema (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)');
    const current = await readVersion(client);
    if (current > MIGRATIONS.length) {
      throw new StorageError(`database schema version ${current} is newer than this Switchboard (${MIGRATIONS.length}); upgrade Switchboard`);
    }
    for (let v = current; v < MIGRATIONS.length; v++) {
      await client.query(MIGRATIONS[v]);
      await client.query('INSERT INTO switchboard_schema (version, applied_at) VALUES ($1, $2)', [v + 1, Date.now()]);
    }
    await client.query('COMMIT');
    return MIGRATIONS.length;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

export async function readVersion(q: Pick<pg.PoolClient, 'query'>): Promise<number> {
  const r = await q.query<{ v: number | null }>('SELECT MAX(version) AS v FROM switchboard_schema');
  return r.rows[0]?.v ?? 0;
}

import type Database from 'better-sqlite3';

type Db = Database.Database;

/**
 * Versioned schema migrations. Append only: never edit a released step, add a new one.
 * PRAGMA user_version holds the number of steps applied. A step is SQL, or a function for a step
 * that must move data the way only code can.
 */
export type Migration = string | ((db: Db) => void);

export const MIGRATIONS: readonly Migration[] = [
  // 1: the initial schema
  `
  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    key TEXT NOT NULL,
    platform TEXT NOT NULL,
    person_key TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    last_active_at INTEGER NOT NULL,
    ended_at INTEGER,
    end_reason TEXT,
    prompt TEXT NOT NULL,
    prompt_sha256 TEXT NOT NULL,
    prompt_layers TEXT NOT NULL,
    tools_signature TEXT NOT NULL DEFAULT '',
    summary TEXT,
    prompt_rebuilds INTEGER NOT NULL DEFAULT 0,
    requests INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cached_tokens INTEGER NOT NULL DEFAULT 0,
    cache_write_tokens INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX sessions_open ON sessions(key) WHERE ended_at IS NULL;
  CREATE INDEX sessions_person ON sessions(person_key, started_at);

  CREATE TABLE messages (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    person_key TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('user','assistant','tool')),
    content TEXT NOT NULL,
    tool_calls TEXT,
    tool_call_id TEXT,
    tool_name TEXT,
    created_at INTEGER NOT NULL,
    input_tokens INTEGER,
    output_tokens INTEGER,
    cached_tokens INTEGER,
    compressed INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX messages_session ON messages(session_id, id);
  CREATE INDEX messages_person ON messages(person_key);

  CREATE VIRTUAL TABLE messages_fts USING fts5(
    content, content='messages', content_rowid='id', tokenize='porter unicode61'
  );
  CREATE TRIGGER messages_ai AFTER INSERT ON messages WHEN new.role IN ('user','assistant') BEGIN
    INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
  END;
  CREATE TRIGGER messages_ad AFTER DELETE ON messages WHEN old.role IN ('user','assistant') BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
  END;

  CREATE TABLE inbound (
    platform TEXT NOT NULL,
    update_id TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    session_key TEXT,
    payload TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    PRIMARY KEY (platform, update_id)
  );
  CREATE INDEX inbound_pending ON inbound(status, received_at) WHERE status = 'pending';

  CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    session_key TEXT,
    chat_key TEXT NOT NULL,
    target TEXT NOT NULL,
    message TEXT NOT NULL,
    next_chunk INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    status TEXT NOT NULL DEFAULT 'pending',
    created_at INTEGER NOT NULL,
    next_attempt_at INTEGER NOT NULL,
    sent_at INTEGER
  );
  CREATE INDEX outbox_pending ON outbox(chat_key, id) WHERE status = 'pending';

  CREATE TABLE cron_jobs (
    id TEXT PRIMARY KEY,
    source TEXT NOT NULL CHECK (source IN ('config','chat')),
    owner TEXT,
    schedule TEXT NOT NULL,
    timezone TEXT,
    prompt TEXT NOT NULL,
    deliver TEXT NOT NULL,
    paused INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    last_slot INTEGER,
    last_run_at INTEGER,
    last_status TEXT,
    last_result TEXT
  );

  CREATE TABLE cron_runs (
    id INTEGER PRIMARY KEY,
    job_id TEXT NOT NULL,
    slot INTEGER NOT NULL,
    started_at INTEGER NOT NULL,
    finished_at INTEGER,
    status TEXT NOT NULL,
    detail TEXT,
    UNIQUE (job_id, slot)
  );

  CREATE TABLE pairing_codes (
    code TEXT PRIMARY KEY,
    platform TEXT NOT NULL,
    user_id TEXT NOT NULL,
    chat_id TEXT,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending'
  );
  CREATE TABLE paired_users (
    platform TEXT NOT NULL,
    user_id TEXT NOT NULL,
    approved_at INTEGER NOT NULL,
    PRIMARY KEY (platform, user_id)
  );
  `,
  // 2: addresses as columns (sessions, outbox, cron jobs) instead of strings parsed back
  migrateAddressColumns,
  // 3: retention (src/core/retention.ts) finds what may go by time without scanning the tables
  `
  CREATE INDEX inbound_received ON inbound(received_at) WHERE status != 'pending';
  CREATE INDEX outbox_sent ON outbox(sent_at) WHERE status = 'sent';
  CREATE INDEX cron_runs_finished ON cron_runs(finished_at) WHERE status != 'running';
  CREATE INDEX sessions_ended ON sessions(ended_at) WHERE ended_at IS NOT NULL;
  `,
  // 4: the model a session was started with (a chat's `model` from `chats:`, ARCHITECTURE.md §13); NULL = the global one
  `ALTER TABLE sessions ADD COLUMN model TEXT;`,
  // 5: leases and instances (ARCHITECTURE.md §9; one process here, but the same gateway code as PostgreSQL)
  `
  CREATE TABLE leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, acquired_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
  CREATE INDEX leases_holder ON leases(holder);
  CREATE TABLE instances (id TEXT PRIMARY KEY, host TEXT NOT NULL, pid INTEGER NOT NULL, started_at INTEGER NOT NULL,
    heartbeat_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
  CREATE INDEX inbound_session_pending ON inbound(session_key, received_at) WHERE status = 'pending';
  `,
  // 6: streamed replies (ARCHITECTURE.md §10): the messages a turn is streaming into, so a turn restarted after
  // a crash finishes (edits) them instead of posting the answer twice; cleared with the turn's reply
  `
  CREATE TABLE live_streams (
    session_key TEXT PRIMARY KEY,
    message_ids TEXT NOT NULL,
    updated_at INTEGER NOT NULL
  );
  `,
  // 7: the web console — the 7-day
  // figures read only this covering index, the sessions list pages by last activity, and `held`
  // keeps an operator's pause of a config job across the config sync at start
  `
  CREATE INDEX messages_created ON messages(created_at, role, input_tokens, cached_tokens);
  CREATE INDEX sessions_active ON sessions(last_active_at);
  ALTER TABLE cron_jobs ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
  `,
  // 8: fewer pages written per message. Every b-tree a message's writes touch is one more page in
  // the write-ahead log at each commit; these serve no per-message query:
  // - messages_person: no query reads messages by person alone (search goes through FTS5, the
  //   transcript through messages_session, which it now uses instead of this one);
  // - inbound_pending: the sweep's pending() reads the (few) pending rows through
  //   inbound_session_pending, which has the same rows;
  // - leases: taken and given up for every turn. Keyed by name alone (WITHOUT ROWID: no separate
  //   primary-key index) and without leases_holder — the table holds only the leases in use, so
  //   renewAll and releaseAll (a heartbeat, a stop) read it whole. One page per write, not three.
  // And sessions_open takes started_at too, so the open session of a key (read every turn) comes
  // straight off the index, without sorting.
  `
  DROP INDEX IF EXISTS sessions_open;
  CREATE INDEX sessions_open ON sessions(key, started_at) WHERE ended_at IS NULL;
  DROP INDEX IF EXISTS messages_person;
  DROP INDEX IF EXISTS inbound_pending;
  CREATE TABLE leases_by_name (name TEXT PRIMARY KEY, holder TEXT NOT NULL, acquired_at INTEGER NOT NULL, expires_at INTEGER NOT NULL)
    WITHOUT ROWID;
  INSERT INTO leases_by_name (name, holder, acquired_at, expires_at) SELECT name, holder, acquired_at, expires_at FROM leases;
  DROP TABLE leases;
  ALTER TABLE leases_by_name RENAME TO leases;
  `,
  // 9: FTS5 indexing in batches (fts-index.ts), not by a trigger per inserted row: FTS5 wrote a new
  // segment and its structure record at every commit, about three times what a turn's two inserts
  // cost without it. fts_indexed holds the highest messages.id indexed: everything up to now, which
  // the old trigger indexed. A row deleted before it was indexed is not in the index, and FTS5's
  // 'delete' of a row it never had corrupts an external-content index, so the delete trigger removes
  // only rows at or below the watermark. And since a new row takes max(id) + 1, a delete of the
  // highest rows brings the watermark down to the highest id left — otherwise a later row would
  // take an id at or below it and never be indexed.
  // (No statement updates messages.content; compression only sets `compressed`.)
  `
  DROP TRIGGER IF EXISTS messages_ai;
  DROP TRIGGER IF EXISTS messages_ad;
  CREATE TABLE fts_indexed (only_row INTEGER PRIMARY KEY CHECK (only_row = 1), last_id INTEGER NOT NULL);
  INSERT INTO fts_indexed (only_row, last_id) SELECT 1, COALESCE(max(id), 0) FROM messages;
  CREATE TRIGGER messages_ad AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, content) SELECT 'delete', old.id, old.content
      WHERE old.role IN ('user','assistant') AND old.id <= (SELECT last_id FROM fts_indexed);
    UPDATE fts_indexed SET last_id = (SELECT COALESCE(max(id), 0) FROM messages)
      WHERE last_id > (SELECT COALESCE(max(id), 0) FROM messages);
  END;
  `,  // 10: media (ARCHITECTURE.md §15): one row per stored file (the bytes are files in $SWITCHBOARD_HOME/media/<id>)
  `
  CREATE TABLE media (id TEXT PRIMARY KEY, mime TEXT NOT NULL, bytes INTEGER NOT NULL, stored_at INTEGER NOT NULL);
  CREATE INDEX media_stored ON media(stored_at);
  ALTER TABLE messages ADD COLUMN media TEXT;
  `,
  // 11: approvals (ARCHITECTURE.md §16): a paused tool call, the turn so far, and who answered
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
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending',
    decision TEXT,
    answered_by TEXT,
    answered_at INTEGER,
    result TEXT
  );
  CREATE INDEX approvals_pending ON approvals(expires_at) WHERE state = 'pending';
  CREATE INDEX approvals_created ON approvals(created_at);
  `,
  // 12: where each approval prompt was posted, as its door reported it, so any instance (and this one after a
  // restart) can close the prompt (ARCHITECTURE.md §16)
  `
  ALTER TABLE approvals ADD COLUMN prompt_ref TEXT;
  `,
];

/**
 * Round 1 stored "where" as strings: the session key, the outbox target as JSON, the cron `deliver`
 * text. This step splits them into columns once; nothing parses them afterwards.
 */
function migrateAddressColumns(db: Db): void {
  db.exec(`
    ALTER TABLE sessions ADD COLUMN chat_id TEXT NOT NULL DEFAULT '';
    ALTER TABLE sessions ADD COLUMN thread_id TEXT;
    ALTER TABLE sessions ADD COLUMN user_id TEXT NOT NULL DEFAULT '';
    CREATE INDEX sessions_user ON sessions(platform, user_id) WHERE ended_at IS NULL;

    ALTER TABLE outbox ADD COLUMN platform TEXT NOT NULL DEFAULT '';
    ALTER TABLE outbox ADD COLUMN chat_id TEXT NOT NULL DEFAULT '';
    ALTER TABLE outbox ADD COLUMN thread_id TEXT;
    UPDATE outbox SET platform = json_extract(target, '$.platform'), chat_id = json_extract(target, '$.chatId'),
      thread_id = json_extract(target, '$.threadId');
    UPDATE outbox SET thread_id = NULL WHERE thread_id = '';
    UPDATE outbox SET chat_key = platform || ':' || replace(replace(chat_id, '%', '%25'), ':', '%3A')
      || COALESCE(':' || replace(replace(thread_id, '%', '%25'), ':', '%3A'), '');

    ALTER TABLE cron_jobs ADD COLUMN deliver_platform TEXT NOT NULL DEFAULT '';
    ALTER TABLE cron_jobs ADD COLUMN deliver_chat TEXT NOT NULL DEFAULT '';
    ALTER TABLE cron_jobs ADD COLUMN deliver_thread TEXT;
  `);
  const sessions = db.prepare('SELECT id, key FROM sessions').all() as Array<{ id: string; key: string }>;
  const setSession = db.prepare('UPDATE sessions SET chat_id = ?, thread_id = ?, user_id = ? WHERE id = ?');
  for (const { id, key } of sessions) {
    const parts = key.split(':').slice(1);
    if (parts.length === 1) setSession.run(parts[0], null, parts[0], id); // cron:<job>
    else if (parts.length === 2) setSession.run(parts[0], null, parts[1], id);
    else setSession.run(parts[0], parts[1], parts.slice(2).join(':'), id);
  }
  const jobs = db.prepare('SELECT id, deliver FROM cron_jobs').all() as Array<{ id: string; deliver: string }>;
  const setJob = db.prepare('UPDATE cron_jobs SET deliver_platform = ?, deliver_chat = ?, deliver_thread = ? WHERE id = ?');
  for (const { id, deliver } of jobs) {
    const [platform, chat = '', thread] = deliver.split(':');
    setJob.run(platform, chat, thread ?? null, id);
  }
  db.exec('ALTER TABLE cron_jobs DROP COLUMN deliver');
}

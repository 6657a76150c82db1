/**
 * A session's turns on the shared engine (ARCHITECTURE.md §9): `begin` and `commit` are one statement each,
 * so one round trip — no BEGIN and COMMIT of their own (a single statement is its own transaction).
 *
 * `commit` settles the journal rows first in thought: `locked` locks every row of the batch that is
 * still pending (FOR UPDATE: a row another instance settled meanwhile is re-read after its commit and
 * drops out), and every write below is conditional on `ok`, "all of them were": one answered
 * elsewhere and the statement writes nothing. Rows of one statement see the same snapshot: a message
 * another instance journaled after it began, whose lease attempt then failed, marked the lease
 * `wanted` (BEGIN), and the release returns that (`contested`): the caller reads the journal once more.
 * An attempt after the release took the lease row's lock waits for this statement and then takes it.
 */
import type { Runner } from './db.js';
import { formatAddress } from '../../platform/address.js';
import { historyRow } from './messages.js';
import { revive } from './inbound.js';
import type { LeaseClaim, TurnCommit, TurnRepo, TurnStart, TurnWrites } from '../../core/store/turns.js';
import type { ChatMessage, Usage } from '../../core/messages.js';
import type { NewApproval } from '../../core/store/approvals.js';
import type { OutboxItem } from '../../core/store/traffic.js';
import { takenOutboxItem } from '../rows.js';

/**
 * The lease as LeaseRepo.acquire takes it (free, expired, or the holder's own: renewed), except that an
 * attempt that fails writes too: it marks the lease `wanted`, so that its holder, giving it up in
 * `commit`, learns that someone journaled a message meanwhile and found the session taken.
 */
const BEGIN = `
WITH l AS (
  INSERT INTO leases (name, holder, acquired_at, expires_at) VALUES ($1, $2, $3, $4)
  ON CONFLICT (name) DO UPDATE SET
    acquired_at = CASE WHEN leases.holder = EXCLUDED.holder THEN leases.acquired_at
                       WHEN leases.expires_at <= EXCLUDED.acquired_at THEN EXCLUDED.acquired_at ELSE leases.acquired_at END,
    wanted = CASE WHEN leases.holder = EXCLUDED.holder THEN leases.wanted WHEN leases.expires_at <= EXCLUDED.acquired_at THEN FALSE ELSE TRUE END,
    holder = CASE WHEN leases.holder = EXCLUDED.holder OR leases.expires_at <= EXCLUDED.acquired_at THEN EXCLUDED.holder ELSE leases.holder END,
    expires_at = CASE WHEN leases.holder = EXCLUDED.holder OR leases.expires_at <= EXCLUDED.acquired_at THEN EXCLUDED.expires_at ELSE leases.expires_at END
  RETURNING holder = $2 AS mine),
-- The statement's snapshot may be older than the commit of the write that gave the lease up (the upsert
-- waited for its lock): FOR UPDATE re-reads each row that changed since, and one no longer pending drops out.
b AS (SELECT payload, received_at, seq FROM inbound WHERE session_key = $5 AND status = 'pending' AND (SELECT mine FROM l) FOR UPDATE)
SELECT (SELECT mine FROM l) AS acquired,
  (SELECT json_agg(payload ORDER BY received_at, seq) FROM b) AS batch,
  (SELECT message_ids FROM live_streams WHERE session_key = $5 AND (SELECT mine FROM l)) AS stream`;

const COMMIT = `
WITH batch AS (SELECT * FROM unnest($1::text[], $2::text[]) AS b(platform, update_id)),
locked AS (
  SELECT 1 FROM inbound i JOIN batch b ON i.platform = b.platform AND i.update_id = b.update_id
  WHERE i.status = 'pending' FOR UPDATE OF i),
ok AS (SELECT count(*) = cardinality($1::text[]) AS ok FROM locked),
marked AS (
  UPDATE inbound i SET status = $3::text FROM batch b
  WHERE (SELECT ok FROM ok) AND i.platform = b.platform AND i.update_id = b.update_id AND i.status = 'pending'
  RETURNING 1),
history AS (
  INSERT INTO messages (session_id, person_key, role, content, tool_calls, tool_call_id, tool_name, input_tokens, output_tokens, cached_tokens, media, created_at)
  SELECT $4::text, $5::text, m.role, m.content, m.tool_calls, m.tool_call_id, m.tool_name, m.input_tokens, m.output_tokens, m.cached_tokens, m.media, $6::bigint
  FROM unnest($7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::bigint[], $13::bigint[], $14::bigint[], $15::text[])
    WITH ORDINALITY AS m(role, content, tool_calls, tool_call_id, tool_name, input_tokens, output_tokens, cached_tokens, media, n)
  WHERE (SELECT ok FROM ok)
  ORDER BY m.n
  RETURNING 1),
turn AS (
  UPDATE sessions SET last_active_at = $16::bigint, requests = requests + $17::bigint, input_tokens = input_tokens + $18::bigint,
    output_tokens = output_tokens + $19::bigint, cached_tokens = cached_tokens + $20::bigint, cache_write_tokens = cache_write_tokens + $21::bigint
  WHERE id = $22::text AND (SELECT ok FROM ok)
  RETURNING 1),
asked AS (
  INSERT INTO approvals (id, code, session_key, person_key, platform, chat_id, user_id, tool, server, args, reason, turn, created_at, expires_at)
  SELECT a.id, a.code, a.session_key, a.person_key, a.platform, a.chat_id, a.user_id, a.tool, a.server, a.args, a.reason, a.turn, a.created_at, a.expires_at
  FROM json_populate_record(NULL::approvals, $23::json) a
  WHERE $23::json IS NOT NULL AND (SELECT ok FROM ok)
  RETURNING 1),
finished AS (UPDATE approvals SET state = 'done' WHERE id = $24::text AND (SELECT ok FROM ok) RETURNING 1),
reply AS (
  INSERT INTO outbox (session_key, chat_key, platform, chat_id, thread_id, target, message, created_at, next_attempt_at)
  SELECT $25::text, $26::text, $27::text, $28::text, $29::text, $30::text, $31::text, $32::bigint,
    CASE WHEN $33::bigint IS NOT NULL AND NOT EXISTS (SELECT 1 FROM outbox WHERE status = 'pending' AND chat_key = $26::text)
      THEN $32::bigint + $33::bigint ELSE $34::bigint END
  WHERE $26::text IS NOT NULL AND (SELECT ok FROM ok)
  RETURNING id, next_attempt_at),
cleared AS (DELETE FROM live_streams WHERE session_key = $25::text AND $35::boolean AND (SELECT ok FROM ok) RETURNING 1),
rest AS (
  SELECT i.payload, i.received_at, i.seq FROM inbound i
  WHERE i.session_key = $25::text AND i.status = 'pending'
    AND NOT EXISTS (SELECT 1 FROM batch b WHERE b.platform = i.platform AND b.update_id = i.update_id)),
freed AS (
  DELETE FROM leases WHERE name = $36::text AND holder = $37::text AND (SELECT ok FROM ok) AND NOT EXISTS (SELECT 1 FROM rest)
  RETURNING wanted)
SELECT (SELECT ok FROM ok) AS ok,
  (SELECT id FROM reply) AS reply_id,
  (SELECT next_attempt_at FROM reply) AS reply_next,
  EXISTS (SELECT 1 FROM freed) AS released,
  COALESCE((SELECT wanted FROM freed), FALSE) AS contested,
  (SELECT json_agg(payload ORDER BY received_at, seq) FROM rest) AS pending,
  CASE WHEN $35::boolean THEN NULL ELSE (SELECT message_ids FROM live_streams WHERE session_key = $25::text) END AS stream`;

interface CommitRow {
  ok: boolean;
  reply_id: number | null;
  reply_next: number | null;
  released: boolean;
  contested: boolean;
  pending: string[] | null;
  stream: string | null;
}

/** The history rows as column arrays (unnest keeps their order): the last assistant row carries the turn's usage. */
function historyColumns(messages: readonly ChatMessage[], usage: Usage | undefined): unknown[][] {
  const cols: unknown[][] = Array.from({ length: 9 }, () => []);
  messages.forEach((m, i) => {
    const row = historyRow(m, i === messages.length - 1 ? usage : undefined);
    row.forEach((v, k) => cols[k].push(v));
  });
  return cols;
}

function approvalJson(a: NewApproval): string {
  return JSON.stringify({
    id: a.id, code: a.code, session_key: a.sessionKey, person_key: a.personKey, platform: a.platform, chat_id: a.chatId, user_id: a.userId,
    tool: a.tool, server: a.server, args: a.args, reason: a.reason, turn: a.turn, created_at: a.createdAt, expires_at: a.expiresAt,
  });
}

export class PgTurnRepo implements TurnRepo {
  constructor(private readonly run: Runner) {}

  async begin(sessionKey: string, lease: LeaseClaim): Promise<TurnStart> {
    const [r] = await this.run.rows<{ acquired: boolean; batch: string[] | null; stream: string | null }>(BEGIN, [
      lease.name,
      lease.holder,
      lease.now,
      lease.now + lease.ttlMs,
      sessionKey,
    ]);
    return { acquired: r.acquired, batch: (r.batch ?? []).map(revive), streamIds: r.stream ? (JSON.parse(r.stream) as string[]) : [] };
  }

  async commit(w: TurnWrites): Promise<TurnCommit> {
    const append = w.append?.messages.length ? w.append : undefined;
    const history = historyColumns(append?.messages ?? [], append?.usage);
    const t = w.recordTurn;
    const r = w.reply ?? null;
    const { platform, chatId, threadId, ...details } = r?.target ?? { platform: null, chatId: null, threadId: null };
    const notBefore = r ? Math.max(r.at, r.notBefore ?? r.at) : null;
    const take = r && r.takeForMs !== undefined && notBefore === r.at ? r.takeForMs : null;
    const [row] = await this.run.rows<CommitRow>(COMMIT, [
      w.settle.map((m) => m.platform),
      w.settle.map((m) => m.updateId),
      w.status,
      append?.sessionId ?? null,
      append?.personKey ?? null,
      append?.at ?? null,
      ...history,
      t?.at ?? null,
      t?.requests ?? 0,
      t?.usage.inputTokens ?? 0,
      t?.usage.outputTokens ?? 0,
      t?.usage.cachedTokens ?? 0,
      t?.usage.cacheWriteTokens ?? 0,
      t?.sessionId ?? null,
      w.createApproval ? approvalJson(w.createApproval) : null,
      w.finishApproval ?? null,
      w.sessionKey,
      r ? formatAddress(r.target) : null,
      platform,
      chatId,
      threadId ?? null,
      r ? JSON.stringify(details) : null,
      r ? JSON.stringify(r.message) : null,
      r?.at ?? null,
      take,
      notBefore,
      w.clearStream,
      w.releaseLease?.name ?? null,
      w.releaseLease?.holder ?? null,
    ]);
    if (!row.ok) return { settled: false };
    let reply: { id: number; taken: OutboxItem | null } | null = null;
    if (r && row.reply_id !== null) {
      const next = Number(row.reply_next);
      const taken = take !== null && next !== r.at;
      reply = {
        id: row.reply_id,
        taken: taken ? takenOutboxItem(row.reply_id, w.sessionKey, r.target, r.message, r.at, next) : null,
      };
    }
    return {
      settled: true,
      reply,
      released: row.released,
      contested: row.contested,
      pending: (row.pending ?? []).map(revive),
      streamIds: row.stream ? (JSON.parse(row.stream) as string[]) : [],
    };
  }
}

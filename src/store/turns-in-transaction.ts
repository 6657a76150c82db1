/**
 * The TurnRepo (ARCHITECTURE.md §9) of an engine without round trips (SQLite): `begin` is the lease, the
 * journal and the stream read one after the other, `commit` one transaction of the repositories' own
 * calls. (PostgreSQL has its own: one statement each, src/store/postgres/turns.ts.)
 */
import type { Repositories, Store } from '../core/store/types.js';
import type { LeaseClaim, TurnCommit, TurnRepo, TurnStart, TurnWrites } from '../core/store/turns.js';

/** A journal row was answered elsewhere: the transaction rolls back. */
class NotSettled extends Error {}

export function turnsInTransaction(free: Repositories, transaction: Store['transaction']): TurnRepo {
  return {
    async begin(sessionKey: string, lease: LeaseClaim): Promise<TurnStart> {
      if (!(await free.leases.acquire(lease.name, lease.holder, lease.now, lease.ttlMs))) return { acquired: false, batch: [], streamIds: [] };
      return { acquired: true, batch: await free.inbound.pendingFor(sessionKey), streamIds: await free.streams.get(sessionKey) };
    },

    async commit(w: TurnWrites): Promise<TurnCommit> {
      try {
        return await transaction(async (tx) => {
          for (const m of w.settle) if (!(await tx.inbound.mark(m.platform, m.updateId, w.status))) throw new NotSettled();
          if (w.append) await tx.messages.append(w.append.sessionId, w.append.personKey, w.append.messages, w.append.at, w.append.usage);
          if (w.recordTurn) await tx.sessions.recordTurn(w.recordTurn.sessionId, w.recordTurn.at, w.recordTurn.usage, w.recordTurn.requests);
          if (w.createApproval) await tx.approvals.create(w.createApproval);
          if (w.finishApproval) await tx.approvals.finish(w.finishApproval);
          let reply: { id: number; taken: TurnCommitReply } | null = null;
          const r = w.reply;
          if (r) {
            const due = r.notBefore === undefined || r.notBefore <= r.at;
            reply =
              due && r.takeForMs !== undefined
                ? await tx.outbox.enqueueTaken(r.target, r.message, r.at, w.sessionKey, r.takeForMs)
                : { id: await tx.outbox.enqueue(r.target, r.message, r.at, w.sessionKey, r.notBefore), taken: null };
          }
          if (w.clearStream) await tx.streams.clear(w.sessionKey);
          const pending = await tx.inbound.pendingFor(w.sessionKey);
          const released = !pending.length && w.releaseLease !== undefined && (await tx.leases.release(w.releaseLease.name, w.releaseLease.holder));
          // One process per database file: whether another asked for the lease is not kept, so always "maybe".
          return { settled: true as const, reply, released, contested: released, pending, streamIds: w.clearStream ? [] : await tx.streams.get(w.sessionKey) };
        });
      } catch (error) {
        if (error instanceof NotSettled) return { settled: false };
        throw error;
      }
    },
  };
}

type TurnCommitReply = Awaited<ReturnType<Repositories['outbox']['enqueueTaken']>>['taken'];

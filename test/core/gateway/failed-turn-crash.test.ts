/**
 * A failed turn is stored in one write (issue 37; one transaction on SQLite): what the user said, the apology and the
 * journal rows commit together. When they were two writes (the message kept first, the apology and
 * the journal after), a crash between them left the message both in the history and pending in the
 * journal — the restart's sweep answered it again and stored it a second time, so the model saw the
 * user say it twice. Here the process "dies" at the commit of the turn's transaction (a store
 * wrapper rolls it back and throws, as a kill would leave it), then a fresh gateway on the same
 * database sweeps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, lastUserText, type ModelFake } from '../../fakes/model.js';
import { cleanup, inbound, makeCore, until } from '../../helpers/core.js';
import { openSqliteStore, sqlitePath } from '../../../src/store/sqlite/index.js';
import type { Repositories, Store } from '../../../src/core/store/types.js';
import { turnsInTransaction } from '../../../src/store/turns-in-transaction.js';

let model: ModelFake;
beforeAll(async () => {
  model = await startModelFake();
});
afterAll(async () => {
  await model.close();
});

/**
 * While `dying()`, every transaction is rolled back at its commit, as if the process died there — the
 * turn's one write too (SQLite's store.turns is its repositories in one such transaction).
 */
function dyingAtCommit(store: Store, dying: () => boolean): Store {
  const transaction: Store['transaction'] = <T>(fn: (tx: Repositories) => Promise<T>) =>
    store.transaction(async (tx) => {
      const value = await fn(tx);
      if (dying()) throw new Error('killed before the commit');
      return value;
    });
  return { ...store, transaction, turns: turnsInTransaction(store, transaction) };
}

describe('a failed turn cut by a crash', () => {
  it('keeps the message once: after the restart the model and the history have it one time', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sb-crash-'));
    let dying = true;
    const first = makeCore({ modelUrl: model.openaiUrl, home, store: dyingAtCommit(openSqliteStore({ path: sqlitePath(home), home }), () => dying) });
    model.queue({ status: 500 });
    try {
      await first.gateway.handle(inbound('remember the milk', { user: '901' }));
      await first.gateway.idle();
      expect(first.door.sent).toEqual([]); // the apology died with the process
    } finally {
      dying = false;
      await first.close();
    }

    model.setScript((req) => ({ text: `Answer to ${lastUserText(req)}` }));
    const before = model.completions().length;
    const second = makeCore({ modelUrl: model.openaiUrl, home });
    try {
      expect(await second.gateway.sweep(['telegram'])).toBe(1);
      await until(() => second.door.sent.length === 1, 10_000, 'the answer after the restart');
      expect(second.door.sent[0].text).toBe('Answer to remember the milk');
      const [request] = model.completions().slice(before);
      const said = (request.body.messages as Array<{ role: string; content: unknown }>).filter((m) => m.role === 'user' && m.content === 'remember the milk');
      expect(said).toHaveLength(1);
      const session = await second.store.sessions.findOpen({ platform: 'telegram', chatId: '901', userId: '901' });
      const history = await second.store.messages.history(session!.id);
      expect(history.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['remember the milk']);
    } finally {
      await second.close();
      cleanup(home);
    }
  });
});

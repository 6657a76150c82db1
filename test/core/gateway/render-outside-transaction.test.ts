/**
 * Rendering is CPU work: it happens before the transaction that stores the reply, never inside it
 * (issue 37; on SQLite a transaction holds the one connection and every other caller waits). Checked
 * for each kind of reply: an answer, a failed turn's apology, a command's answer and a refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelFake, type ModelFake } from '../../fakes/model.js';
import { cleanup, inbound, makeCore, until } from '../../helpers/core.js';
import { openSqliteStore, sqlitePath } from '../../../src/store/sqlite/index.js';
import type { Repositories, Store } from '../../../src/core/store/types.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let model: ModelFake;
beforeAll(async () => {
  model = await startModelFake();
});
afterAll(async () => {
  await model.close();
});

describe('replies', () => {
  it('are rendered before the transaction that stores them', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sb-render-'));
    const inner = openSqliteStore({ path: sqlitePath(home), home });
    let open = 0;
    const store: Store = {
      ...inner,
      transaction: async <T>(fn: (tx: Repositories) => Promise<T>) =>
        inner.transaction(async (tx) => {
          open++;
          try {
            return await fn(tx);
          } finally {
            open--;
          }
        }),
    };
    const rendered: Array<{ markdown: string; inTransaction: boolean }> = [];
    const core = makeCore({
      modelUrl: model.openaiUrl,
      home,
      store,
      allowed: '1001',
      render: (_platform, markdown) => {
        rendered.push({ markdown, inTransaction: open > 0 });
        return { chunks: [markdown] };
      },
    });
    try {
      model.queue({ text: 'an answer' }, { status: 500 });
      await core.gateway.handle(inbound('hello'));
      await until(() => core.door.sent.length === 1);
      await core.gateway.handle(inbound('again'));
      await until(() => core.door.sent.length === 2);
      await core.gateway.handle(inbound('/help'));
      await until(() => core.door.sent.length === 3);
      await core.gateway.handle(inbound('let me in', { user: '6666' }));
      await until(() => core.door.sent.length === 4);
      expect(rendered).toHaveLength(4);
      expect(rendered.filter((r) => r.inTransaction)).toEqual([]);
    } finally {
      await core.close();
      cleanup(home);
    }
  });
});

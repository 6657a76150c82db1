/**
 * Approvals in the store and the console (ARCHITECTURE.md §12, §16), on both engines: an answer moves an
 * approval once however many arrive together; the console lists pending and recent ones with who
 * answered, and answers only with a valid CSRF token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleApp } from '../../src/console/app.js';
import { ApprovalDesk } from '../../src/core/approvals/desk.js';
import type { InboundMessage } from '../../src/core/types.js';
import type { NewApproval, Store } from '../../src/core/store/types.js';
import { ENGINES, reportSkips, skipNote, type EngineDb } from '../helpers/engines.js';
import { inbound, testSettings } from '../helpers/core.js';

reportSkips();
const TOKEN = 'console-approvals-token-0123456789';

function approval(id: string, now: number): NewApproval {
  const message = inbound('SAVE it', { user: '1001' });
  return {
    id,
    code: id.slice(0, 6).toUpperCase(),
    sessionKey: 'telegram:1001:1001',
    personKey: 'telegram-1001',
    platform: 'telegram',
    chatId: '1001',
    userId: '1001',
    tool: 'memory',
    server: null,
    args: '{"action":"add","target":"memory","content":"The code word is <b>zebra</b>."}',
    reason: 'this turn read text from another session (session_search)',
    turn: JSON.stringify({ paused: { messages: [], calls: [], iteration: 1, usage: {}, requests: 1, taint: [], unattendedDenials: [] }, message }),
    createdAt: now,
    expiresAt: now + 600_000,
  };
}

describe.each(ENGINES)('approvals on $name', (engine) => {
  let db: EngineDb;
  let store: Store;
  const now = new Date();
  const resumed: InboundMessage[] = [];
  let app: ReturnType<typeof createConsoleApp>;

  beforeAll(async () => {
    if (engine.skip) return;
    db = await engine.create();
    store = await db.open();
    const desk = new ApprovalDesk({ settings: testSettings('/tmp/none', 'http://127.0.0.1:9'), store, logger: { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as never, now: () => new Date() });
    app = createConsoleApp({
      store,
      token: TOKEN,
      secrets: [],
      doors: () => [],
      model: () => 'fake',
      cron: { nextRuns: () => new Map(), runNow: async () => ({ ok: true, detail: '' }), changed: () => undefined },
      answerApproval: (id, decision) => desk.answerFromConsole(id, decision, async (m) => void resumed.push(m)),
      kickDelivery: () => undefined,
    });
  });
  afterAll(async () => {
    await store?.close();
    await db?.cleanup();
  });

  it.skipIf(Boolean(engine.skip))(`ten answers at once move an approval once${skipNote(engine)}`, async () => {
    await store.approvals.create(approval('aaaa00000000000000000001', now.getTime()));
    const at = Date.now();
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => store.approvals.decide('aaaa00000000000000000001', i % 2 ? 'denied' : 'approved', `telegram:${i}`, at)));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    const stored = await store.approvals.get('aaaa00000000000000000001');
    expect(stored?.answeredBy).toBe(results.find((r) => r !== null)?.answeredBy);
    // an approved call starts once
    if (stored?.decision === 'approved') {
      const starts = await Promise.all([store.approvals.startCall(stored.id), store.approvals.startCall(stored.id)]);
      expect(starts.filter(Boolean)).toHaveLength(1);
    }
  });

  it.skipIf(Boolean(engine.skip))(`the console lists a pending approval, answers it only with a CSRF token, once, and shows who answered${skipNote(engine)}`, async () => {
    const id = 'bbbb00000000000000000002';
    await store.approvals.create(approval(id, now.getTime()));
    const login = await app.request(`/login?token=${TOKEN}`);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    const page = await (await app.request('/approvals', { headers: { Cookie: cookie } })).text();
    expect(page).toContain('this turn read text from another session (session_search)');
    expect(page).toContain('&lt;b&gt;zebra&lt;/b&gt;'); // arguments escaped
    expect(page).toContain(`action="/approvals/${id}/approve"`);
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';

    const forged = await app.request(`/approvals/${id}/approve`, { method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'csrf=wrong' });
    expect(forged.status).toBe(403);
    expect((await store.approvals.get(id))?.state).toBe('pending');

    const post = (what: string) =>
      app.request(`/approvals/${id}/${what}`, { method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' }, body: `csrf=${encodeURIComponent(csrf)}` });
    const ok = await post('approve');
    expect(ok.status).toBe(200);
    const after = await ok.text();
    expect(after).toContain('Approved.');
    expect(after).toMatch(/<td>approved<\/td><td>console<\/td>/);
    const again = await post('deny');
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('already approved in the console');
    // one resume row journaled, for that approval's session
    expect(resumed.filter((m) => m.resumesApproval === id)).toHaveLength(1);
    const pending = await store.inbound.pendingFor('telegram:1001:1001');
    expect(pending.filter((m) => m.resumesApproval === id)).toHaveLength(1);
    const json = (await (await app.request('/api/approvals', { headers: { Authorization: `Bearer ${TOKEN}` } })).json()) as { recent: Array<{ id: string; answeredBy: string }> };
    expect(json.recent.find((r) => r.id === id)?.answeredBy).toBe('console');
  });
});

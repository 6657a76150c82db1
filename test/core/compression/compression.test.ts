/**
 * Context compression through the real gateway and agent against the model fake: a long
 * conversation passes the threshold; the memory flush comes first, then the summary; the recent
 * turns stay verbatim; the prompt is rebuilt with the fresh memory and counted as a cache break.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { lastUserText, systemText, type FakeReply, type RecordedRequest } from '../../fakes/model.js';
import { dm, startHarness, type Harness } from '../search/harness.js';
import { createCompressionMaintainer, FLUSH_INSTRUCTION, SUMMARY_HEADER, planCompression } from '../../../src/core/compression/index.js';
import { searchSessions } from '../../../src/core/search/search.js';
import { silentLogger } from '../../../src/core/logger.js';
import type { ChatMessage } from '../../../src/core/messages.js';

const CONFIG = `
model: { context_window: 2000 }
sessions: { compress_at: 0.5, keep_recent_turns: 2, idle_reset_minutes: 0 }
`;

type Msg = { role: string; content: string | null };

function isFlush(req: RecordedRequest): boolean {
  const messages = req.body.messages as Msg[];
  const last = messages[messages.length - 1];
  return last.role === 'system' && last.content === FLUSH_INSTRUCTION;
}
const isSummary = (req: RecordedRequest) => systemText(req).startsWith('You compress the older part');

function script(options: { summaryFails?: boolean } = {}) {
  return (req: RecordedRequest): FakeReply => {
    if (isFlush(req)) return { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'Lives in Lisbon' } }] };
    if (isSummary(req)) return options.summaryFails ? { status: 500 } : { text: '- The person talked about turns 1 and more; lives in Lisbon.' };
    return { text: `Answer to: ${lastUserText(req)}` };
  };
}

const turnText = (i: number) => `Turn ${i}: ${'a long-winded remark about the weather and the garden '.repeat(3)}`;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function harness(summaryFails = false): Promise<Harness> {
  h = await startHarness({
    configYaml: CONFIG,
    maintainer: ({ settings, store, provider, tools, rebuildPrompt }) =>
      createCompressionMaintainer({ settings, store, provider, tools, logger: silentLogger, rebuildPrompt }),
  });
  h.fake.setScript(script({ summaryFails }));
  return h;
}

/** Talks until the fake sees a flush request; returns the number of turns said. */
async function talkUntilFlush(g: Harness, max = 40): Promise<number> {
  for (let i = 1; i <= max; i++) {
    await g.say('cli', 'local', turnText(i));
    if (g.fake.completions().some(isFlush)) return i;
  }
  throw new Error('no compression within the conversation');
}

describe('context compression', () => {
  it('flushes memory first, then summarises older turns, keeps the recent ones and rebuilds the prompt', async () => {
    const g = await harness();
    const turns = await talkUntilFlush(g);
    expect(turns).toBeGreaterThan(3);
    const session = (await g.store.sessions.findOpen(dm('cli', 'local')))!;
    const requests = g.fake.completions();
    const flushAt = requests.findIndex(isFlush);
    const summaryAt = requests.findIndex(isSummary);
    // Order: flush, then summary, then the turn itself.
    expect(flushAt).toBeGreaterThan(0);
    expect(summaryAt).toBe(flushAt + 1);
    expect(requests).toHaveLength(summaryAt + 2);

    // The flush request is the session's own prefix (prompt + whole history) plus the ephemeral tail, with the memory tool.
    const flush = requests[flushAt];
    const previousTurn = requests[flushAt - 1];
    expect(flush.body.messages as Msg[]).toHaveLength((previousTurn.body.messages as Msg[]).length + 2);
    expect(((flush.body.tools ?? []) as Array<{ function: { name: string } }>).map((t) => t.function.name)).toContain('memory');
    expect(g.memory.calls).toEqual([{ personKey: 'cli-local', args: { action: 'add', target: 'user', content: 'Lives in Lisbon' } }]);

    // The summary request covers the older turns only.
    const summaryReq = requests[summaryAt];
    expect(summaryReq.raw).toContain('Turn 1:');
    expect(summaryReq.raw).not.toContain(`Turn ${turns - 1}:`);

    // History: the summary, then the last two earlier turns verbatim, then this turn.
    const history = await g.store.messages.history(session.id);
    expect(history[0]).toEqual({ role: 'user', content: `${SUMMARY_HEADER}- The person talked about turns 1 and more; lives in Lisbon.` });
    const users = history.slice(1).filter((m) => m.role === 'user').map((m) => m.content);
    expect(users).toEqual([turnText(turns - 2), turnText(turns - 1), turnText(turns)]);
    expect(history.slice(1)).toContainEqual({ role: 'assistant', content: `Answer to: ${turnText(turns - 1)}` });
    // Nothing of the flush exchange is stored.
    expect(JSON.stringify(history)).not.toContain('about to be compressed');

    // Prompt rebuilt with the fresh memory snapshot, counted once; the turn's request used it and is smaller.
    expect(session.promptRebuilds).toBe(1);
    expect(session.prompt).toContain('- Lives in Lisbon');
    const turnReq = requests[summaryAt + 1];
    expect(systemText(turnReq)).toContain('- Lives in Lisbon');
    expect(turnReq.raw.length).toBeLessThan(flush.raw.length / 2);

    // The compressed turns stay searchable from another session.
    expect((await searchSessions(g.store, 'cli-local', 'Turn 1')).hits.length).toBeGreaterThan(0);
    // Usage counts the flush and summary requests too.
    expect(session.requests).toBe(requests.length);
  });

  it('leaves the session unchanged when the summary fails, and the turn is still answered', async () => {
    const g = await harness(true);
    const turns = await talkUntilFlush(g);
    const session = (await g.store.sessions.findOpen(dm('cli', 'local')))!;
    expect(session.promptRebuilds).toBe(0);
    const history = await g.store.messages.history(session.id);
    expect(history.filter((m) => m.role === 'user')).toHaveLength(turns);
    expect(history[history.length - 1]).toEqual({ role: 'assistant', content: `Answer to: ${turnText(turns)}` });
  });
});

describe('planCompression', () => {
  const rows = (messages: ChatMessage[]) => messages.map((message, i) => ({ id: i + 1, message }));
  it('cuts only at user turns, so a tool call stays with its result', () => {
    const plan = planCompression(
      rows([
        { role: 'user', content: 'one' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'memory', arguments: '{}' }] },
        { role: 'tool', toolCallId: 'c1', name: 'memory', content: 'ok' },
        { role: 'assistant', content: 'done' },
        { role: 'user', content: 'two' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c2', name: 'session_search', arguments: '{}' }] },
        { role: 'tool', toolCallId: 'c2', name: 'session_search', content: 'hits' },
        { role: 'assistant', content: 'found' },
      ]),
      1,
    )!;
    expect(plan.older.map((r) => r.id)).toEqual([1, 2, 3, 4]);
    expect(plan.recent.map((r) => r.id)).toEqual([5, 6, 7, 8]);
  });
  it('has nothing to do when all turns are recent', () => {
    expect(planCompression(rows([{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }]), 2)).toBeNull();
  });
  it('keeps fewer turns when the recent ones alone are too big', () => {
    const big = 'x'.repeat(4000);
    const plan = planCompression(
      rows([
        { role: 'user', content: 'a' },
        { role: 'user', content: big },
        { role: 'user', content: big },
      ]),
      2,
      1500,
    )!;
    expect(plan.recent.map((r) => r.id)).toEqual([3]);
  });
});

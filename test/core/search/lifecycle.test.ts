/**
 * Session lifecycle through the real gateway: idle reset, daily reset, /new — and an ended session
 * stays searchable from the next one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { lastUserText, type FakeReply, type RecordedRequest } from '../../fakes/model.js';
import { dm, startHarness, type Harness } from './harness.js';
import { sessionSearchTool } from '../../../src/core/tools/session-search.js';

function script(req: RecordedRequest): FakeReply {
  const messages = req.body.messages as Array<{ role: string; content: string | null }>;
  const last = messages[messages.length - 1];
  if (last.role === 'tool') return { text: `Found:\n${last.content}` };
  const m = /^search: (.+)$/m.exec(lastUserText(req));
  if (m) return { toolCalls: [{ name: 'session_search', arguments: { query: m[1] } }] };
  return { text: 'Noted.' };
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function harness(yaml: string, start?: number): Promise<Harness> {
  h = await startHarness({ configYaml: yaml, extraTools: () => [sessionSearchTool], start });
  h.fake.setScript(script);
  return h;
}

describe('session lifecycle', () => {
  it('starts a new session after the idle time; the ended one stays searchable', async () => {
    const g = await harness('sessions: { idle_reset_minutes: 30 }\n');
    await g.say('cli', 'local', 'The wifi password is hunter2-garden.');
    const first = (await g.store.sessions.findOpen(dm('cli', 'local')))!;
    g.clock.now += 29 * 60_000;
    await g.say('cli', 'local', 'Still here.');
    expect((await g.store.sessions.findOpen(dm('cli', 'local')))!.id).toBe(first.id);
    g.clock.now += 31 * 60_000;
    const reply = await g.say('cli', 'local', 'search: wifi password');
    const second = (await g.store.sessions.findOpen(dm('cli', 'local')))!;
    expect(second.id).not.toBe(first.id);
    expect(await g.store.sessions.get(first.id)).toMatchObject({ endReason: 'idle' });
    expect(reply).toContain('hunter2');
    expect(reply).toContain(`session ${first.id} (cli)`);
  });

  it('replaces a session started before the daily reset hour', async () => {
    const g = await harness('sessions: { idle_reset_minutes: 0, daily_reset_hour: 4 }\n', new Date(2025, 0, 10, 23, 0).getTime());
    await g.say('cli', 'local', 'late night note about the boiler');
    const first = (await g.store.sessions.findOpen(dm('cli', 'local')))!;
    g.clock.now = new Date(2025, 0, 11, 3, 30).getTime();
    await g.say('cli', 'local', 'before the reset hour');
    expect((await g.store.sessions.findOpen(dm('cli', 'local')))!.id).toBe(first.id);
    g.clock.now = new Date(2025, 0, 11, 4, 1).getTime();
    const reply = await g.say('cli', 'local', 'search: boiler');
    expect(await g.store.sessions.get(first.id)).toMatchObject({ endReason: 'daily' });
    expect(reply).toContain('[boiler]');
  });

  it('/new ends the session with one short line; the next message starts a new one that finds the old', async () => {
    const g = await harness('{}\n');
    await g.say('telegram', '1001', 'Project codename is Bluebird.');
    const first = (await g.store.sessions.findOpen(dm('telegram', '1001')))!;
    expect(await g.say('telegram', '1001', '/new')).toBe('Started a new conversation.');
    expect(await g.store.sessions.get(first.id)).toMatchObject({ endReason: 'new' });
    const reply = await g.say('telegram', '1001', 'search: codename');
    expect((await g.store.sessions.findOpen(dm('telegram', '1001')))!.id).not.toBe(first.id);
    expect(reply).toContain('Bluebird');
  });
});

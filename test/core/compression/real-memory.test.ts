/**
 * With the real `memory` tool and prompt builder: the compression flush writes the person's memory
 * files and the rebuilt prompt carries them; memory written from one platform shows in the person's
 * next session on another platform, never in someone else's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { lastUserText, systemText, type FakeReply, type RecordedRequest } from '../../fakes/model.js';
import { dm, startHarness, type Harness } from '../search/harness.js';
import { createCompressionMaintainer, FLUSH_INSTRUCTION } from '../../../src/core/compression/index.js';
import { createMemoryTool } from '../../../src/core/tools/memory.js';
import { threatGuard } from '../../../src/guard/index.js';
import { buildPrompt } from '../../../src/core/prompt/builder.js';
import { silentLogger } from '../../../src/core/logger.js';
import type { Settings } from '../../../src/core/settings.js';
import type { Store } from '../../../src/core/store/types.js';
import type { PromptFactory } from '../../../src/core/agent.js';

const realPrompt = (settings: Settings, store: Store): PromptFactory => ({ address, ...input }) =>
  buildPrompt({ home: settings.home, memory: store.memory, config: settings.config, cwd: settings.home, logger: silentLogger, guard: threatGuard, platform: address.platform, ...input });
const memoryTool = createMemoryTool(threatGuard);

function script(req: RecordedRequest): FakeReply {
  const messages = req.body.messages as Array<{ role: string; content: string | null }>;
  const last = messages[messages.length - 1];
  if (last.role === 'system' && last.content === FLUSH_INSTRUCTION) {
    return { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'Prefers answers in metric units' } }] };
  }
  if (systemText(req).startsWith('You compress the older part')) return { text: '- Many remarks about the garden.' };
  if (last.role === 'tool') return { text: `Memory: ${last.content}` };
  const m = /^remember: (.+)$/m.exec(lastUserText(req));
  if (m) return { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: m[1] } }] };
  return { text: `Answer to: ${lastUserText(req)}` };
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('with the real memory tool and prompt builder', () => {
  it('the flush saves to the person’s memory and the rebuilt prompt shows it', async () => {
    h = await startHarness({
      configYaml: 'model: { context_window: 4000 }\nsessions: { compress_at: 0.5, keep_recent_turns: 2, idle_reset_minutes: 0 }\n',
      real: { memoryTool, buildPrompt: realPrompt },
      maintainer: ({ settings, store, provider, tools, rebuildPrompt }) =>
        createCompressionMaintainer({ settings, store, provider, tools, logger: silentLogger, rebuildPrompt }),
    });
    h.fake.setScript(script);
    const sessions = h.store.sessions;
    let compressedAt = 0;
    for (let i = 1; i <= 60 && !compressedAt; i++) {
      await h.say('cli', 'local', `Remark ${i}: ${'the garden needs water and the roses need pruning soon. '.repeat(3)}`);
      if ((await sessions.findOpen(dm('cli', 'local')))!.promptRebuilds) compressedAt = i;
    }
    expect(compressedAt).toBeGreaterThan(2);
    const session = (await h.store.sessions.findOpen(dm('cli', 'local')))!;
    expect(session.promptRebuilds).toBe(1);
    const profile = session.promptLayers.find((l) => l.name === 'user_profile')!;
    expect(profile.text).toContain('Prefers answers in metric units');
    const last = h.fake.completions().at(-1)!;
    expect(systemText(last)).toBe(session.prompt);
  });

  it('memory follows the person across platforms, and only that person', async () => {
    h = await startHarness({
      configYaml: 'people:\n  alice: [telegram:1001, slack:U1001]\n',
      real: { memoryTool, buildPrompt: realPrompt },
    });
    h.fake.setScript(script);
    await h.say('telegram', '2002', 'hello from bob');
    expect(await h.say('telegram', '1001', 'remember: Allergic to peanuts')).toMatch(/^Memory: /);
    // The telegram session's prompt is frozen; alice's next session (on slack) carries the memory.
    await h.say('slack', 'U1001', 'What should I cook?', 'D5');
    const slackRequest = h.fake.completions().at(-1)!;
    expect(systemText(slackRequest)).toContain('Allergic to peanuts');
    await h.say('telegram', '2002', '/new');
    await h.say('telegram', '2002', 'What should I cook?');
    expect(systemText(h.fake.completions().at(-1)!)).not.toContain('peanuts');
  });
});

/**
 * Approvals on Discord through `switchboard start`: message buttons on the prompt, presses as component
 * interactions over the gateway, acknowledged with the interaction callback (the prompt updated, or an
 * ephemeral line for someone who may not answer).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, type ModelFake } from '../fakes/model.js';
import { startDiscordFake, type DiscordFake } from '../fakes/discord.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, sleep, startCli, until, type Running } from '../helpers/cli.js';
import { approvalScript } from '../helpers/approvals.js';
import { doorEnv } from '../helpers/door-env.js';

const ALICE = '300000000000000001';
const MALLORY = '300000000000000002';
let model: ModelFake;
let discord: DiscordFake;
let home: string;

beforeAll(async () => {
  model = await startModelFake({ script: approvalScript });
  discord = await startDiscordFake({ heartbeatInterval: 500 });
  home = mkdtempSync(join(tmpdir(), 'sb-approvals-discord-'));
  writeFileSync(join(home, 'config.yaml'), 'streaming:\n  discord: off\n');
});
afterAll(() => cleanUp(() => discord?.close(), () => model?.close(), () => removeDir(home)));

const memory = () => {
  const f = join(home, 'memories', `discord-${ALICE}`, 'MEMORY.md');
  return existsSync(f) ? readFileSync(f, 'utf8') : '';
};

describe('approvals on Discord', () => {
  let gw: Running;
  afterAll(() => killIfRunning(gw));

  it('buttons on the prompt; a stranger gets an ephemeral line; the approver\'s press updates the prompt and runs the call once', async () => {
    gw = startCli(['start'], {
      env: cleanEnv({
        SWITCHBOARD_HOME: home,
        ...doorEnv.model(model),
        ...doorEnv.discord(discord, ALICE),
      }),
    });
    await gw.waitFor(/ready \(discord/);
    const dm = async (content: string) => {
      const n = discord.messages.length;
      discord.sendDM({ userId: ALICE, content });
      return (await discord.waitForMessages(n + 1, 20_000))[n];
    };
    await dm('the code word is zebra');
    await dm('/new');
    const prompt = await dm('SAVE zebra');
    expect(prompt.content).toContain('Approval needed');
    const row = (prompt.components as Array<{ components: Array<{ label: string; custom_id: string }> }>)[0];
    expect(row.components.map((b) => b.label)).toEqual(['Approve', 'Deny']);

    const stranger = discord.pressButton({ userId: MALLORY, messageId: prompt.id, customId: row.components[0].custom_id });
    await until(() => discord.interactionCallbacks.some((c) => c.interactionId === stranger.interactionId), 20_000, 'the refusal', gw);
    const refusal = discord.interactionCallbacks.find((c) => c.interactionId === stranger.interactionId)!;
    expect(refusal.type).toBe(4);
    expect(refusal.data).toMatchObject({ flags: 64 | 4 }); // EPHEMERAL | SUPPRESS_EMBEDS
    expect(String(refusal.data?.content)).toMatch(/^Only the person who asked/);

    const n = discord.messages.length;
    const press = discord.pressButton({ userId: ALICE, messageId: prompt.id, customId: row.components[0].custom_id, username: 'alice' });
    const answer = (await discord.waitForMessages(n + 1, 20_000))[n];
    expect(answer.content).toMatch(/^Memory tool said: /);
    const ack = discord.interactionCallbacks.find((c) => c.interactionId === press.interactionId)!;
    expect(ack.type).toBe(7);
    expect(prompt.content).toContain('Approved by @alice');
    expect(prompt.components).toEqual([]);
    expect(memory().match(/zebra/g)).toHaveLength(1);

    // a second press (from a client that still shows the buttons): an ephemeral line, nothing runs
    const again = discord.pressButton({ userId: ALICE, messageId: prompt.id, customId: row.components[1].custom_id });
    await until(() => discord.interactionCallbacks.some((c) => c.interactionId === again.interactionId), 20_000, 'the second press answered', gw);
    expect(String(discord.interactionCallbacks.find((c) => c.interactionId === again.interactionId)!.data?.content)).toMatch(/already approved/);
    await sleep(300);
    expect(discord.messages.length).toBe(n + 1);
    expect(memory().match(/zebra/g)).toHaveLength(1);
  });
});

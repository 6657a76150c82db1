/**
 * `switchboard start` when a door's server never answers (a black-holed address: the connection is
 * accepted, no byte comes back): the doors open together, so another door's bad token still fails
 * the start at once with its one line, and a SIGTERM while the doors connect stops the start cleanly
 * (exit 0, `stopped (SIGTERM)`), rather than the process hanging or being killed by the signal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, type ModelFake } from '../fakes/model.js';
import { startSlackFake, type SlackFake } from '../fakes/slack.js';
import { startTelegramFake, type TelegramFake } from '../fakes/telegram.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, startCli, type Running } from '../helpers/cli.js';

let model: ModelFake;
let slack: SlackFake;
let tg: TelegramFake;
let blackHole: Server;
let blackHoleUrl: string;
const sockets = new Set<Socket>();
let home: string;

beforeAll(async () => {
  model = await startModelFake({ script: () => ({ text: 'ok' }) });
  slack = await startSlackFake();
  tg = await startTelegramFake();
  blackHole = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
  const address = blackHole.address();
  blackHoleUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api`;
  home = mkdtempSync(join(tmpdir(), 'sb-hung-door-'));
});
afterAll(() =>
  cleanUp(
    () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => blackHole?.close(() => resolve()));
    },
    () => slack?.close(),
    () => tg?.close(),
    () => model?.close(),
    () => removeDir(home),
  ),
);

const env = (extra: Record<string, string>) =>
  cleanEnv({ SWITCHBOARD_HOME: home, OPENAI_BASE_URL: model.openaiUrl, OPENAI_API_KEY: 'sk-e2e', MODEL: 'fake-model', DISCORD_BOT_TOKEN: 'discord-token', DISCORD_API_URL: blackHoleUrl, DISCORD_ALLOWED_USERS: '*', ...extra });

describe('switchboard start with a door whose server never answers', () => {
  let gw: Running | undefined;
  afterAll(() => (gw ? killIfRunning(gw) : undefined));

  it('another door with a bad token still fails the start at once, in one line naming its setting', async () => {
    const started = Date.now();
    gw = startCli(['start'], { env: env({ SLACK_BOT_TOKEN: 'xoxb-wrong', SLACK_APP_TOKEN: slack.appToken, SLACK_API_URL: slack.apiUrl, SLACK_ALLOWED_USERS: '*' }) });
    const code = await gw.exited;
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(15_000);
    const errors = gw.stderr().split('\n').filter((l) => l.startsWith('switchboard:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/SLACK_BOT_TOKEN/);
    expect(gw.stderr()).not.toMatch(/\n\s+at /);
  }, 30_000);

  it('a SIGTERM while the doors connect stops the start cleanly: exit 0 and one stopped line', async () => {
    gw = startCli(['start'], { env: env({ TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.url, TELEGRAM_ALLOWED_USERS: '*' }) });
    await gw.waitFor(/\[telegram\]|connected|switchboard/, 10_000).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 1500));
    expect(gw.child.exitCode).toBeNull(); // still connecting to the black hole
    gw.child.kill('SIGTERM');
    const code = await gw.exited;
    expect(code).toBe(0);
    expect(gw.stderr()).toMatch(/stopped \(SIGTERM\)/);
    expect(gw.stderr()).not.toMatch(/ready \(/);
  }, 30_000);
});

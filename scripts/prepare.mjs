// `prepare` (run by `npm ci` and `npm install` in a clone): builds dist/ with scripts/build.mjs. Without
// the dev dependencies (`npm ci --omit=dev` in a clone) there is no esbuild to build with: a dist/ already
// there is kept; with none, one line says what to do instead. (The packed package — `npm pack` — ships
// dist/ built, and installs with --omit=dev: ARCHITECTURE.md §14, §18.)
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
let esbuild = true;
try {
  require.resolve('esbuild');
} catch {
  esbuild = false;
}
if (esbuild) {
  await import('./build.mjs');
} else if (existsSync(fileURLToPath(new URL('../dist/cli.js', import.meta.url)))) {
  console.log('switchboard: esbuild (a dev dependency) is not installed; keeping the dist/ already built');
} else {
  console.error(
    'switchboard: dist/ is not built and esbuild (a dev dependency) is not installed: run `npm ci` with the dev dependencies once, or install the packed package (`npm pack`, then `npm install --omit=dev switchboard-*.tgz`)',
  );
  process.exit(1);
}

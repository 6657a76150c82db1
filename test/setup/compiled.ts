/**
 * vitest globalSetup: builds dist/ once, before any test file runs, with what `prepare` runs at `npm ci`
 * (scripts/build.mjs), and runs the suite's `switchboard` commands from it (test/helpers/cli.ts `BIN`):
 * the code users run, and each command starts in about half the time of the sources through tsx (0.37
 * against 0.82 s for `doctor` here, a few hundred commands a run). Built here and nowhere else in the
 * run: a build replaces dist/ while other files' commands load it. SWITCHBOARD_TEST_COMPILED=0 runs the
 * sources through tsx instead, with no build.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  if (process.env.SWITCHBOARD_TEST_COMPILED === '0') return;
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'pipe' });
  // Read by test/helpers/cli.ts in the test processes, which inherit this environment.
  process.env.SWITCHBOARD_TEST_COMPILED = '1';
}

/**
 * Packaging (DESIGN §14): `npm ci` builds dist/ through `prepare`; `npm start` and the `switchboard`
 * bin run the compiled JavaScript with no TypeScript loader; a stack trace points at src/.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMPILED_BIN } from './helpers/cli.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

describe('packaging', () => {
  beforeAll(() => {
    // What `prepare` runs during `npm ci`.
    execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'pipe' });
  }, 120_000);

  it('builds at install and runs the compiled code', () => {
    expect(pkg.scripts.prepare).toMatch(/npm run build/);
    expect(pkg.scripts.build).toMatch(/tsc -p tsconfig\.build\.json/);
    expect(pkg.scripts.start).toBe('node bin/switchboard.js start');
    expect(pkg.bin.switchboard).toBe('bin/switchboard.js');
    expect(readFileSync(COMPILED_BIN, 'utf8')).not.toMatch(/['"]tsx/);
    // tsx is a development tool only.
    expect(pkg.dependencies.tsx).toBeUndefined();
    expect(pkg.devDependencies.tsx).toBeDefined();
  });

  it('the bin answers from dist/ without a TypeScript loader', () => {
    const r = spawnSync(process.execPath, [COMPILED_BIN, '--help'], { encoding: 'utf8', env: { PATH: process.env.PATH } });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/usage: switchboard <command>/);
  });

  it('a stack trace from the compiled code names the line in src/', () => {
    const r = spawnSync(process.execPath, [COMPILED_BIN, 'no-such-command'], { encoding: 'utf8', env: { PATH: process.env.PATH, SWITCHBOARD_DEBUG: '1' } });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown command 'no-such-command'/);
    expect(r.stderr).toMatch(/src\/cli\.ts:\d+:\d+/);
    expect(r.stderr).not.toMatch(/dist\/cli\.js/);
  });
});

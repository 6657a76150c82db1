/**
 * `switchboard memory show|edit PERSON` on both engines (ARCHITECTURE.md §9): what the operator writes is what
 * the store holds (files in memories/ with SQLite, rows with PostgreSQL) and what the agent's prompt
 * will show; a platform user maps to its person through `people:`; over-limit text and credentials
 * are refused with one line and nothing changed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, runCli } from '../helpers/cli.js';
import { ENGINES, reportSkips, type EngineDb } from '../helpers/engines.js';

reportSkips();

for (const engine of ENGINES) {
  describe.skipIf(Boolean(engine.skip))(`switchboard memory on ${engine.name}${engine.skip ? ` (skipped: ${engine.skip})` : ''}`, () => {
    let db: EngineDb;
    let env: NodeJS.ProcessEnv;
    beforeEach(async () => {
      db = await engine.create();
      writeFileSync(join(db.home, 'config.yaml'), 'people:\n  alice: [telegram:1001, slack:U1001]\nlimits: { memory_chars: 60, user_chars: 40 }\n');
      env = cleanEnv({ SWITCHBOARD_HOME: db.home, ...(engine.name === 'postgres' ? { DATABASE_URL: db.location } : {}) });
    });
    afterEach(() => db.cleanup());

    it('replaces memory from stdin and a profile from a file, and shows both', async () => {
      const edit = await runCli(['memory', 'edit', 'telegram:1001', '--target', 'memory'], { env, input: 'Likes green tea.\n§\nDeploys on Fridays.\n' });
      expect(edit.stderr).toBe('');
      expect(edit.stdout).toBe('Replaced MEMORY.md of alice: 2 entries, 38/60 chars.\n');
      const profile = join(db.home, 'profile.txt');
      writeFileSync(profile, 'Alice, billing team.\n');
      expect((await runCli(['memory', 'edit', 'alice', '--target', 'user', '--file', profile], { env })).code).toBe(0);

      const show = await runCli(['memory', 'show', 'slack:U1001'], { env });
      expect(show.code).toBe(0);
      expect(show.stdout).toContain('MEMORY.md of alice (38/60 chars');
      expect(show.stdout).toContain('Likes green tea.\n§\nDeploys on Fridays.\n');
      expect(show.stdout).toContain('USER.md of alice (20/40 chars');
      expect((await runCli(['memory', 'show', 'alice', '--target', 'user'], { env })).stdout).toBe('Alice, billing team.\n');
      // Where the engine keeps it: files only with SQLite.
      expect(existsSync(join(db.home, 'memories', 'alice', 'MEMORY.md'))).toBe(engine.name === 'sqlite');
      // An unknown person has nothing; empty input clears.
      expect((await runCli(['memory', 'show', 'telegram:999', '--target', 'memory'], { env })).stdout).toBe('');
      expect((await runCli(['memory', 'edit', 'alice', '--target', 'memory'], { env, input: '' })).stdout).toContain('0 entries');
      expect((await runCli(['memory', 'show', 'alice'], { env })).stdout).toContain('MEMORY.md of alice (0/60 chars');
    });

    it('refuses over-limit text, credentials and bad arguments with one line, changing nothing', async () => {
      await runCli(['memory', 'edit', 'alice', '--target', 'user'], { env, input: 'Short.' });
      const long = await runCli(['memory', 'edit', 'alice', '--target', 'user'], { env, input: 'x'.repeat(41) });
      expect(long.code).toBe(1);
      expect(long.stderr).toBe('switchboard: USER.md would have 41 chars, over its limit of 40 (limits.user_chars); nothing changed\n');
      const secret = await runCli(['memory', 'edit', 'alice', '--target', 'user'], { env, input: 'key sk-proj-abcdefghijklmnopqrstuvwx' });
      expect(secret.code).toBe(1);
      expect(secret.stderr).toMatch(/^switchboard: an entry looks like .*; nothing changed\n$/);
      expect((await runCli(['memory', 'show', 'alice', '--target', 'user'], { env })).stdout).toBe('Short.\n');
      const noTarget = await runCli(['memory', 'edit', 'alice'], { env, input: 'x' });
      expect(noTarget.code).toBe(2);
      expect(noTarget.stderr).toMatch(/--target memory/);
      const badKey = await runCli(['memory', 'show', '../etc'], { env });
      expect(badKey.code).not.toBe(0);
      expect(badKey.stderr).toMatch(/^switchboard: invalid person key/);
      const missing = await runCli(['memory', 'edit', 'alice', '--target', 'memory', '--file', join(db.home, 'nope.txt')], { env });
      expect(missing.stderr).toMatch(/cannot read .*nope.txt: ENOENT/);
    });
  });
}

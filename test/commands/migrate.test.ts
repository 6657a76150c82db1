/**
 * Engine selection from DATABASE_URL (ARCHITECTURE.md §4, §9) through the real command: `switchboard migrate`
 * on SQLite and PostgreSQL, `sessions list` on PostgreSQL, and the one-line errors of a bad or
 * unreachable DATABASE_URL (password hidden, never a stack trace).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanEnv, removeDir, runCli } from '../helpers/cli.js';
import { ENGINES, reportSkips, skipNote, type EngineDb } from '../helpers/engines.js';
import { loadSettings } from '../../src/core/settings.js';
import { MIGRATIONS as SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations.js';
import { MIGRATIONS as POSTGRES_MIGRATIONS } from '../../src/store/postgres/migrations.js';

const postgres = ENGINES.find((e) => e.name === 'postgres')!;
reportSkips();
const homes: string[] = [];
const dbs: EngineDb[] = [];
afterAll(async () => {
  for (const h of homes) removeDir(h);
  for (const d of dbs) await d.cleanup();
});
function freshHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'sb-migrate-'));
  homes.push(home);
  return home;
}
const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at /);

describe('DATABASE_URL in the settings', () => {
  it('is unset for SQLite, kept for postgres:// and postgresql://, its password a secret', () => {
    expect(loadSettings({ SWITCHBOARD_HOME: freshHome() }).databaseUrl).toBeUndefined();
    const s = loadSettings({ SWITCHBOARD_HOME: freshHome(), DATABASE_URL: 'postgresql://sb:hunter22@db:5432/sb' });
    expect(s.databaseUrl).toBe('postgresql://sb:hunter22@db:5432/sb');
    expect(s.secrets).toContain('hunter22');
    expect(loadSettings({ SWITCHBOARD_HOME: freshHome(), DATABASE_URL: 'postgres://db/sb' }).databaseUrl).toBe('postgres://db/sb');
  });

  it('refuses anything else with one line naming DATABASE_URL, the password hidden', () => {
    for (const bad of ['mysql://u:hunter22@db/sb', 'postgres://u:hunter22@/sb', 'postgres://u:hunter22@[bad/sb', 'postgres://u:hun/ter22@db/sb', 'postgres://u:hun@ter22@db:x/sb']) {
      let message = '';
      try {
        loadSettings({ SWITCHBOARD_HOME: freshHome(), DATABASE_URL: bad });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/^DATABASE_URL: /);
      expect(message).not.toMatch(/hun|ter22/);
      expect(message).not.toContain('\n');
    }
  });
});

describe('switchboard migrate', () => {
  it('on SQLite: creates the schema in SWITCHBOARD_HOME and prints engine and version', async () => {
    const home = freshHome();
    const res = await runCli(['migrate'], { env: cleanEnv({ SWITCHBOARD_HOME: home }) });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe(`sqlite: schema version ${SQLITE_MIGRATIONS.length} (${join(home, 'state.db')})\n`);
  });

  it('with an unreachable DATABASE_URL: one line, exit 1, password hidden, no stack', async () => {
    const res = await runCli(['migrate'], { env: cleanEnv({ SWITCHBOARD_HOME: freshHome(), DATABASE_URL: 'postgres://sb:hunter22@127.0.0.1:1/sb' }) });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toContain('DATABASE_URL=postgres://sb:***@127.0.0.1:1/sb');
    expect(res.stderr).not.toContain('hunter22');
    noStack(res.stderr);
  });

  it.skipIf(Boolean(postgres.skip))(`on PostgreSQL: migrates once, again is a no-op; doctor and sessions use the same database${skipNote(postgres)}`, async () => {
    const db = await postgres.create();
    dbs.push(db);
    const env = cleanEnv({ SWITCHBOARD_HOME: freshHome(), DATABASE_URL: db.location });
    const shown = db.location.replace(/:[^:@/]*@/, ':***@');
    const [first, second] = await Promise.all([runCli(['migrate'], { env }), runCli(['migrate'], { env })]);
    for (const res of [first, second]) {
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toBe(`postgres: schema version ${POSTGRES_MIGRATIONS.length} (${shown})\n`);
    }
    const store = await db.open();
    try {
      await store.sessions.create({ id: 's1', address: { platform: 'cli', chatId: 'local', userId: 'local' }, personKey: 'cli-local', startedAt: Date.now(), promptLayers: [], prompt: 'x', promptSha256: 'h', toolsSignature: 's' });
    } finally {
      await store.close();
    }
    const list = await runCli(['sessions', 'list'], { env });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('s1');
    const doctor = await runCli(['doctor'], { env });
    expect(doctor.stdout).toMatch(new RegExp(`✓ database: postgres schema ${POSTGRES_MIGRATIONS.length} at postgres://switchboard:\\*\\*\\*@`));
  });
});

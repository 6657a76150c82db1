/**
 * The whole gateway on PostgreSQL (ARCHITECTURE.md §9), through the real command: a `chat` turn whose model
 * call writes memory, then a second "instance" with its own, empty SWITCHBOARD_HOME on the same
 * DATABASE_URL sees that memory in its prompt, and the operator's search finds the conversation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, lastUserText, type ModelFake } from '../fakes/model.js';
import { cleanEnv, cleanUp, removeDir, runCli } from '../helpers/cli.js';
import { ENGINES, reportSkips, skipNote, type EngineDb } from '../helpers/engines.js';

const postgres = ENGINES.find((e) => e.name === 'postgres')!;
reportSkips();

let model: ModelFake;
let db: EngineDb | undefined;
const homes: string[] = [];
beforeAll(async () => {
  model = await startModelFake({ script: (req) => ({ text: `Echo: ${lastUserText(req)}` }) });
});
afterAll(() => cleanUp(() => model?.close(), () => db?.cleanup(), ...homes.map((h) => () => removeDir(h))));

function home(): string {
  const h = mkdtempSync(join(tmpdir(), 'sb-pg-e2e-'));
  homes.push(h);
  return h;
}

describe.skipIf(Boolean(postgres.skip))(`the gateway on PostgreSQL${skipNote(postgres)}`, () => {
  it('keeps sessions and memory in the database, shared by instances with different homes', async () => {
    db = await postgres.create();
    const env = (h: string) => cleanEnv({ SWITCHBOARD_HOME: h, DATABASE_URL: db!.location, OPENAI_BASE_URL: model.openaiUrl, OPENAI_API_KEY: 'sk-pg', MODEL: 'fake-model' });
    const first = home();
    model.queue({ toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'memory', content: 'Likes green tea.' } }] }, { text: 'Noted, green tea.' });
    const chat = await runCli(['chat'], { env: env(first), input: 'remember that I like green tea\n' });
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stdout).toBe('Noted, green tea.\n');
    expect(existsSync(join(first, 'state.db'))).toBe(false);
    expect(existsSync(join(first, 'memories'))).toBe(false);

    const store = await db.open();
    try {
      const [session] = await store.sessions.list();
      expect(await store.memory.read(session.personKey, 'memory')).toEqual(['Likes green tea.']);
    } finally {
      await store.close();
    }

    // Another instance (its own empty home): /new there ends the session; the next prompt has the memory.
    const second = home();
    const fresh = await runCli(['chat'], { env: env(second), input: '/new\n' });
    expect(fresh.code, fresh.stderr).toBe(0);
    const prompt = await runCli(['prompt', '--platform', 'cli', '--user', 'local', '--json'], { env: env(second) });
    expect(prompt.code, prompt.stderr).toBe(0);
    const layers = (JSON.parse(prompt.stdout) as { layers: Array<{ name: string; text: string }> }).layers;
    expect(layers.find((l) => l.name === 'memory')?.text).toContain('Likes green tea.');

    const search = await runCli(['sessions', 'search', 'green', 'tea'], { env: env(second) });
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).toContain('[green]');
  });
});

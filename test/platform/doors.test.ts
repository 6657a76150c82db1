import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOOR_IDS, DOORS, doorOf } from '../../src/platform/doors/index.js';
import { DELIVERABLE_PLATFORMS, PLATFORM_IDS } from '../../src/platform/ids.js';
import { formatAddress, parseDeliverableAddress } from '../../src/platform/address.js';
import { parseConfig } from '../../src/core/config.js';
import { commandsFor } from '../../src/core/commands.js';

const root = join(import.meta.dirname, '..', '..');

/** Core files that once named doors; each now iterates the definitions. */
const CORE_FILES = [
  'src/core/config.ts',
  'src/core/settings.ts',
  'src/core/doors.ts',
  'src/core/commands.ts',
  'src/core/streaming/mode.ts',
  'src/core/gateway/access.ts',
  'src/core/gateway/typing.ts',
];

/** The code of a file without its comments (a comment may name a door as an example). */
function code(path: string): string {
  return readFileSync(join(root, path), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

describe('door definitions', () => {
  it('every door is an address a reply can go to, and every such platform is a door', () => {
    expect([...DOOR_IDS].sort()).toEqual([...DELIVERABLE_PLATFORMS].sort());
    for (const id of DOOR_IDS) expect(DOORS[id].id).toBe(id);
    expect(PLATFORM_IDS.filter((p) => !doorOf(p))).toEqual(['cron', 'cli']);
  });

  it("each door's address syntax round-trips: telegram:-100123:42 and one address per door", () => {
    const samples = { telegram: 'telegram:-100123:42', slack: 'slack:C0123ABC:1700000000.000100', discord: 'discord:123456789012345678', email: 'email:alice@example.com' };
    for (const id of DOOR_IDS) {
      const text = samples[id];
      expect(DOORS[id].address.example.startsWith(`${id}:`)).toBe(true);
      expect(formatAddress(parseDeliverableAddress(text))).toBe(text);
    }
  });

  it("the config file takes each door's section and streaming modes from its definition", () => {
    const config = parseConfig('telegram: { handle_edited: true }\nstreaming: { discord: edit }\n', 'test.yaml');
    expect(config.telegram.handle_edited).toBe(true);
    expect(config.streaming).toEqual({ telegram: 'auto', slack: 'auto', discord: 'edit' });
    // A door that never streams has no streaming key.
    expect(() => parseConfig('streaming: { email: off }\n', 'test.yaml')).toThrow("test.yaml: unknown setting 'streaming.email'");
    expect(() => parseConfig('streaming: { discord: native }\n', 'test.yaml')).toThrow(/'streaming\.discord'/);
    expect(() => parseConfig('discord: { nonsense: 1 }\n', 'test.yaml')).toThrow("test.yaml: unknown setting 'discord.nonsense'");
  });

  it('the commands a door offers come from its definition', () => {
    for (const id of DOOR_IDS) expect(commandsFor(id)).toEqual([...DOORS[id].commands]);
    expect(commandsFor('telegram')).toContain('start');
    expect(commandsFor('slack')).not.toContain('start');
    expect(commandsFor('cli')).not.toContain('stop');
  });

  it('the core names no door in the files that iterate the definitions', () => {
    const offenders = CORE_FILES.flatMap((file) => {
      const text = code(file);
      const named = DOOR_IDS.filter((id) => new RegExp(`['"\`|(]${id}\\b|\\b${id.toUpperCase()}_`).test(text));
      return named.map((id) => `${file} names ${id}`);
    });
    // The e-mail door's variables live in its definition; SMTP and IMAP are its variables too.
    const variables = CORE_FILES.filter((file) => /\b(SMTP|IMAP)_URL\b/.test(code(file))).map((file) => `${file} names a mail variable`);
    expect([...offenders, ...variables]).toEqual([]);
  });
});

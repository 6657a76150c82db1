/**
 * `switchboard memory show PERSON [--target memory|user]` · `switchboard memory edit PERSON --target
 * memory|user [--file F]` (ARCHITECTURE.md §9): read and replace a person's memory (MEMORY.md) and profile
 * (USER.md) where the store keeps them — the database with PostgreSQL (every instance sees the
 * change), files in $SWITCHBOARD_HOME/memories/ with SQLite. PERSON is a person key (`alice` from
 * `people:`, `telegram-1001`) or a platform user (`telegram:1001`, mapped through `people:`).
 * `edit` reads the new text from --file, else from stdin: entries separated by a line holding only
 * `§`, as `show --target` prints them; empty text clears the file.
 */
import { readFileSync } from 'node:fs';
import { CommandLineError, parseCommandLine, type CommandIO } from './io.js';
import { loadSettings, type Settings } from '../core/settings.js';
import { UsageError } from '../core/errors.js';
import { openData } from '../app-open.js';
import { personKey } from '../core/identity.js';
import { isPlatformId } from '../platform/ids.js';
import { MEMORY_FILES, memoryDir, parseEntries, serializeEntries } from '../core/memory/entries.js';
import { secretKind } from '../core/memory/secrets.js';
import { charLength } from '../core/prompt/text.js';
import type { MemoryTarget } from '../core/store/types.js';

export const usage = `usage: switchboard memory show PERSON [--target memory|user]
       switchboard memory edit PERSON --target memory|user [--file F]

  show PERSON    a person's memory (MEMORY.md) and profile (USER.md)
  edit PERSON    replace one of them with the text from --file, else from stdin: entries separated
                 by a line holding only §, as show --target prints them; empty text clears it

PERSON is a person key (alice from people:, telegram-1001) or a platform user (telegram:1001).

options:
  --target memory|user   MEMORY.md or USER.md
  --file F               edit: read the new text from F
  -h, --help             show this help`;
const TARGETS: readonly MemoryTarget[] = ['memory', 'user'];

/** A person key as given, or the key of a platform user (`telegram:1001`); checked like a folder name. */
export function resolvePerson(settings: Settings, person: string): string {
  const colon = person.indexOf(':');
  const platform = colon > 0 ? person.slice(0, colon) : '';
  const key = isPlatformId(platform) && colon < person.length - 1 ? personKey(settings.config, platform, person.slice(colon + 1)) : person;
  memoryDir(settings.home, key); // throws UsageError for a key that is no person's
  return key;
}

function limitOf(settings: Settings, target: MemoryTarget): number {
  return target === 'memory' ? settings.config.limits.memory_chars : settings.config.limits.user_chars;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(typeof part === 'string' ? Buffer.from(part) : part);
  return Buffer.concat(parts).toString('utf8');
}

export async function run(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandLine('memory', usage, {
    args: argv,
    options: { target: { type: 'string' }, file: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const [action, person, ...extra] = positionals;
  if (action !== 'show' && action !== 'edit') throw new CommandLineError('memory', action ? `unknown action '${action}'` : 'say show or edit', usage);
  if (!person) throw new CommandLineError('memory', `${action}: say whose (a person key or platform:user)`, usage);
  if (extra.length) throw new CommandLineError('memory', `unexpected argument '${extra[0]}'`, usage);
  const target = values.target as MemoryTarget | undefined;
  if (target !== undefined && !TARGETS.includes(target)) throw new UsageError(`--target must be memory (MEMORY.md) or user (USER.md), not '${values.target}'`);
  if (action === 'edit' && !target) throw new UsageError('memory edit: say which file with --target memory (MEMORY.md) or --target user (USER.md)');
  if (action === 'show' && values.file !== undefined) throw new UsageError('memory show takes no --file');

  const settings = loadSettings(io.env);
  const key = resolvePerson(settings, person);
  // Read the new text before opening the store, so a missing file is one line and no connection.
  let text: string | undefined;
  if (action === 'edit') {
    try {
      text = values.file !== undefined ? readFileSync(values.file, 'utf8') : await readAll(io.stdin);
    } catch (error) {
      throw new UsageError(`memory edit: cannot read ${values.file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
    }
  }
  const store = await openData(settings);
  try {
    if (action === 'show') {
      if (target) {
        const entries = await store.memory.read(key, target);
        if (entries.length) io.stdout.write(serializeEntries(entries) + '\n');
        return 0;
      }
      const blocks: string[] = [];
      for (const t of TARGETS) {
        const entries = await store.memory.read(key, t);
        const body = entries.length ? serializeEntries(entries) : '(empty)';
        blocks.push(`${MEMORY_FILES[t]} of ${key} (${charLength(serializeEntries(entries))}/${limitOf(settings, t)} chars, ${store.engine === 'postgres' ? 'in the database' : 'in memories/'}):\n${body}\n`);
      }
      io.stdout.write(blocks.join('\n'));
      return 0;
    }
    const entries = parseEntries(text ?? '');
    const file = MEMORY_FILES[target!];
    const limit = limitOf(settings, target!);
    const chars = charLength(serializeEntries(entries));
    if (chars > limit) {
      io.stderr.write(`switchboard: ${file} would have ${chars} chars, over its limit of ${limit} (limits.${target === 'memory' ? 'memory' : 'user'}_chars); nothing changed\n`);
      return 1;
    }
    for (const entry of entries) {
      const secret = secretKind(entry);
      if (secret) {
        io.stderr.write(`switchboard: an entry looks like ${secret}; memory is shown in every conversation, so credentials never go there; nothing changed\n`);
        return 1;
      }
    }
    await store.memory.write(key, target!, entries);
    io.stdout.write(`Replaced ${file} of ${key}: ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}, ${chars}/${limit} chars.\n`);
    return 0;
  } finally {
    await store.close();
  }
}

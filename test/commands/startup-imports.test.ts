/**
 * What `switchboard start` loads before it knows what is configured: the static import graph of the
 * command (and of the store opener) reaches no platform SDK, no model SDK, no PostgreSQL driver, no
 * SMTP client and no web server — each is imported when its door, provider, engine, first mail or
 * console port is in use (README: Development).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Packages reached from `file` by static, non-type imports (what loading the module loads). */
function staticPackages(file: string, seen = new Set<string>()): Set<string> {
  const out = new Set<string>();
  if (seen.has(file)) return out;
  seen.add(file);
  const text = readFileSync(file, 'utf8').replace(/^\s*\/\*[\s\S]*?\*\//gm, '').replace(/^\s*\/\/.*$/gm, '');
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'";]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm)) {
    const spec = m[1] ?? m[2];
    if (spec.startsWith('.')) for (const p of staticPackages(resolve(dirname(file), spec.replace(/\.js$/, '.ts')), seen)) out.add(p);
    else out.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
  }
  return out;
}

/** Every .ts file under `dir`. */
function srcFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? srcFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const OPTIONAL = ['grammy', '@grammyjs/auto-retry', '@slack/bolt', '@discordjs/ws', '@discordjs/rest', 'discord-api-types', 'nodemailer', 'imapflow', 'mailparser', 'pg', 'openai', '@anthropic-ai/sdk', 'hono', '@hono/node-server'];

describe('start-up imports', () => {
  it('`start` statically loads none of the optional SDKs, drivers and servers', () => {
    const loaded = staticPackages(join(root, 'src/commands/start.ts'));
    // The walk sees the command's real dependencies (else it would pass on an empty graph).
    for (const needed of ['zod', 'yaml', 'better-sqlite3', 'node-cron']) expect(loaded.has(needed), needed).toBe(true);
    expect(OPTIONAL.filter((p) => loaded.has(p))).toEqual([]);
  });

  it('each optional package is still reached by its own module', () => {
    const reach = (file: string) => staticPackages(join(root, file));
    expect(reach('src/store/postgres/index.ts').has('pg')).toBe(true);
    expect(reach('src/adapters/discord/index.ts').has('@discordjs/ws')).toBe(true);
    expect(reach('src/adapters/discord/index.ts').has('@discordjs/rest')).toBe(true);
    expect(reach('src/adapters/slack/index.ts').has('@slack/bolt')).toBe(true);
    expect(reach('src/adapters/telegram/index.ts').has('grammy')).toBe(true);
    expect(reach('src/console/index.ts').has('hono')).toBe(true);
  });

  it('the Discord door runs on @discordjs/ws and @discordjs/rest: nothing in src loads the whole of discord.js', () => {
    // The discord.js client costs ~380 ms and ~44 MiB at start for caches and structures the door does not use.
    const offenders = srcFiles(join(root, 'src')).filter((f) => staticPackages(f).has('discord.js') || /\bimport\s*\(\s*['"]discord\.js['"]/.test(readFileSync(f, 'utf8')));
    expect(offenders.map((f) => relative(root, f))).toEqual([]);
    // The walk does see the door's own packages (else it would pass on an empty graph).
    expect(staticPackages(join(root, 'src/adapters/discord/index.ts')).has('discord-api-types')).toBe(true);
  });
});

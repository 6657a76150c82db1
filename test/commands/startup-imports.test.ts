/**
 * What `switchboard start` loads before it knows what is configured: the static import graph of the
 * command (and of the store opener) reaches no platform SDK, no model SDK, no PostgreSQL driver, no
 * SMTP client and no web server — each is imported when its door, provider, engine, first mail or
 * console port is in use (README: Development).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
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

const OPTIONAL = ['grammy', '@grammyjs/auto-retry', '@slack/bolt', 'discord.js', 'nodemailer', 'imapflow', 'mailparser', 'pg', 'openai', '@anthropic-ai/sdk', 'hono', '@hono/node-server'];

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
    expect(reach('src/adapters/discord/index.ts').has('discord.js')).toBe(true);
    expect(reach('src/adapters/slack/index.ts').has('@slack/bolt')).toBe(true);
    expect(reach('src/adapters/telegram/index.ts').has('grammy')).toBe(true);
    expect(reach('src/console/index.ts').has('hono')).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SDKS = ['grammy', '@grammyjs/', '@slack/', 'discord.js', '@discordjs/', 'nodemailer', 'node-cron'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]);
}

describe('module boundaries', () => {
  it('keeps platform SDKs out of src/core and src/render (cron scheduling is the one core use of node-cron)', () => {
    const offenders: string[] = [];
    for (const dir of ['src/core', 'src/render']) {
      for (const f of files(join(root, dir))) {
        const rel = relative(root, f);
        for (const spec of imports(f)) {
          if (spec === 'node-cron' && rel.startsWith('src/core/cron/')) continue;
          if (SDKS.some((s) => spec === s || spec.startsWith(s))) offenders.push(`${rel} imports ${spec}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('keeps adapters out of src/core and src/render', () => {
    const offenders = ['src/core', 'src/render'].flatMap((dir) =>
      files(join(root, dir)).flatMap((f) => imports(f).filter((s) => s.includes('/adapters/')).map((s) => `${relative(root, f)} imports ${s}`)),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps src/render free of I/O', () => {
    const offenders = files(join(root, 'src/render')).flatMap((f) =>
      imports(f).filter((s) => /^(node:)?(fs|net|http|https|child_process|dgram)(\/|$)/.test(s)).map((s) => `${relative(root, f)} imports ${s}`),
    );
    expect(offenders).toEqual([]);
  });
});

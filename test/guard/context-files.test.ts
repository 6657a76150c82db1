/**
 * Real context files (issue 41): AGENTS.md, CLAUDE.md, .cursorrules / .mdc rules and SOUL.md from public
 * repositories, listed with their sources in data/context-files/SOURCES. Each goes through what a
 * workspace's file goes through (guardDocument after redaction, scope `context`; SOUL.md scope
 * `system`). Goal: at most 2 % lose anything (a section or the whole file), and none is dropped whole.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardDocument } from '../../src/core/guard-cut.js';
import { threatGuard } from '../../src/guard/index.js';
import { normalizeNewlines, stripBom } from '../../src/core/prompt/text.js';
import { SHAPES_REDACTOR } from '../../src/core/secrets/redact.js';
import { silentLogger } from '../../src/core/logger.js';

const DIR = join(import.meta.dirname, 'data', 'context-files');
const rows = readFileSync(join(DIR, 'SOURCES'), 'utf8')
  .split('\n')
  .filter((l) => l && !l.startsWith('#'))
  .map((l) => {
    const [name, repo, path, commit] = l.split('\t');
    return { name, repo, path, commit };
  });
const present = existsSync(join(DIR, 'files')) && rows.every((r) => existsSync(join(DIR, 'files', r.name)));
const why = present ? '' : ' (skipped: data/context-files/files/ is not in this checkout; scripts/context-corpus.sh rebuilds it from SOURCES)';

describe('real context files', () => {
  it('SOURCES lists at least 200 files, each with repository, path and a 40-hex commit, and no name twice', () => {
    expect(rows.length).toBeGreaterThanOrEqual(200);
    for (const r of rows) {
      expect(r.repo, r.name).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(r.path, r.name).toBeTruthy();
      expect(r.commit, r.name).toMatch(/^[0-9a-f]{40}$/);
    }
    expect(new Set(rows.map((r) => r.name)).size).toBe(rows.length);
    const kinds = new Set(rows.map((r) => r.path.split('/').at(-1)!.replace(/^.*\.mdc$/, '.mdc')));
    for (const k of ['AGENTS.md', 'CLAUDE.md', 'SOUL.md', '.mdc']) expect(kinds, k).toContain(k);
  });

  it.skipIf(!present)(`at most 2 % lose a section or more, none is blocked whole, each cut names its file and section, and at most 1 % have anything redacted${why}`, () => {
    if (present) expect(readdirSync(join(DIR, 'files')).length).toBe(rows.length);
    const hit: string[] = [];
    const redacted: string[] = [];
    for (const r of rows) {
      const raw = normalizeNewlines(stripBom(readFileSync(join(DIR, 'files', r.name), 'utf8'))).trimEnd();
      const clean = SHAPES_REDACTOR.redact(raw);
      if (clean.count) redacted.push(`${r.repo}/${r.path}: ${clean.kinds.join(', ')}`);
      const text = clean.text;
      const scope = r.path.endsWith('SOUL.md') ? 'system' : 'context';
      const out = guardDocument(threatGuard, text, { file: r.path, scope, logger: silentLogger });
      if (out.outcome === 'clean') continue;
      hit.push(`${out.outcome} ${r.repo}/${r.path} ${out.sections.join(', ')} (${out.categories.join(', ')})`);
      expect(out.outcome, `${r.repo}/${r.path} blocked whole`).toBe('cut');
      expect(out.text).toContain(`[REMOVED: section "${out.sections[0].replace(/^#+\s*/, '')}" of ${r.path}`);
    }
    expect(hit.length / rows.length, hit.join('\n')).toBeLessThanOrEqual(0.02);
    // few real files hold text shaped like a credential (those that do show example passwords)
    expect(redacted.length / rows.length, redacted.join('\n')).toBeLessThanOrEqual(0.01);
  }, 120_000);
});

/**
 * Prompt benchmark: building a system prompt from scratch (read SOUL.md, 50 skills, a 20,000-char
 * context file, memory through the MemoryRepo; threat-scan; assemble; hash) versus reusing the cached
 * one, the way a session does on every call after the first (read the stored layers back from SQLite
 * and join).
 * Runs in a temp home and workspace, removed afterwards.
 */
import { scanText } from '../src/guard/scan.js';
import { threatGuard } from '../src/guard/index.js';
import { score } from '../test/guard/redteam/score.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { parseConfig } from '../src/core/config.js';
import { silentLogger } from '../src/core/logger.js';
import { assemble, buildPrompt, type PromptInput } from '../src/core/prompt/builder.js';
import type { PromptLayer } from '../src/core/providers/provider.js';
import { FileMemoryRepo } from '../src/store/sqlite/memory-files.js';
import { scanInput } from './scan-input.js';

export interface PromptBench {
  /** Mean time of one build from scratch, ms. */
  buildMs: number;
  /** Mean time of one reuse of the cached prompt, ms. */
  reuseMs: number;
  /** buildMs / reuseMs. */
  speedup: number;
  /** Characters of the built prompt. */
  promptChars: number;
  skills: number;
  contextFileChars: number;
  iterations: number;
  /** Threat scan of 1 MB of mixed text (benign prose, long runs, hostile repetitions), ms. */
  scanMbMs: number;
  /** Red-team corpus (test/guard/redteam): attacks blocked and benign texts passed, per half. */
  redteam: Record<'dev' | 'holdout', { blocked: number; attacks: number; passed: number; benign: number }>;
}


const SKILLS = 50;
const CONTEXT_CHARS = 20_000;

function contextFile(): string {
  const para =
    '- Run `npm test` before every commit; keep functions small and pure; never log secrets; prefer explicit types over `any`; document exported contracts with JSDoc.\n';
  let text = '# AGENTS.md\n\n## Conventions\n\n';
  while (text.length < CONTEXT_CHARS) text += para;
  return text.slice(0, CONTEXT_CHARS);
}

function fixture(root: string): { home: string; cwd: string } {
  const home = join(root, 'home');
  const cwd = join(root, 'repo');
  mkdirSync(join(cwd, '.git'), { recursive: true });
  writeFileSync(join(cwd, 'AGENTS.md'), contextFile());
  for (let i = 0; i < SKILLS; i++) {
    const dir = join(home, 'skills', `skill-${String(i).padStart(2, '0')}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'SKILL.md'),
      `---\nname: skill-${i}\ndescription: Does task number ${i} the way the team likes it, step by step.\n---\n# Skill ${i}\n\n${'1. A step.\n'.repeat(40)}`,
    );
  }
  mkdirSync(join(home, 'memories', 'telegram-1001'), { recursive: true });
  writeFileSync(join(home, 'memories', 'telegram-1001', 'MEMORY.md'), 'Prefers short answers.\n§\nWorks on the billing service.\n');
  writeFileSync(join(home, 'memories', 'telegram-1001', 'USER.md'), 'Name: Alice. Time zone: Europe/Berlin.\n');
  writeFileSync(join(home, 'SOUL.md'), 'You are Switchboard, the team assistant.\n');
  return { home, cwd };
}

function mean(fn: () => unknown, iterations: number): number {
  for (let i = 0; i < Math.min(5, iterations); i++) fn(); // warm-up: JIT and file cache
  const start = performance.now();
  for (let i = 0; i < iterations; i++) fn();
  return (performance.now() - start) / iterations;
}

/** `mean` for an asynchronous `fn`, each call awaited before the next. */
async function meanAsync(fn: () => Promise<unknown>, iterations: number): Promise<number> {
  for (let i = 0; i < Math.min(5, iterations); i++) await fn();
  const start = performance.now();
  for (let i = 0; i < iterations; i++) await fn();
  return (performance.now() - start) / iterations;
}

/** Times building the prompt from scratch vs. reusing the cached one. */
export async function benchPrompt(iterations = 50): Promise<PromptBench> {
  const root = mkdtempSync(join(tmpdir(), 'sb-bench-prompt-'));
  const db = new Database(':memory:');
  try {
    const { home, cwd } = fixture(root);
    const input: PromptInput = {
      home,
      // The SQLite engine's memory: files in $SWITCHBOARD_HOME/memories (what store.memory is there).
      memory: new FileMemoryRepo(home),
      config: parseConfig('', 'bench'),
      platform: 'telegram',
      personKey: 'telegram-1001',
      sessionId: 'bench',
      startedAt: new Date('2026-11-30T09:00:00Z'),
      cwd,
      logger: silentLogger,
      timezone: 'UTC',
      guard: threatGuard,
    };
    const built = await buildPrompt(input);
    db.exec('CREATE TABLE sessions (id TEXT PRIMARY KEY, prompt TEXT, prompt_sha256 TEXT, prompt_layers TEXT)');
    db.prepare('INSERT INTO sessions VALUES (?, ?, ?, ?)').run('bench', built.text, built.sha256, JSON.stringify(built.layers));
    const select = db.prepare<[string], { prompt: string; prompt_layers: string }>('SELECT prompt, prompt_layers FROM sessions WHERE id = ?');
    // Reuse = what a session does per call: load the stored prompt and its layers, nothing rebuilt.
    const reuse = () => {
      const row = select.get('bench')!;
      return { text: row.prompt, layers: JSON.parse(row.prompt_layers) as PromptLayer[] };
    };

    const buildMs = await meanAsync(() => buildPrompt(input), iterations);
    const reuseMs = mean(reuse, iterations);
    const again = reuse();
    if (again.text !== built.text || assemble(again.layers).sha256 !== built.sha256) {
      throw new Error('bench: the reused prompt differs from the built one');
    }
    const text = scanInput();
    scanText(text.slice(0, 10_000), 'context');
    const scanMbMs = mean(() => scanText(text, 'context'), 3);
    const half = (h: 'dev' | 'holdout') => {
      const r = score(h);
      return { blocked: r.blocked, attacks: r.attacks, passed: r.passed, benign: r.benign };
    };
    return {
      scanMbMs: round(scanMbMs),
      redteam: { dev: half('dev'), holdout: half('holdout') },
      buildMs: round(buildMs),
      reuseMs: round(reuseMs),
      speedup: round(buildMs / reuseMs),
      promptChars: built.text.length,
      skills: SKILLS,
      contextFileChars: CONTEXT_CHARS,
      iterations,
    };
  } finally {
    db.close();
    rmSync(root, { recursive: true, force: true });
  }
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

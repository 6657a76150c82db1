/**
 * Context files (layer 5, ARCHITECTURE.md §5): project instructions found in the workspace.
 *
 * Search: the workspace folder (`cwd`) and its parents up to the git root, the nearest folder that
 * contains `.git` (a folder or, in worktrees and submodules, a file). Without a git root only the
 * workspace folder itself is searched, so a stray AGENTS.md in a home folder never leaks into an
 * unrelated workspace.
 *
 * First match wins, and only one source is loaded: folders are tried nearest first, and within a
 * folder the names in priority order `.switchboard.md`, `SWITCHBOARD.md`, `AGENTS.md`, `CLAUDE.md`,
 * `.cursorrules`, `.cursor/rules/*.mdc` (all `.mdc` files of that folder, by name). Nearest first
 * follows the usual rule of these files: the most specific folder knows best.
 *
 * Each file has its secrets redacted (ARCHITECTURE.md §17) and is threat-scanned (scope `context`): a
 * flagged section is replaced by a `[REMOVED: …]` notice, a file flagged throughout by its
 * `[BLOCKED: …]` line (guard-cut.ts). The loaded text is then cut to `limit` characters keeping head
 * and tail with a marker.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Logger } from '../logger.js';
import type { Guard } from '../guard.js';
import { guardDocument } from '../guard-cut.js';
import { SHAPES_REDACTOR, type Redactor } from '../secrets/redact.js';
import { normalizeNewlines, stripBom, truncateHeadTail } from './text.js';

/** File names in priority order (`.cursor/rules/*.mdc` comes last, see findContextSource). */
export const CONTEXT_FILE_NAMES = ['.switchboard.md', 'SWITCHBOARD.md', 'AGENTS.md', 'CLAUDE.md', '.cursorrules'] as const;

export interface ContextSource {
  /** Folder the match was found in. */
  dir: string;
  /** Absolute paths of the files (several only for `.cursor/rules/*.mdc`). */
  files: string[];
  /** Display name: path relative to the search root (the git root, else the workspace). */
  label: string;
}

export interface LoadedContext {
  source: ContextSource;
  /** The body under `# Project Context` (already scanned and truncated). */
  body: string;
  /** Characters cut from the middle (0 if none). */
  cut: number;
  /** Secrets replaced by `[redacted secret]`, per file label (only files with some). */
  redacted: { file: string; count: number }[];
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Exact names in a folder (readdir, so that `agents.md` on a case-insensitive disk is not `AGENTS.md`). */
function namesIn(dir: string): Set<string> {
  try {
    return new Set(readdirSync(dir));
  } catch {
    return new Set();
  }
}

/** The folders searched, nearest first: the workspace and its parents up to the git root. */
export function searchFolders(cwd: string): { folders: string[]; root: string } {
  const start = resolve(cwd);
  const chain: string[] = [];
  for (let dir = start; ; dir = dirname(dir)) {
    chain.push(dir);
    if (exists(join(dir, '.git'))) return { folders: chain, root: dir };
    if (dirname(dir) === dir) break;
  }
  return { folders: [start], root: start };
}

function toLabel(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}

/** Finds the first context source for a workspace, or null. */
export function findContextSource(cwd: string): ContextSource | null {
  const { folders, root } = searchFolders(cwd);
  for (const dir of folders) {
    const names = namesIn(dir);
    for (const name of CONTEXT_FILE_NAMES) {
      const path = join(dir, name);
      if (names.has(name) && isFile(path)) return { dir, files: [path], label: toLabel(root, path) };
    }
    if (names.has('.cursor')) {
      const rulesDir = join(dir, '.cursor', 'rules');
      const mdc = [...namesIn(rulesDir)]
        .filter((n) => n.endsWith('.mdc') && isFile(join(rulesDir, n)))
        .sort()
        .map((n) => join(rulesDir, n));
      if (mdc.length) return { dir, files: mdc, label: toLabel(root, rulesDir) };
    }
  }
  return null;
}

function readText(path: string): string {
  return normalizeNewlines(stripBom(readFileSync(path, 'utf8'))).trimEnd();
}

/**
 * Loads the first context source of `cwd`: scanned, truncated to `limit`, ready to sit under
 * `# Project Context`. Null when the workspace has none (or it is empty).
 */
export function loadContextFiles(cwd: string, limit: number, logger: Logger, guard: Guard, redactor: Redactor = SHAPES_REDACTOR): LoadedContext | null {
  const source = findContextSource(cwd);
  if (!source) return null;
  const { root } = searchFolders(cwd);
  const parts: string[] = [];
  const redacted: LoadedContext['redacted'] = [];
  for (const file of source.files) {
    let text: string;
    try {
      text = readText(file);
    } catch (error) {
      logger.warn('prompt', `context file ${toLabel(root, file)} unreadable: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
      continue;
    }
    const name = toLabel(root, file);
    const clean = redactor.redact(text);
    if (clean.count) {
      redacted.push({ file: name, count: clean.count });
      logger.info('secrets', `${clean.count} secret(s) redacted in ${name} (${clean.kinds.join(', ')})`);
    }
    const safe = guardDocument(guard, clean.text, { file: name, scope: 'context', logger }).text;
    // Several .mdc rules are shown one after another, each under its own name.
    parts.push(source.files.length > 1 ? `## ${name}\n\n${safe}` : safe);
  }
  const joined = parts.join('\n\n');
  if (!joined.trim()) return null;
  const { text, cut } = truncateHeadTail(joined, limit, source.label);
  if (cut > 0) logger.info('prompt', `context file ${source.label}: ${cut} chars cut (limit ${limit})`);
  return { source, body: text, cut, redacted };
}

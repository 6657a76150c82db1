/**
 * Memory edits (the `memory` tool's logic, ARCHITECTURE.md §7b): add, replace or remove one entry of a
 * person's MEMORY.md or USER.md, stored at once through the store's MemoryRepo. The answer is a
 * sentence for the model; refusals (over the limit, blocked by the threat scan, no or several
 * matching entries) store nothing and say why, so the model can correct itself.
 *
 * An edit is a read-modify-write of the whole file. Edits of one person's file through one repo
 * are run one after the other (in this process), so two turns of that person never lose each
 * other's entry.
 */
import type { Logger } from '../logger.js';
import type { MemoryRepo, MemoryTarget } from '../store/types.js';
import { reportScan, type Guard } from '../guard.js';
import { charLength, normalizeNewlines } from '../prompt/text.js';
import { ENTRY_SEPARATOR, MEMORY_FILES, serializeEntries } from './entries.js';
import { secretKind } from './secrets.js';

export type MemoryAction = 'add' | 'replace' | 'remove';

export interface MemoryEdit {
  action: MemoryAction;
  target: MemoryTarget;
  /** New entry text (add, replace). */
  content?: string;
  /** A substring identifying exactly one entry (replace, remove). */
  oldText?: string;
}

export type MemoryEditStatus = 'saved' | 'replaced' | 'removed' | 'unchanged' | 'over_limit' | 'blocked' | 'not_found' | 'ambiguous' | 'invalid';

export interface MemoryEditResult {
  ok: boolean;
  status: MemoryEditStatus;
  /** Sentence returned to the model. */
  message: string;
}

export interface MemoryEditContext {
  /** Where the person's entries are kept (`store.memory`). */
  memory: MemoryRepo;
  personKey: string;
  limits: { memory_chars: number; user_chars: number };
  logger: Logger;
  /** Scans each new entry (scope `memory`) before it is stored. */
  guard: Guard;
}

function limitOf(ctx: MemoryEditContext, target: MemoryTarget): number {
  return target === 'memory' ? ctx.limits.memory_chars : ctx.limits.user_chars;
}

function clean(text: string): string {
  return normalizeNewlines(text).trim();
}

function usage(entries: readonly string[], limit: number): string {
  const used = charLength(serializeEntries(entries));
  return `${used}/${limit} chars used, ${Math.max(0, limit - used)} left`;
}

function short(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}

/** Indexes of the entries containing `oldText`, or a refusal. */
function locate(entries: readonly string[], oldText: string, file: string): number | MemoryEditResult {
  const hits = entries.flatMap((e, i) => (e.includes(oldText) ? [i] : []));
  if (hits.length === 1) return hits[0];
  if (hits.length === 0) {
    const list = entries.length ? ` Entries: ${entries.map((e) => `"${short(e)}"`).join('; ')}.` : ` ${file} is empty.`;
    return { ok: false, status: 'not_found', message: `No entry in ${file} contains "${short(oldText)}"; nothing changed.${list}` };
  }
  return {
    ok: false,
    status: 'ambiguous',
    message: `"${short(oldText)}" matches ${hits.length} entries in ${file}; nothing changed. Give a longer old_text that matches exactly one entry.`,
  };
}

/** The tail of the edits queued per repo and file (`<person key>\0<target>`). */
const queues = new WeakMap<MemoryRepo, Map<string, Promise<unknown>>>();

/** Runs `fn` after every earlier edit of the same file through the same repo has finished. */
async function serialized<T>(repo: MemoryRepo, file: string, fn: () => Promise<T>): Promise<T> {
  let perRepo = queues.get(repo);
  if (!perRepo) {
    perRepo = new Map();
    queues.set(repo, perRepo);
  }
  const before = perRepo.get(file);
  const run = before ? before.then(fn, fn) : fn();
  const tail = run.catch(() => undefined);
  perRepo.set(file, tail);
  try {
    return await run;
  } finally {
    if (perRepo.get(file) === tail) perRepo.delete(file);
  }
}

/** Applies one edit. Never throws for a refusal; storage failures throw StorageError. */
export async function applyMemoryEdit(ctx: MemoryEditContext, edit: MemoryEdit): Promise<MemoryEditResult> {
  const file = MEMORY_FILES[edit.target];
  const content = edit.content === undefined ? undefined : clean(edit.content);
  const oldText = edit.oldText === undefined ? undefined : clean(edit.oldText);

  if (edit.action !== 'remove') {
    if (!content) return { ok: false, status: 'invalid', message: `${edit.action} needs a non-empty content; nothing changed.` };
    if (/^[ \t]*§[ \t]*$/m.test(content)) {
      return { ok: false, status: 'invalid', message: 'content may not contain a line holding only "§" (it separates entries); nothing changed.' };
    }
    const secret = secretKind(content);
    if (secret) {
      ctx.logger.warn('memory', `${ctx.personKey}/${file}: refused an entry that looks like ${secret}`);
      return {
        ok: false,
        status: 'blocked',
        message: `Refused: the entry looks like ${secret}; nothing was stored. Memory is shown in every later conversation, so credentials never go there: tell the person to keep them in a password manager.`,
      };
    }
    const scan = ctx.guard.scan(content, 'memory');
    if (scan.blocked) {
      reportScan(scan, { file: `${ctx.personKey}/${file} entry`, scope: 'memory', logger: ctx.logger });
      return {
        ok: false,
        status: 'blocked',
        message: `Blocked: the entry matches prompt injection patterns (${scan.categories.join(', ')}); nothing was stored.`,
      };
    }
  }
  if (edit.action !== 'add' && !oldText) {
    return { ok: false, status: 'invalid', message: `${edit.action} needs old_text, a unique part of the entry to change; nothing changed.` };
  }

  return serialized(ctx.memory, `${ctx.personKey}\0${edit.target}`, () => writeEdit(ctx, edit, content, oldText));
}

/** The read-modify-write part of an edit whose arguments passed the checks. */
async function writeEdit(ctx: MemoryEditContext, edit: MemoryEdit, content: string | undefined, oldText: string | undefined): Promise<MemoryEditResult> {
  const file = MEMORY_FILES[edit.target];
  const limit = limitOf(ctx, edit.target);
  const entries = await ctx.memory.read(ctx.personKey, edit.target);
  const next = [...entries];
  let replaced = '';
  if (edit.action === 'add') {
    if (entries.includes(content!)) return { ok: true, status: 'unchanged', message: `${file} already has this entry; nothing changed (${usage(entries, limit)}).` };
    next.push(content!);
  } else {
    const at = locate(entries, oldText!, file);
    if (typeof at !== 'number') return at;
    replaced = entries[at];
    if (edit.action === 'replace') next[at] = content!;
    else next.splice(at, 1);
  }

  const after = charLength(serializeEntries(next));
  if (edit.action !== 'remove' && after > limit) {
    // Room for this change: what is free now, plus the entry it replaces (with its separator when adding).
    const used = charLength(serializeEntries(entries));
    const room = Math.max(0, limit - used - (edit.action === 'add' && entries.length ? ENTRY_SEPARATOR.length : 0));
    const needed = edit.action === 'add' ? charLength(content!) : charLength(content!) - charLength(replaced);
    return {
      ok: false,
      status: 'over_limit',
      message:
        `Not saved: ${file} is limited to ${limit} chars and has ${room} chars of room left; this ${edit.action === 'add' ? 'entry needs' : 'change adds'} ${needed}. ` +
        'Shorten it, or replace or remove an older entry first.',
    };
  }

  await ctx.memory.write(ctx.personKey, edit.target, next);
  const status: MemoryEditStatus = edit.action === 'add' ? 'saved' : edit.action === 'replace' ? 'replaced' : 'removed';
  const verb = status === 'saved' ? 'Saved to' : status === 'replaced' ? 'Replaced the entry in' : 'Removed the entry from';
  return { ok: true, status, message: `${verb} ${file} (${usage(next, limit)}). It shows in the next conversation.` };
}

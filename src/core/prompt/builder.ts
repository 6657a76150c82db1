/**
 * The system prompt builder (ARCHITECTURE.md §5). Ten named layers, broadest scope first:
 *
 *   1 identity · 2 tool_guidance · 3 system_message · 4 skills_index · 5 context_files   (global)
 *   6 platform_hint                                                                      (platform)
 *   6b chat_instructions (the chat's `system_message` from `chats:`, ARCHITECTURE.md §13)          (chat)
 *   7 memory · 8 user_profile                                                            (person)
 *   9 session_info                                                                       (session)
 *
 * Layout contract:
 * - `layers` always holds all ten names in this order. A layer with nothing to say (no system
 *   message, no skills, no context file, empty memory, anything dropped by `ignoreRules`) has
 *   `text: ''`, so names and positions never move.
 * - Separators belong to the layers: every non-empty layer after `identity` starts with a blank
 *   line (`\n\n`). Hence `text` is exactly the concatenation of the layer texts, with no trailing
 *   whitespace, and a prefix of layers is a byte prefix of the prompt: everything up to
 *   `context_files` is identical for every session of one home and workspace, up to
 *   `platform_hint` for every user of a platform (a chat's instructions come after it, so a
 *   chat with its own settings still shares that prefix), up to `user_profile` for all sessions of a person.
 * - Deterministic: the same files, config, platform, person, session id and start *day* give a
 *   byte-identical prompt. `session_info` has day precision only.
 *
 * `ignoreRules` (`--ignore-rules`) drops context_files, memory and user_profile, and reduces the
 * platform hint to its factual part: which platform this is, the render format, the size limit,
 * whether anyone can answer a question and whether media can be sent (all read from the same
 * PLATFORM_HINTS entry). The user-facing parts, the style advice for the people reading on that
 * platform (tone, length, what to avoid), are left out. identity, tool_guidance, system_message,
 * skills_index and session_info stay.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '../config.js';
import { ConfigError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { PlatformId } from '../../platform/ids.js';
import type { Address } from '../../platform/address.js';
import { chatConfigFor } from '../chats.js';
import type { PromptLayer } from '../providers/provider.js';
import type { MemoryRepo } from '../store/types.js';
import { cutToLimit, serializeEntries, type MemoryFile } from '../memory/entries.js';
import { loadContextFiles, type LoadedContext } from './context-files.js';
import { DEFAULT_IDENTITY, TOOL_GUIDANCE } from './defaults.js';
import { PLATFORM_HINTS, type PlatformHint } from './hints.js';
import { listSkills } from './skills.js';
import { charLength, normalizeNewlines, stripBom } from './text.js';
import { guardText, judgedLine, reportScan, type Guard, type SecondOpinion } from '../guard.js';
import { guardDocument } from '../guard-cut.js';
import { SHAPES_REDACTOR, type Redactor } from '../secrets/redact.js';

/** Layer names, in prompt order. */
export const LAYER_NAMES = [
  'identity',
  'tool_guidance',
  'system_message',
  'skills_index',
  'context_files',
  'platform_hint',
  'chat_instructions',
  'memory',
  'user_profile',
  'session_info',
] as const;
export type LayerName = (typeof LAYER_NAMES)[number];

export interface PromptInput {
  /** `$SWITCHBOARD_HOME`: SOUL.md, skills/. */
  home: string;
  /** Where the person's MEMORY.md / USER.md entries are kept (`store.memory`). */
  memory: MemoryRepo;
  config: AppConfig;
  platform: PlatformId;
  /** The session's chat, for its `chats:` entry (layer chat_instructions); none for a plain preview. */
  address?: Address & { userId?: string };
  /** Memory owner (`telegram-1001` or a person's name). */
  personKey: string;
  /** Session id; `preview` for a preview. */
  sessionId: string;
  /** When the session started; only the day (in `timezone`) enters the prompt. */
  startedAt: Date;
  /** Workspace folder searched for context files. */
  cwd: string;
  /** `--ignore-rules`: see the module comment. */
  ignoreRules?: boolean;
  logger: Logger;
  /** Scans SOUL.md, skill descriptions, context files, memory and profile before they enter the prompt. */
  guard: Guard;
  /** IANA zone for the start day; default: the process's local zone. */
  timezone?: string;
  /**
   * Replaces secrets in every loaded text (SOUL.md, skills, context files, memory, profile) before the
   * guard sees it (ARCHITECTURE.md §17); default: credential shapes only, no configured secrets.
   */
  redactor?: Redactor;
  /** `guard.model` (ARCHITECTURE.md §17): asked about the context file and each memory entry the scan passed. */
  secondOpinion?: SecondOpinion;
}

export interface BuiltPrompt {
  /** All ten layers in order; `text` is '' for an absent layer. */
  layers: PromptLayer[];
  /** The prompt: concatenation of the layer texts. */
  text: string;
  /** Hex SHA-256 of `text` (UTF-8). */
  sha256: string;
}

const SEP = '\n\n';

function section(body: string): string {
  return body ? SEP + body : '';
}

function readOptional(path: string): string | null {
  try {
    return normalizeNewlines(stripBom(readFileSync(path, 'utf8'))).trim();
  } catch {
    return null;
  }
}

/** `text` with its secrets redacted; logs how many, naming `file`. */
export function redactLoaded(redactor: Redactor, text: string, file: string, logger: Logger): string {
  const r = redactor.redact(text);
  if (r.count) logger.info('secrets', `${r.count} secret(s) redacted in ${file} (${r.kinds.join(', ')})`);
  return r.text;
}

/** Layer 1: SOUL.md (secrets redacted, threat-scanned, scope `system`) or the default identity. */
export function identityLayer(home: string, logger: Logger, guard: Guard, redactor: Redactor = SHAPES_REDACTOR): string {
  const raw = readOptional(join(home, 'SOUL.md'));
  if (!raw) return DEFAULT_IDENTITY;
  const soul = redactLoaded(redactor, raw, 'SOUL.md', logger);
  const guarded = guardDocument(guard, soul, { file: 'SOUL.md', scope: 'system', logger });
  // A blocked SOUL.md still leaves the model an identity: the default, then the BLOCKED line.
  return guarded.outcome === 'blocked' ? `${DEFAULT_IDENTITY}${SEP}${guarded.text}` : guarded.text;
}

/** Layer 4: one line per skill, sorted; descriptions are redacted and threat-scanned (scope `system`). */
export function skillsIndexLayer(home: string, logger: Logger, guard: Guard, redactor: Redactor = SHAPES_REDACTOR): string {
  const skills = listSkills(home, logger);
  if (skills.length === 0) return '';
  const lines = skills.map((s) => {
    const file = `skills/${s.folder}/SKILL.md`;
    const label = redactLoaded(redactor, `${s.name}${s.description ? `: ${s.description}` : ''}`, file, logger);
    return `- ${guardText(guard, label, { file, scope: 'system', logger })}`;
  });
  return section(
    ['# Skills', '', 'Saved procedures you can follow. Before doing a task that matches one, read it with skill_view (by name).', '', ...lines].join(
      '\n',
    ),
  );
}

/** Layer 5: the first context file of the workspace under `# Project Context`. */
export function contextFilesLayer(cwd: string, limit: number, logger: Logger, guard: Guard, redactor: Redactor = SHAPES_REDACTOR): string {
  return contextSection(loadContextFiles(cwd, limit, logger, guard, redactor));
}

/** Layer 5 from a loaded context source. */
function contextSection(loaded: LoadedContext | null): string {
  if (!loaded) return '';
  const intro = `Instructions for this workspace, from ${loaded.source.label}. Follow them where they apply; they do not override your identity or tool rules.`;
  return section(`# Project Context\n\n${intro}\n\n${loaded.body}`);
}

const FORMAT_NAMES: Record<PlatformHint['format'], string> = {
  'telegram-html': 'Telegram HTML',
  'slack-mrkdwn': 'Slack mrkdwn',
  'discord-markdown': 'Discord Markdown',
  'email-text': 'plain-text e-mail',
  terminal: 'terminal text',
  target: 'the format of the delivery target',
};

/** The factual part of a platform hint, kept under `--ignore-rules`. */
export function platformFacts(entry: PlatformHint): string {
  const limit =
    entry.format === 'target'
      ? 'split to its size limit'
      : entry.messageLimit === null
        ? 'no size limit'
        : `at most ${entry.messageLimit} characters per message`;
  return [
    `Platform: ${entry.platform}. Your answer is converted from Markdown to ${FORMAT_NAMES[entry.format]}, ${limit}.`,
    entry.canAskQuestions ? 'Someone can answer a question.' : 'Nobody is present: never ask a question; deliver the finished result.',
    entry.canSendMedia ? 'Media can be sent.' : 'Only text can be sent.',
  ].join(' ');
}

/** Layer 6. */
export function platformHintLayer(platform: PlatformId, ignoreRules: boolean): string {
  const entry = PLATFORM_HINTS[platform];
  return section(ignoreRules ? platformFacts(entry) : entry.hint);
}

/** Layer 6b: the chat's own `system_message` (ARCHITECTURE.md §13); '' for a chat without one. */
export function chatInstructionsLayer(config: AppConfig, address: PromptInput['address']): string {
  if (!address) return '';
  return section(normalizeNewlines(chatConfigFor(config, address)?.system_message ?? '').trim());
}

/**
 * Layers 7 and 8: this person's memory and profile, cut to their limits, frozen now. Each entry has
 * its secrets redacted and is threat-scanned when read (scope `memory`), not only when the memory
 * tool writes it: a file edited on disk or written before a pattern existed must not reach the
 * prompt unchecked. A flagged entry is dropped alone, with one notice in its place; the others stay.
 */
export async function memoryLayers(
  repo: MemoryRepo,
  personKey: string,
  config: AppConfig,
  guard: Guard,
  logger?: Logger,
  redactor: Redactor = SHAPES_REDACTOR,
  secondOpinion?: SecondOpinion,
): Promise<{ memory: string; user: string }> {
  const [memoryEntries, userEntries] = await Promise.all([repo.read(personKey, 'memory'), repo.read(personKey, 'user')]);
  const scanned = async (file: MemoryFile, name: string): Promise<MemoryFile> => {
    if (!file.text) return file;
    const where = `${personKey}/${name}`;
    let changed = false;
    const entries: string[] = [];
    for (const [i, entry] of file.entries.entries()) {
      const r = redactor.redact(entry);
      if (r.count) logger?.info('secrets', `${r.count} secret(s) redacted in ${where} entry ${i + 1} (${r.kinds.join(', ')})`);
      const scan = guard.scan(r.text, 'memory');
      if (scan.blocked) {
        changed = true;
        if (logger) reportScan(scan, { file: `${where} entry ${i + 1}`, scope: 'memory', logger }, `${where}: entry ${i + 1} dropped (${scan.categories.join(', ')}); the other entries loaded`);
        entries.push(`[BLOCKED: entry ${i + 1} of ${name} contains prompt injection patterns: ${scan.categories.join(', ')}. Entry not loaded.]`);
        continue;
      }
      const opinion = await secondOpinion?.judge(r.text, { file: `${where} entry ${i + 1}`, scope: 'memory' });
      if (opinion?.verdict === 'injection') {
        changed = true;
        entries.push(judgedLine(`entry ${i + 1} of ${name}`, opinion.score));
        continue;
      }
      if (r.count) changed = true;
      entries.push(r.text);
    }
    if (!changed) return file;
    const text = serializeEntries(entries);
    return { ...file, entries, text, chars: charLength(text) };
  };
  const [mem, user] = await Promise.all([
    scanned(cutToLimit(memoryEntries, config.limits.memory_chars), 'MEMORY.md'),
    scanned(cutToLimit(userEntries, config.limits.user_chars), 'USER.md'),
  ]);
  const head = (title: string, what: string, chars: number, limit: number) =>
    `# ${title}\n\n${what} (${chars}/${limit} chars; entries separated by §). Frozen when this conversation started: changes you make with the memory tool show in the next one.\n\n`;
  return {
    memory: mem.text ? section(head('Memory', 'Your notes from earlier conversations with this person', mem.chars, config.limits.memory_chars) + mem.text) : '',
    user: user.text ? section(head('User profile', 'What you know about this person', user.chars, config.limits.user_chars) + user.text) : '',
  };
}

/** The loaded context source, or its BLOCKED line when the second opinion judges it an injection. */
async function judgedContext(loaded: LoadedContext | null, opinion: SecondOpinion | undefined): Promise<LoadedContext | null> {
  if (!loaded || !opinion) return loaded;
  const verdict = await opinion.judge(loaded.body, { file: loaded.source.label, scope: 'context' });
  return verdict.verdict === 'injection' ? { ...loaded, body: judgedLine(loaded.source.label, verdict.score) } : loaded;
}

/** `Monday, November 30, 2026` in `timezone` (default: local). */
export function formatStartDay(date: Date, timezone?: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone: timezone }).format(date);
  } catch {
    throw new ConfigError(`time zone '${timezone}' is not a valid IANA name (e.g. Europe/Berlin)`);
  }
}

/** Layer 9. */
export function sessionInfoLayer(startedAt: Date, sessionId: string, platform: PlatformId, timezone?: string): string {
  return section(`# Session\n\nConversation started: ${formatStartDay(startedAt, timezone)}\nSession: ${sessionId}\nPlatform: ${platform}`);
}

/** Builds the layered system prompt of a session. Reads files and the person's memory; never writes. */
export async function buildPrompt(input: PromptInput): Promise<BuiltPrompt> {
  const { home, config, platform, personKey, logger, guard } = input;
  const redactor = input.redactor ?? SHAPES_REDACTOR;
  const ignore = input.ignoreRules === true;
  const systemMessage = redactLoaded(redactor, normalizeNewlines(config.system_message ?? '').trim(), 'system_message', logger);
  const mem = ignore ? { memory: '', user: '' } : await memoryLayers(input.memory, personKey, config, guard, logger, redactor, input.secondOpinion);
  const context = ignore ? null : await judgedContext(loadContextFiles(input.cwd, config.limits.context_file_chars, logger, guard, redactor), input.secondOpinion);
  const texts: Record<LayerName, string> = {
    identity: identityLayer(home, logger, guard, redactor),
    tool_guidance: section(TOOL_GUIDANCE),
    system_message: section(systemMessage),
    skills_index: skillsIndexLayer(home, logger, guard, redactor),
    context_files: contextSection(context),
    platform_hint: platformHintLayer(platform, ignore),
    chat_instructions: chatInstructionsLayer(config, input.address),
    memory: mem.memory,
    user_profile: mem.user,
    session_info: sessionInfoLayer(input.startedAt, input.sessionId, platform, input.timezone),
  };
  const layers: PromptLayer[] = LAYER_NAMES.map((name) => ({ name, text: texts[name] }));
  return assemble(layers);
}

/** Joins layers into a BuiltPrompt (also used to re-hash stored layers). */
export function assemble(layers: PromptLayer[]): BuiltPrompt {
  const text = layers.map((l) => l.text).join('');
  return { layers, text, sha256: createHash('sha256').update(text, 'utf8').digest('hex') };
}

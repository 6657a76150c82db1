import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ConfigError } from './errors.js';
import { guardConfigSchema } from './guard-config.js';
import { AddressError, parseDeliverableAddress, formatAddress, type DeliverableAddress } from '../platform/address.js';
import { DOOR_IDS, DOORS, doorOf, STREAMING_MODES, type DoorId, type DoorYaml, type StreamingMode } from '../platform/doors/index.js';
import { mcpServersSchema } from './mcp-config.js';

export { STREAMING_MODES, type StreamingMode };

/**
 * The package's folder: the nearest one above this module with a package.json — src/core/ when run
 * from the sources, dist/ or dist/chunks/ when run from the bundle (scripts/build.mjs).
 */
function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return resolve(from, '..', '..');
  }
}
export const PACKAGE_ROOT = packageRoot(dirname(fileURLToPath(import.meta.url)));
export const DEFAULT_CONFIG_PATH = join(PACKAGE_ROOT, 'config', 'default.yaml');

/** A person's id on a door or the terminal (`people:`). */
const platformRef = z
  .string()
  .regex(new RegExp(`^(${[...DOOR_IDS, 'cli'].join('|')}):.+$`), 'expected <platform>:<id>, e.g. telegram:1001 or email:alice@example.com');

/** A `deliver` target, parsed once here: a bad one is a config error at load, not at run time. */
const deliverableAddress = z.string().transform((text, ctx) => {
  try {
    return parseDeliverableAddress(text);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: error instanceof AddressError ? error.message : String(error) });
    return z.NEVER;
  }
});

export const cronJobSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/, 'job ids use a-z, 0-9 and -'),
  schedule: z.string().min(1),
  timezone: z.string().optional(),
  prompt: z.string().min(1),
  deliver: deliverableAddress,
  enabled: z.boolean().default(true),
});
export type CronJobConfig = z.infer<typeof cronJobSchema>;

// YAML 1.1 readers turn a bare `off` into false; take that to mean off.
const offIsFalse = (v: unknown) => (v === false ? 'off' : v);
const streamingMode = z.preprocess(offIsFalse, z.enum(STREAMING_MODES));

/** ARCHITECTURE.md §10: `streaming.<door>` for each door that streams, with the modes it offers (its default first). */
const streamingSchema = z
  .strictObject(
    Object.fromEntries(
      DOOR_IDS.filter((id) => DOORS[id].streaming.length > 0).map((id) => {
        const [first, ...rest] = DOORS[id].streaming;
        return [id, z.preprocess(offIsFalse, z.enum([first, ...rest])).default(first)];
      }),
    ),
  )
  .prefault({}) as unknown as z.ZodType<Partial<Record<DoorId, StreamingMode>>, unknown>;

/**
 * Each door's section (`telegram:`, `slack:` …), from its definition. Built by iterating the
 * definitions; the one cast restores the per-door types that Object.fromEntries forgets.
 */
const doorSections = Object.fromEntries(DOOR_IDS.map((id) => [id, DOORS[id].yaml])) as unknown as {
  [K in DoorId]: z.ZodType<DoorYaml<K>, unknown>;
};

/** One chat's settings (ARCHITECTURE.md §13); a setting left out falls back to the global one. */
export const chatSettingsSchema = z.strictObject({
  /** Its own prompt layer `chat_instructions`, right after `platform_hint`. */
  system_message: z.string().optional(),
  /** The model for sessions in this chat (MODEL and model.name are the default). */
  model: z.string().min(1).optional(),
  streaming: streamingMode.optional(),
  /** false: in groups and channels answer every message, not only those that mention the bot. */
  require_mention: z.boolean().optional(),
});

/** A `chats:` entry with its key parsed (an address, as in cron `deliver`). */
export type ChatConfig = z.infer<typeof chatSettingsSchema> & { key: string; address: DeliverableAddress };

/** `chats:` keyed by address; a key that is not an address a reply can go to is a config error at load. */
const chatsSchema = z.record(z.string(), chatSettingsSchema).transform((record, ctx): ChatConfig[] => {
  const chats: ChatConfig[] = [];
  for (const [key, settings] of Object.entries(record)) {
    try {
      chats.push({ ...settings, key, address: parseDeliverableAddress(key) });
    } catch (error) {
      ctx.addIssue({ code: 'custom', path: [key], message: error instanceof AddressError ? error.message : String(error) });
      return z.NEVER;
    }
  }
  return chats;
});

/** A model's price in USD per million tokens: input, input served from the prompt cache, output. */
const priceSchema = z.strictObject({
  input: z.number().min(0),
  cached_input: z.number().min(0).optional(),
  output: z.number().min(0),
});

/** A daily budget in tokens (input + output), in USD, or both; the day is UTC. */
const budgetSchema = z
  .strictObject({ daily_tokens: z.number().int().min(1).optional(), daily_usd: z.number().positive().optional() })
  .refine((b) => b.daily_tokens !== undefined || b.daily_usd !== undefined, { message: 'needs daily_tokens or daily_usd' });

export const configSchema = z.strictObject({
  model: z
    .strictObject({
      provider: z.enum(['openai', 'anthropic']).default('openai'),
      /** Model name; null picks the provider's default (see DEFAULT_MODELS). `MODEL` overrides. */
      name: z.string().min(1).nullable().default(null),
      /** Cheaper model for summaries (session search, compression); defaults to `name`. */
      summary_name: z.string().min(1).nullable().default(null),
      context_window: z.number().int().positive().default(128000),
      max_output_tokens: z.number().int().positive().default(4096),
      timeout_seconds: z.number().positive().default(120),
      max_retries: z.number().int().min(0).max(10).default(3),
      max_tool_iterations: z.number().int().min(1).max(50).default(10),
      /** Anthropic cache TTL for the breakpoints. */
      cache_ttl: z.enum(['5m', '1h']).default('5m'),
      /** The model takes image parts (ARCHITECTURE.md §15); false: images reach it as one line naming them. */
      vision: z.boolean().default(true),
    })
    .prefault({}),
  system_message: z.string().nullable().optional(),
  limits: z
    .strictObject({
      memory_chars: z.number().int().positive().default(2200),
      user_chars: z.number().int().positive().default(1375),
      context_file_chars: z.number().int().positive().default(20000),
    })
    .prefault({}),
  sessions: z
    .strictObject({
      idle_reset_minutes: z.number().int().min(0).default(1440),
      /** Hour of the day (0-23, local time) after which a session started earlier is replaced; null = off. */
      daily_reset_hour: z.number().int().min(0).max(23).nullable().default(null),
      /** Messages waiting behind a running turn before the sender gets a "busy" reply. */
      max_queued: z.number().int().min(1).default(32),
      /** Turns running at once across all sessions. */
      max_concurrent_turns: z.number().int().min(1).default(16),
      /** Compress when the history passes this share of the context window. */
      compress_at: z.number().min(0.1).max(0.95).default(0.5),
      /** Most recent user turns kept verbatim by compression. */
      keep_recent_turns: z.number().int().min(1).default(6),
    })
    .prefault({}),
  people: z.record(z.string().regex(/^[A-Za-z0-9_.-]+$/, 'person names use letters, digits, _ . -'), z.array(platformRef)).default({}),
  cron: z.array(cronJobSchema).default([]),
  /**
   * Extra places the `cron` tool may deliver to, beyond the asking person's own (the chat it was
   * asked from, their linked ids in `people:`): addresses such as `slack:C0TEAM`, or `"*"` for any.
   */
  cron_targets: z.array(z.union([z.literal('*'), deliverableAddress])).default([]),
  chats: chatsSchema.default([]),
  /** ARCHITECTURE.md §10: how answers are shown while the model writes them, per door; `off` = only the finished answer. */
  streaming: streamingSchema,
  ...doorSections,
  /** Tools from MCP servers (ARCHITECTURE.md §16), by server name; src/core/mcp-config.ts has the keys. */
  mcp_servers: mcpServersSchema,
  /** How long finished rows are kept (src/core/retention.ts); null keeps them for good. */
  retention: z
    .strictObject({
      /** Handled inbound journal rows (the dedup of redelivered updates): longer than any platform redelivers. */
      inbound_days: z.number().min(1).nullable().default(7),
      /** Outbox rows already delivered (pending and failed ones are never removed). */
      outbox_sent_days: z.number().min(0.01).nullable().default(7),
      /** Finished cron run records (the job keeps its last run and result). */
      cron_runs_days: z.number().min(1).nullable().default(90),
      /** Ended sessions with their messages (and search index); null = kept until the operator says otherwise. */
      sessions_days: z.number().min(1).nullable().default(null),
      /** Stored media (photos, voice notes, documents: ARCHITECTURE.md §15), counted from when they were last stored. */
      media_days: z.number().min(0.01).nullable().default(30),
      /** How often retention runs after the one at start; 0 = only at start. */
      interval_minutes: z.number().min(0).default(60),
    })
    .prefault({}),
  /** The web console (ARCHITECTURE.md §12); SWITCHBOARD_CONSOLE_PORT / SWITCHBOARD_CONSOLE_HOST override. */
  console: z
    .strictObject({
      /** 0 turns it off. */
      port: z.number().int().min(0).max(65535).default(8787),
      /** Loopback by default; any other host needs SWITCHBOARD_CONSOLE_TOKEN set. */
      host: z.string().min(1).default('127.0.0.1'),
    })
    .prefault({}),
  /** USD per million tokens, per model name (ARCHITECTURE.md §18); merged over the built-in defaults. */
  pricing: z.record(z.string().min(1), priceSchema).default({}),
  /** Daily budgets (ARCHITECTURE.md §18): a turn that would start over budget gets one line and no model call. */
  budgets: z
    .strictObject({
      person: budgetSchema.optional(),
      cron: budgetSchema.optional(),
    })
    .prefault({}),
  /** Approvals (ARCHITECTURE.md §16): a person's yes before a tool call that needs one. */
  approvals: z
    .strictObject({
      /** An unanswered approval is denied after this long. */
      timeout_minutes: z.number().positive().default(10),
      /** Who may answer: person names from `people:` or `platform:user id`; empty = the person whose turn it is. */
      approvers: z.array(z.string().min(1)).default([]),
    })
    .prefault({}),
  /** The injection guard's optional second opinion (ARCHITECTURE.md §17). */
  guard: guardConfigSchema,
  gateway: z
    .strictObject({
      /**
       * Seconds given to running turns on SIGTERM/SIGINT (ARCHITECTURE.md §18); what does not finish stays
       * journaled and is answered after the next start (or by another instance). Keep it below the
       * supervisor's stop timeout (systemd TimeoutStopSec, docker stop -t).
       */
      shutdown_grace_seconds: z.number().min(0).max(3600).default(20),
      /** Outbox: attempts before a reply is parked as failed. */
      outbox_max_attempts: z.number().int().min(1).default(12),
      /**
       * Many instances (ARCHITECTURE.md §9): a session or door lease not renewed within this is free for
       * another instance; renewals, heartbeats and the sweep run every third of it.
       */
      lease_seconds: z.number().min(0.3).max(600).default(15),
      /**
       * A user message longer than this many characters is cut to it, and the reply says so (issue 38).
       * Unset: `model.context_window` characters — about a quarter of the context at ~4 characters a token.
       */
      max_message_chars: z.number().int().min(100).optional(),
    })
    .prefault({}),
  /** What people send (ARCHITECTURE.md §15): limits for fetching and reading attachments. */
  media: z
    .strictObject({
      /** Per attachment; a larger one (declared or fetched) is one line to the user, the rest goes on. */
      max_bytes: z.number().int().positive().default(20_000_000),
      max_per_message: z.number().int().min(0).default(10),
      /** Extracted document text beyond this is cut, saying so. */
      max_document_chars: z.number().int().positive().default(100_000),
      /** Images are re-encoded to at most this long side. */
      image_max_side: z.number().int().min(64).max(8192).default(1568),
      /** Fetching one attachment from the platform's file host gives up after this. */
      fetch_timeout_seconds: z.number().positive().default(30),
    })
    .prefault({}),
  /** Voice notes and audio to text (ARCHITECTURE.md §15); TRANSCRIPTION_BASE_URL / TRANSCRIPTION_API_KEY override. */
  transcription: z
    .strictObject({
      /** openai: POST {base_url}/audio/transcriptions; command: a local program; off: not transcribed. */
      backend: z.enum(['openai', 'command', 'off']).default('openai'),
      /** Default: the model's OpenAI-compatible endpoint. */
      base_url: z.string().url().nullable().default(null),
      model: z.string().min(1).default('whisper-1'),
      /** command: argv; `{wav}` is a 16 kHz mono WAV made with ffmpeg, `{input}` the file as sent. Stdout is the text. */
      command: z.array(z.string().min(1)).min(1).nullable().default(null),
      timeout_seconds: z.number().positive().default(120),
    })
    .prefault({})
    .superRefine((t, ctx) => {
      if (t.backend === 'command' && !t.command) ctx.addIssue({ code: 'custom', path: ['command'], message: 'transcription.backend is command but transcription.command is not set' });
    }),
});

export type AppConfig = z.infer<typeof configSchema>;
export type ModelPrice = z.infer<typeof priceSchema>;

/** Formats the first zod issue as one line naming the setting. */
function firstIssue(error: z.ZodError, file: string): string {
  const issue = error.issues[0];
  const path = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') {
    const where = path ? `${path}.` : '';
    return `${file}: unknown setting ${issue.keys.map((k) => `'${where}${k}'`).join(', ')}`;
  }
  return `${file}: ${path ? `'${path}' ` : ''}${issue.message}`;
}

/**
 * The yaml library's error as one line. Its first line ends with ':' before a code excerpt and names
 * the position. A line indented deeper than its neighbour (`name: x` then `    window: 5`) is read as
 * one plain scalar running on into that line, and the error points at the scalar's start — one line
 * early (issue 38): the place named is the line where the stray `key:` stands.
 */
function yamlErrorLine(text: string, error: unknown): string {
  const message = (error instanceof Error ? error.message.split('\n')[0] : String(error)).replace(/:\s*$/, '');
  const e = error as { code?: string; pos?: [number, number] };
  if (e.code !== 'BLOCK_AS_IMPLICIT_KEY' || !e.pos) return message;
  const colon = /:(?=\s|$)/g;
  colon.lastIndex = e.pos[0];
  const at = colon.exec(text)?.index;
  if (at === undefined) return message;
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const line = text.slice(0, lineStart).split('\n').length;
  if (text.slice(e.pos[0], lineStart).indexOf('\n') === -1) return message; // the key is on the reported line
  const column = text.slice(lineStart).search(/\S/) + 1;
  return `a key indented deeper than the line above it (read as part of that line's value) at line ${line}, column ${column}`;
}

export function parseConfig(text: string, file: string): AppConfig {
  let raw: unknown;
  try {
    raw = parseYaml(text) ?? {};
  } catch (error) {
    throw new ConfigError(`${file}: not valid YAML: ${yamlErrorLine(text, error)}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError(`${file}: expected a mapping of settings at the top level`);
  }
  const result = configSchema.safeParse(raw);
  if (!result.success) throw new ConfigError(firstIssue(result.error, file));
  const places = new Map<string, string>();
  for (const chat of result.data.chats) {
    const place = formatAddress(chat.address);
    const other = places.get(place);
    if (other !== undefined) throw new ConfigError(`${file}: chats '${other}' and '${chat.key}' are the same chat`);
    places.set(place, chat.key);
    const mode = chat.streaming;
    if (mode !== undefined && mode !== 'off') {
      const offered = doorOf(chat.address.platform)?.streaming ?? [];
      const allowed: readonly string[] = offered.length ? offered : ['off'];
      if (!allowed.includes(mode)) throw new ConfigError(`${file}: 'chats.${chat.key}.streaming' ${chat.address.platform} offers ${allowed.map((m) => `'${m}'`).join(', ')}, not '${mode}'`);
    }
  }
  const ids = new Set<string>();
  for (const job of result.data.cron) {
    if (ids.has(job.id)) throw new ConfigError(`${file}: cron job id '${job.id}' is used twice`);
    ids.add(job.id);
  }
  return result.data;
}

/** The data folder: $SWITCHBOARD_HOME, else ~/.switchboard. */
export function resolveHome(env: NodeJS.ProcessEnv): string {
  const value = env.SWITCHBOARD_HOME?.trim();
  return value ? resolve(value) : join(homedir(), '.switchboard');
}

/** Config path: $SWITCHBOARD_CONFIG, else $SWITCHBOARD_HOME/config.yaml if present, else config/default.yaml. */
export function resolveConfigPath(env: NodeJS.ProcessEnv, home: string): string {
  const explicit = env.SWITCHBOARD_CONFIG?.trim();
  if (explicit) {
    const path = resolve(explicit);
    if (!existsSync(path)) throw new ConfigError(`SWITCHBOARD_CONFIG: no file at ${path}`);
    return path;
  }
  const inHome = join(home, 'config.yaml');
  return existsSync(inHome) ? inHome : DEFAULT_CONFIG_PATH;
}

export function loadConfigFile(path: string): AppConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read config ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  return parseConfig(text, path);
}

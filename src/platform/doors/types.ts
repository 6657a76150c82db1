/**
 * What a door definition is made of (ARCHITECTURE.md §2: door definitions' shared types). A definition is
 * data plus small pure functions: its variables, its YAML section, how its settings are read,
 * streaming modes, commands, typing cadence and address syntax. The core iterates definitions
 * instead of naming doors; the adapter factory is attached in src/adapters/registry.ts, so nothing
 * here pulls in a platform SDK.
 */
import type { z } from 'zod';

/** ARCHITECTURE.md §10: how an answer is shown while it is written. */
export const STREAMING_MODES = ['off', 'auto', 'draft', 'edit', 'native'] as const;
export type StreamingMode = (typeof STREAMING_MODES)[number];

/** The chat commands the core knows (their texts and handlers live in core). */
export const CHAT_COMMAND_NAMES = ['start', 'help', 'new', 'status', 'usage', 'stop'] as const;
export type ChatCommandName = (typeof CHAT_COMMAND_NAMES)[number];

/** Who may talk on a door: `*` = everyone, otherwise a set of platform user ids. Unset = nobody. */
export interface AllowList {
  everyone: boolean;
  ids: ReadonlySet<string>;
}

export function parseAllowList(value: string | undefined): AllowList {
  const items = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return { everyone: items.includes('*'), ids: new Set(items.filter((s) => s !== '*')) };
}

export function isAllowed(list: AllowList, userId: string): boolean {
  return list.everyone || list.ids.has(userId);
}

/**
 * How a definition reads the environment. The core builds it (core/settings.ts), so a bad value
 * is the core's config error with one line naming the variable, and definitions never touch
 * process.env.
 */
export interface EnvReader {
  /** The trimmed value; undefined when unset or empty. */
  string(name: string): string | undefined;
  /** A URL without trailing slashes; a value that is no URL is a config error. */
  url(name: string): string | undefined;
  /** A port number 0-65535; undefined when unset. */
  port(name: string): number | undefined;
  /** Fails the load with one line. */
  fail(line: string): never;
}

/** What the part after `platform:` looks like on one door, checked when config or a tool takes it. */
export interface AddressSyntax {
  readonly example: string;
  readonly chat: RegExp;
  readonly thread: RegExp | null;
  /** Canonical form of the chat id (e-mail addresses compare lower-cased). */
  readonly canonical?: (chat: string) => string;
}

/** How often "typing…" is shown while a turn runs, where the adapter can show it. */
export interface TypingCadence {
  /** Answers faster than this need no "typing…" (saves a platform call per message). */
  readonly afterMs: number;
  /** The platform shows the indicator this long; it is sent again before it fades. */
  readonly everyMs: number;
}

/** The variables a door reads, by role: what error lines and the refusal text name. */
export interface DoorVariables {
  /** Lists who may talk (`*_ALLOWED_USERS`, `EMAIL_ALLOWED_SENDERS`). */
  readonly allowList: string;
  /** Where the door's intake connects, named when it never answers. */
  readonly endpoint: string;
  /** Variables whose values are secrets: redacted from every log line. */
  readonly secrets: readonly string[];
}

/**
 * One door. `Yaml` is its section of the config file as validated; `S` its settings (undefined
 * when the door is not configured, e.g. without its token).
 */
export interface DoorDefinition<Id extends string, Yaml, S> {
  readonly id: Id;
  readonly variables: DoorVariables;
  /** The door's section of the config file (`telegram:`), every key with its default. */
  readonly yaml: z.ZodType<Yaml, unknown>;
  /** Environment variables that override keys of the YAML section (several instances, one file). */
  overrideYaml?(read: EnvReader, yaml: Yaml): Yaml;
  /** The door's settings from the environment and its (overridden) YAML section. */
  settings(read: EnvReader, yaml: Yaml): S;
  /** Values to redact from logs besides the secret variables (a webhook secret in the file, a password in a URL). */
  secretValues(settings: S, yaml: Yaml): readonly string[];
  /**
   * Whether a refused sender is told so (or given a pairing code). False where the sender's
   * address is trivially forged (e-mail): answering would mail strangers (backscatter).
   */
  readonly answersStrangers: boolean;
  /** Whether pairing is on (config `<door>.pairing`): a refused sender gets a pairing code. */
  pairing(yaml: Yaml): boolean;
  /** Whether the door takes messages in with these settings (the e-mail door only sends without IMAP_URL). */
  receives(settings: NonNullable<S>): boolean;
  /** Streaming modes the door offers, its default first; empty: it never streams. */
  readonly streaming: readonly StreamingMode[];
  /** The chat commands offered on this door, in help order. */
  readonly commands: readonly ChatCommandName[];
  /** Typing cadence; null where the platform shows no typing. */
  readonly typing: TypingCadence | null;
  /** Address syntax (`telegram:-100123:42`): how a reply or a report is sent to a chat by name. */
  readonly address: AddressSyntax;
  /**
   * Intake has a single consumer per bot (long polling, one gateway connection, one mailbox): with
   * several instances it runs under a lease (ARCHITECTURE.md §9). The adapter declares what this says
   * (`Adapter.exclusiveIntake`); Telegram's webhook mode and a send-only mail door run everywhere.
   */
  exclusive(settings: NonNullable<S>, yaml: Yaml): boolean;
}

import type { PlatformId } from '../platform/ids.js';
import { doorOf, type ChatCommandName } from '../platform/doors/index.js';

/** Chat commands handled by the core; they skip the session queue. */
export const CHAT_COMMANDS = {
  start: 'Start talking to the assistant',
  help: 'What the bot can do',
  new: 'Start a fresh conversation',
  status: 'Session, model and prompt-cache status',
  usage: 'Token usage of this conversation and in total',
  stop: 'Cancel the answer being written',
} as const satisfies Record<ChatCommandName, string>;

export type ChatCommand = keyof typeof CHAT_COMMANDS;

/**
 * The commands on the platforms that are no doors: the terminal reads its next line only after the
 * answer, so `/stop` can never reach a running turn there; `/start` is Telegram's alone.
 */
const OPERATOR_COMMANDS: Partial<Record<PlatformId, readonly ChatCommand[]>> = {
  cli: ['help', 'new', 'status', 'usage'],
  cron: ['help', 'new', 'status', 'usage', 'stop'],
};

/** The commands that work on a platform (a door's definition says which it offers), in table order. */
export function commandsFor(platform: PlatformId): ChatCommand[] {
  const offered: readonly ChatCommand[] = doorOf(platform)?.commands ?? OPERATOR_COMMANDS[platform] ?? [];
  return (Object.keys(CHAT_COMMANDS) as ChatCommand[]).filter((c) => offered.includes(c));
}

/** `new`, `status`, … (lower case, no slash): one of the core's chat commands. */
export function isChatCommand(name: string): name is ChatCommand {
  return Object.hasOwn(CHAT_COMMANDS, name);
}

export type ParsedCommand = { command: ChatCommand; args: string } | { unknown: string };

/**
 * `/new`, `/new@MyBot` and `/status extra` → the command; `/frobnicate` → unknown (answered with
 * one line, never sent to the model); anything else (`/usr/bin is …`, plain text) → null.
 */
export function parseCommand(text: string): ParsedCommand | null {
  const m = /^\/([a-z][a-z0-9_]*)(?:@[\w.-]+)?(?:\s+([\s\S]*))?$/i.exec(text.trim());
  if (!m) return null;
  const name = m[1].toLowerCase();
  if (!isChatCommand(name)) return { unknown: m[1] };
  return { command: name, args: (m[2] ?? '').trim() };
}

export function unknownCommandText(name: string): string {
  return `There is no command /${name}; /help lists the commands.`;
}

export function helpText(platform: PlatformId): string {
  const lines = commandsFor(platform).map((name) => `- \`/${name}\` — ${CHAT_COMMANDS[name]}`);
  return ['Hi! I am Switchboard, an assistant you can talk to here. Just write your question.', '', 'Commands:', ...lines].join('\n');
}

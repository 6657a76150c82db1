/** Chat commands handled by the core on every platform; they skip the session queue. */
export const CHAT_COMMANDS = {
  start: 'Start talking to the assistant',
  help: 'What the bot can do',
  new: 'Start a fresh conversation',
  status: 'Session, model and prompt-cache status',
  usage: 'Token usage of this conversation and in total',
  stop: 'Cancel the answer being written',
} as const;

export type ChatCommand = keyof typeof CHAT_COMMANDS;

/** `/new`, `/new@MyBot` and `/status extra` → the command; anything else → null. */
export function parseCommand(text: string): { command: ChatCommand; args: string } | null {
  const m = /^\/([a-z]+)(?:@[\w.-]+)?(?:\s+([\s\S]*))?$/i.exec(text.trim());
  if (!m) return null;
  const name = m[1].toLowerCase();
  if (!(name in CHAT_COMMANDS)) return null;
  return { command: name as ChatCommand, args: (m[2] ?? '').trim() };
}

export function helpText(): string {
  const lines = Object.entries(CHAT_COMMANDS).map(([name, what]) => `- \`/${name}\` — ${what}`);
  return ['Hi! I am Switchboard, an assistant you can talk to here. Just write your question.', '', 'Commands:', ...lines].join('\n');
}

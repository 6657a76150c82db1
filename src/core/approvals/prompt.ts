/**
 * The approval prompt (ARCHITECTURE.md §16): the tool, its server, the arguments (pretty, cut) and why it is
 * asked, as Markdown the renderer turns into each platform's format. The buttons are the door's.
 */
import type { PlatformId } from '../../platform/ids.js';

const MAX_ARGS = 1200;

/** Arguments as indented JSON, cut to a readable size (the model's text when it is not JSON). */
export function prettyArgs(args: string): string {
  let text: string;
  try {
    text = JSON.stringify(JSON.parse(args || '{}'), null, 2);
  } catch {
    text = args;
  }
  return text.length > MAX_ARGS ? `${text.slice(0, MAX_ARGS)}\n… (${text.length - MAX_ARGS} more characters)` : text;
}

export interface PromptFacts {
  tool: string;
  server: string | null;
  args: string;
  reason: string;
  code: string;
  timeoutMinutes: number;
  platform: PlatformId;
}

function minutes(m: number): string {
  if (m < 1) return `${Math.max(1, Math.round(m * 60))} seconds`;
  return m === 1 ? '1 minute' : `${Math.round(m)} minutes`;
}

export function approvalPrompt(f: PromptFacts): string {
  const where = f.server ? `\`${f.tool}\` of the MCP server \`${f.server}\`` : `\`${f.tool}\` (built in)`;
  const how =
    f.platform === 'email'
      ? `Reply with \`approve ${f.code}\` or \`deny ${f.code}\``
      : f.platform === 'cli'
        ? 'Answer y or N'
        : 'Approve or Deny';
  return [
    `**Approval needed:** the agent wants to run ${where} with:`,
    '```json',
    prettyArgs(f.args).replace(/```/g, '`\u200b``'),
    '```',
    `Why I ask: ${f.reason}.`,
    `${how} within ${minutes(f.timeoutMinutes)}; no answer means no.`,
  ].join('\n');
}

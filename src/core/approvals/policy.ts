/**
 * When a tool call needs a person's yes (ARCHITECTURE.md §16, §17): the operator listed the tool under
 * an MCP server's `approve:` (`needsApproval`), or the turn is tainted and the call acts outside the
 * conversation (`actsOutside`) — whatever the config says for clean turns.
 */
import type { Tool, ToolContext } from '../tools/types.js';

/** Whether this call changes something outside the conversation. */
export function actsOutside(tool: Tool, args: unknown, ctx: ToolContext): boolean {
  const flag = tool.actsOutside;
  return typeof flag === 'function' ? flag(args, ctx) : flag === true;
}

/** Why this call needs a yes, as the person is told; null when it needs none. */
export function approvalReason(tool: Tool, args: unknown, ctx: ToolContext): string | null {
  if (ctx.taint?.tainted && actsOutside(tool, args, ctx)) return ctx.taint.describe();
  if (tool.needsApproval) return `the operator asks before ${tool.name}`;
  return null;
}

/** The MCP server of a tool named `<server>__<tool>`; null for a built-in one. */
export function serverOf(toolName: string): string | null {
  const at = toolName.indexOf('__');
  return at > 0 ? toolName.slice(0, at) : null;
}

/** What a scheduled run is told instead of running a call that needs a yes (nobody is there to ask). */
export const UNATTENDED_DENIAL = 'denied: a scheduled run cannot ask for approval';
/** What the model is told when the person said no, or nobody answered in time. */
export const DENIED_BY_USER = 'denied by the user: the call was not made';
export const NO_ANSWER = 'no answer in time: the approval expired and the call was not made';
/** A call approved, started and cut by a crash: it may or may not have happened, and is never started twice. */
export const INTERRUPTED = 'Error: the approved call was interrupted (the gateway restarted while it ran); it may or may not have taken effect, and it was not run again.';
/**
 * The person wrote a new message instead of answering (ARCHITECTURE.md §16): the approval is closed, the
 * call not made, the paused turn ends with this, and the new message is answered next with it in history.
 */
export const NOT_ANSWERED = 'not answered: the user sent a new message instead, so the call was not made (their message is answered next)';
/** `answeredBy` of an approval closed that way. */
export const SUPERSEDED = 'new-message';
/** What the prompt then says instead of its buttons. */
export const SUPERSEDED_TEXT = 'Not answered: a new message came, so the call was not made.';
/**
 * `/stop` while the session's turn waits for a yes: the approval is closed, the call not made, and the
 * paused turn ends at once with "Stopped." and no model request (the model's calls are told this).
 */
export const STOPPED = 'stop-command';
export const STOPPED_TEXT = 'Stopped: the call was not made.';
export const STOPPED_RESULT = 'stopped by the user (/stop): the call was not made';
/** `/new` while a turn waits for a yes: the approval is closed and the paused turn dropped with its conversation. */
export const NEW_CONVERSATION = 'new-command';
export const NEW_CONVERSATION_TEXT = 'Not made: a new conversation was started.';

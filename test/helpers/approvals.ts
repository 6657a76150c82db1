/**
 * A model script for approval tests: a turn that reads another session (session_search, which taints
 * it) and then writes memory (acts outside the conversation), so the write needs a person's yes without
 * any MCP server. "SAVE <word>" starts it; the model then reports what the memory tool said.
 */
import { lastUserText, type FakeReply, type RecordedRequest, type Script } from '../fakes/model.js';

interface OpenAiMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
}

/** The last message of a request and, for a tool result, the tool's name. */
export function lastMessage(req: RecordedRequest): { role: string; content: string; tool?: string } {
  const messages = (req.body.messages ?? []) as OpenAiMessage[];
  const last = messages[messages.length - 1];
  const content = typeof last.content === 'string' ? last.content : JSON.stringify(last.content ?? '');
  if (last.role !== 'tool') return { role: last.role, content };
  const call = messages.flatMap((m) => m.tool_calls ?? []).find((c) => c.id === last.tool_call_id);
  return { role: 'tool', content, tool: call?.function.name };
}

/** The tool results a request carries, by tool name, in order. */
export function toolResults(req: RecordedRequest, name: string): string[] {
  const messages = (req.body.messages ?? []) as OpenAiMessage[];
  const names = new Map(messages.flatMap((m) => m.tool_calls ?? []).map((c) => [c.id, c.function.name]));
  return messages.filter((m) => m.role === 'tool' && names.get(m.tool_call_id ?? '') === name).map((m) => String(m.content));
}

export const approvalScript: Script = (req): FakeReply => {
  const last = lastMessage(req);
  if (last.role === 'tool' && last.tool === 'session_search') {
    const word = /SAVE (\w+)/.exec(lastUserText(req))?.[1] ?? 'nothing';
    return { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'memory', content: `The code word is ${word}.` } }] };
  }
  if (last.role === 'tool' && last.tool === 'memory') return { text: `Memory tool said: ${last.content}` };
  const save = /SAVE (\w+)/.exec(lastUserText(req));
  // "code word": found in an earlier session the test set up, so the turn is tainted.
  if (save) return { toolCalls: [{ name: 'session_search', arguments: { query: 'code word' } }] };
  return { text: `Noted: ${lastUserText(req)}` };
};

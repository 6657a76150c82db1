/**
 * The memory flush before compression: one model request with the session's own prompt and history
 * plus an ephemeral instruction to save durable facts with the `memory` tool, whose calls are run.
 * Nothing of this exchange is stored in the history; what was worth keeping is now in memory.
 */
import type { ChatMessage, Usage } from '../messages.js';
import { ZERO_USAGE } from '../messages.js';
import type { ModelRequest, Provider } from '../providers/provider.js';
import type { SessionRecord } from '../store/types.js';
import { ToolRegistry } from '../tools/registry.js';
import type { Tool, ToolContext } from '../tools/types.js';
import { oneLine } from '../errors.js';

export const MEMORY_TOOL = 'memory';

export const FLUSH_INSTRUCTION =
  'The older part of this conversation is about to be compressed into a short summary, and its details will be gone. ' +
  'Before that happens, save what is worth keeping across conversations with the `memory` tool: durable facts about the person ' +
  '(target "user": name, preferences, circumstances) and lasting notes for yourself (target "memory": decisions, conventions, ongoing work). ' +
  'Save only what is not already in memory, one fact per call, briefly. If nothing is worth saving, answer "nothing to save" without calling tools. ' +
  'Do not answer the person now; only use the memory tool.';

export interface FlushResult {
  /** Memory tool calls that were run, with their results. */
  saved: Array<{ arguments: string; result: string }>;
  usage: Usage;
  requests: number;
}

/**
 * The tools a turn of this session offers, in the same order, so the flush request shares the
 * session's cached prefix: the list whose signature the session was built with (a cron session
 * lacks the tools that wait for a human), else all of them.
 */
export function sessionTools(tools: readonly Tool[], session: SessionRecord): Tool[] {
  const attended = [...tools];
  const unattended = tools.filter((t) => !t.waitsForHuman);
  const match = [attended, unattended].find((list) => ToolRegistry.signature(list) === session.toolsSignature);
  return match ?? (session.platform === 'cron' ? unattended : attended);
}

async function runMemoryCall(tool: Tool, rawArgs: string, ctx: ToolContext): Promise<string> {
  let args: unknown;
  try {
    args = JSON.parse(rawArgs || '{}');
  } catch {
    return `Error: the arguments for ${tool.name} are not valid JSON.`;
  }
  try {
    return await tool.run(args, ctx);
  } catch (error) {
    return `Error: ${oneLine(error)}`;
  }
}

/**
 * Runs the flush turn. Only `memory` calls are run; any other tool call is ignored (it would act on
 * the world while nobody asked for anything). Without a memory tool there is nothing to flush into.
 */
export async function flushMemory(deps: {
  provider: Provider;
  model: string;
  maxOutputTokens: number;
  session: SessionRecord;
  history: ChatMessage[];
  tools: readonly Tool[];
  ctx: ToolContext;
}): Promise<FlushResult> {
  const offered = sessionTools(deps.tools, deps.session);
  const memory = offered.find((t) => t.name === MEMORY_TOOL);
  if (!memory) return { saved: [], usage: ZERO_USAGE, requests: 0 };
  const request: ModelRequest = {
    model: deps.model,
    system: deps.session.promptLayers,
    messages: deps.history,
    tail: FLUSH_INSTRUCTION,
    tools: ToolRegistry.specs(offered),
    maxOutputTokens: deps.maxOutputTokens,
    signal: deps.ctx.signal,
  };
  const response = await deps.provider.complete(request);
  const saved: FlushResult['saved'] = [];
  for (const call of response.toolCalls) {
    if (call.name !== MEMORY_TOOL) continue;
    saved.push({ arguments: call.arguments, result: await runMemoryCall(memory, call.arguments, deps.ctx) });
  }
  return { saved, usage: response.usage, requests: 1 };
}

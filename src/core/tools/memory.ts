/**
 * The `memory` tool (ARCHITECTURE.md §7b): add, replace or remove one entry of this person's MEMORY.md
 * (target `memory`, the agent's notes) or USER.md (target `user`, the person's profile). Writes are
 * stored at once (`store.memory`) and show in the next session's prompt. The person comes from the
 * ToolContext, never from the arguments, so a model cannot be talked into another person's folder.
 */
import { z } from 'zod';
import { applyMemoryEdit } from '../memory/edit.js';
import type { Guard } from '../guard.js';
import type { Tool, ToolContext } from './types.js';
import { defineTool } from './args.js';

const argsSchema = z
  .object({
    action: z.enum(['add', 'replace', 'remove']),
    target: z.enum(['memory', 'user']),
    content: z.string().max(10_000).nullish(),
    old_text: z.string().max(10_000).nullish(),
  })
  .superRefine((a, ctx) => {
    if (a.action !== 'remove' && !a.content?.trim()) ctx.addIssue({ code: 'custom', path: ['content'], message: `${a.action} needs the entry text` });
    if (a.action !== 'add' && !a.old_text?.trim())
      ctx.addIssue({ code: 'custom', path: ['old_text'], message: `${a.action} needs a unique part of the existing entry` });
  });

const PARAMETERS: Record<string, unknown> = {
  type: 'object',
  properties: {
    action: { type: 'string', enum: ['add', 'replace', 'remove'], description: 'add a new entry, replace an entry, or remove one.' },
    target: {
      type: 'string',
      enum: ['memory', 'user'],
      description: '"user": facts about this person and how they like to be answered (USER.md). "memory": your own notes (MEMORY.md).',
    },
    content: { type: 'string', description: 'The entry text (add, replace): one short, self-contained fact.' },
    old_text: { type: 'string', description: 'replace/remove: a part of the existing entry that matches exactly one entry.' },
  },
  required: ['action', 'target'],
  additionalProperties: false,
};

/** The memory tool; `guard` scans each entry before it is stored. */
export const createMemoryTool = (guard: Guard): Tool =>
  defineTool({
    name: 'memory',
    description:
      "Edit this person's long-term memory: your notes (target memory) or their profile (target user). Saved at once; shows in the next conversation. Each file has a size limit; a write past it is refused with the room left.",
    parameters: PARAMETERS,
    schema: argsSchema,
    // Every action writes what the next session's prompt will hold (§17: needs a yes in a tainted turn).
    actsOutside: true,
    async run(args, ctx: ToolContext): Promise<string> {
      const a = args;
      const result = await applyMemoryEdit(
        { memory: ctx.store.memory, personKey: ctx.personKey, limits: ctx.settings.config.limits, logger: ctx.logger, guard },
        { action: a.action, target: a.target, content: a.content ?? undefined, oldText: a.old_text ?? undefined },
      );
      if (result.ok) ctx.logger.info('memory', `${ctx.personKey}: ${a.action} ${a.target} (${result.status})`);
      return result.message;
    },
  });

/**
 * Approval prompts on Discord (ARCHITECTURE.md §16): the prompt's last chunk carries two message buttons, and a
 * press arrives as a component interaction (INTERACTION_CREATE, type 3) over the gateway, decoded here
 * with zod into an InboundAction. The door acknowledges it with the interaction callback: UPDATE_MESSAGE
 * (the prompt edited, buttons gone) once the press decided, else an ephemeral one-line reply.
 */
import { z } from 'zod';
import { InteractionResponseType, InteractionType, MessageFlags, Routes } from 'discord-api-types/v10';
import type { REST } from './rest.js';
import type { ActionOutcome, InboundAction } from '../../core/types.js';
import { approvalButtonData, APPROVE_LABEL, DENY_LABEL, parseApprovalButton } from '../../core/approvals/buttons.js';
import type { RawInteraction } from './guard.js';

/** Button styles: 3 success (green), 4 danger (red). */
export function approvalComponents(approvalId: string): Array<Record<string, unknown>> {
  return [
    {
      type: 1,
      components: [
        { type: 2, style: 3, label: APPROVE_LABEL, custom_id: approvalButtonData(approvalId, 'approve') },
        { type: 2, style: 4, label: DENY_LABEL, custom_id: approvalButtonData(approvalId, 'deny') },
      ],
    },
  ];
}

export function isComponentInteraction(i: RawInteraction): boolean {
  return i.type === InteractionType.MessageComponent;
}

const componentSchema = z.looseObject({
  data: z.looseObject({ custom_id: z.string() }),
  channel_id: z.string().optional(),
  user: z.looseObject({ id: z.string(), username: z.string().optional() }).optional(),
  member: z.looseObject({ user: z.looseObject({ id: z.string(), username: z.string().optional() }).optional() }).optional(),
  message: z.looseObject({ id: z.string(), content: z.string().optional() }).optional(),
});

export function toInboundAction(i: RawInteraction): { action: InboundAction; content?: string } | null {
  const parsed = componentSchema.safeParse(i);
  if (!parsed.success) return null;
  const button = parseApprovalButton(parsed.data.data.custom_id);
  const who = parsed.data.member?.user ?? parsed.data.user;
  if (!button || !who) return null;
  return {
    action: {
      platform: 'discord',
      approvalId: button.approvalId,
      decision: button.decision,
      userId: who.id,
      chatId: parsed.data.channel_id ?? '',
      actionId: i.id,
      ...(who.username ? { displayName: `@${who.username}` } : {}),
    },
    ...(parsed.data.message?.content !== undefined ? { content: parsed.data.message.content } : {}),
  };
}

/** Answers the press within Discord's 3 s: the prompt updated (decided), or one ephemeral line. */
export async function answerPress(rest: REST, i: RawInteraction, outcome: ActionOutcome, content: string | undefined): Promise<void> {
  const body = outcome.resolved
    ? {
        type: InteractionResponseType.UpdateMessage,
        // The prompt shows the model's arguments: no embed is fetched for a URL among them (§17).
        data: {
          content: `${content ?? ''}\n\n**${outcome.resolved}**`.trim().slice(0, 2000),
          components: [],
          allowed_mentions: { parse: [] as string[] },
          flags: MessageFlags.SuppressEmbeds,
        },
      }
    : { type: InteractionResponseType.ChannelMessageWithSource, data: { content: outcome.text, flags: MessageFlags.Ephemeral | MessageFlags.SuppressEmbeds, allowed_mentions: { parse: [] as string[] } } };
  await rest.post(Routes.interactionCallback(i.id, i.token), { body, auth: false });
}

/**
 * Approval prompts on Slack (ARCHITECTURE.md §16): the prompt's last chunk carries Block Kit buttons, and a
 * press comes back as a `block_actions` interaction (signed over HTTP, or over Socket Mode), decoded here
 * with zod into an InboundAction. What the press means is the core's decision.
 */
import { z } from 'zod';
import type { InboundAction } from '../../core/types.js';
import { approvalButtonData, APPROVE_LABEL, DENY_LABEL, parseApprovalButton } from '../../core/approvals/buttons.js';

/** The action ids of the two buttons; Bolt routes presses on them to the door. */
export const APPROVAL_ACTION_IDS = /^sb_approval_(approve|deny)$/;
const SECTION_MAX = 3000;

export function approvalBlocks(text: string, approvalId: string): Array<Record<string, unknown>> {
  return [
    { type: 'section', text: { type: 'mrkdwn', text: text.length > SECTION_MAX ? `${text.slice(0, SECTION_MAX - 1)}…` : text } },
    {
      type: 'actions',
      block_id: 'sb_approval',
      elements: [
        { type: 'button', action_id: 'sb_approval_approve', style: 'primary', text: { type: 'plain_text', text: APPROVE_LABEL }, value: approvalButtonData(approvalId, 'approve') },
        { type: 'button', action_id: 'sb_approval_deny', style: 'danger', text: { type: 'plain_text', text: DENY_LABEL }, value: approvalButtonData(approvalId, 'deny') },
      ],
    },
  ];
}

const blockActionsSchema = z.looseObject({
  type: z.literal('block_actions'),
  user: z.looseObject({ id: z.string().min(1), username: z.string().optional(), name: z.string().optional() }),
  channel: z.looseObject({ id: z.string().min(1) }).optional(),
  container: z.looseObject({ channel_id: z.string().optional(), message_ts: z.string().optional() }).optional(),
  message: z.looseObject({ text: z.string().optional(), ts: z.string().optional() }).optional(),
  response_url: z.string().url().optional(),
  actions: z.array(z.looseObject({ action_id: z.string(), value: z.string().optional(), action_ts: z.string().optional() })).min(1),
});

export type DecodedAction =
  | { ok: true; action: InboundAction; responseUrl?: string; messageText?: string }
  | { ok: false; reason: string };

export function decodeBlockAction(body: unknown): DecodedAction {
  const parsed = blockActionsSchema.safeParse(body);
  if (!parsed.success) return { ok: false, reason: `malformed block_actions: ${parsed.error.issues[0]?.message ?? 'invalid'}` };
  const b = parsed.data;
  const pressed = b.actions[0];
  const button = pressed.value === undefined ? null : parseApprovalButton(pressed.value);
  if (!button) return { ok: false, reason: `block action ${pressed.action_id} is not an approval button` };
  const name = b.user.username ?? b.user.name;
  return {
    ok: true,
    action: {
      platform: 'slack',
      approvalId: button.approvalId,
      decision: button.decision,
      userId: b.user.id,
      chatId: b.channel?.id ?? b.container?.channel_id ?? '',
      actionId: pressed.action_ts ?? b.container?.message_ts ?? '',
      ...(name ? { displayName: `@${name}` } : {}),
    },
    ...(b.response_url ? { responseUrl: b.response_url } : {}),
    ...(b.message?.text ? { messageText: b.message.text } : {}),
  };
}

/** A closed prompt (ARCHITECTURE.md §16): its text with the closing line in bold, one section, no buttons. */
export function closedPrompt(promptText: string, line: string): { text: string; blocks: Array<Record<string, unknown>> } {
  const text = `${promptText}\n\n*${line}*`;
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: text.length > SECTION_MAX ? `${text.slice(0, SECTION_MAX - 1)}…` : text } }] };
}

/**
 * Telegram `callback_query` → InboundAction (ARCHITECTURE.md §16): a press on an approval prompt's inline
 * keyboard. Pure and validated with zod; what the press means is the core's decision. The door then
 * answers the query (the presser's one-line toast) and removes the keyboard once the press decided.
 */
import { z } from 'zod';
import type { InboundAction } from '../../core/types.js';
import { parseApprovalButton } from '../../core/approvals/buttons.js';
import type { Api } from 'grammy/web';
import type { TelegramPromptRef } from './send.js';

const callbackSchema = z.looseObject({
  update_id: z.number().int().min(0),
  callback_query: z.looseObject({
    id: z.string().min(1),
    from: z.looseObject({ id: z.number().int(), username: z.string().optional(), first_name: z.string().optional() }),
    data: z.string().optional(),
    message: z.looseObject({ message_id: z.number().int(), chat: z.looseObject({ id: z.number().int() }) }).optional(),
  }),
});

export type CallbackResult =
  | { kind: 'action'; action: InboundAction; queryId: string; message?: { chatId: number; messageId: number } }
  /** A press that is no approval button (or an update without a query): answered, nothing else. */
  | { kind: 'other'; queryId?: string; reason: string };

export function isCallbackQuery(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && 'callback_query' in raw;
}

export function toInboundAction(raw: unknown): CallbackResult {
  const parsed = callbackSchema.safeParse(raw);
  if (!parsed.success) return { kind: 'other', reason: `malformed callback_query: ${parsed.error.issues[0]?.message ?? 'invalid'}` };
  const q = parsed.data.callback_query;
  const button = q.data === undefined ? null : parseApprovalButton(q.data);
  if (!button) return { kind: 'other', queryId: q.id, reason: 'not an approval button' };
  const name = q.from.username ? `@${q.from.username}` : q.from.first_name;
  return {
    kind: 'action',
    queryId: q.id,
    action: {
      platform: 'telegram',
      approvalId: button.approvalId,
      decision: button.decision,
      userId: String(q.from.id),
      chatId: String(q.message?.chat.id ?? q.from.id),
      actionId: q.id,
      ...(name ? { displayName: name } : {}),
    },
    ...(q.message ? { message: { chatId: q.message.chat.id, messageId: q.message.message_id } } : {}),
  };
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The prompt closed without a press on it (ARCHITECTURE.md §16): its text gains `text` in bold and the
 * keyboard goes (one editMessageText). When the text cannot be edited (too long with the line, or HTML
 * Telegram refuses now), the keyboard alone is removed.
 */
export async function closeTelegramPrompt(api: Api, ref: TelegramPromptRef, text: string): Promise<void> {
  const noKeyboard = { inline_keyboard: [] };
  try {
    await api.editMessageText(ref.chatId, ref.messageId, `${ref.html}\n\n<b>${escapeHtml(text)}</b>`, {
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
      reply_markup: noKeyboard,
    });
  } catch {
    await api.editMessageReplyMarkup(ref.chatId, ref.messageId, { reply_markup: noKeyboard });
  }
}

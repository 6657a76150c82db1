/** An inbound Telegram DM as the store journals it (fixed ids and time), for the store and core tests. */
import type { InboundMessage } from '../../src/core/types.js';

export function storedInbound(updateId: string, userId = '1001', at: number): InboundMessage {
  return {
    platform: 'telegram',
    chatId: userId,
    userId,
    text: `hello ${updateId}`,
    isDirect: true,
    mentionsBot: false,
    isReplyToBot: false,
    messageId: updateId,
    updateId,
    receivedAt: new Date(at),
    replyTarget: { platform: 'telegram', chatId: userId },
  };
}

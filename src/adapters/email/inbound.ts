/**
 * A parsed mail as the gateway's InboundMessage (ARCHITECTURE.md §11): user = the sender's address, chat =
 * the thread root (the first Message-ID of `References`, else its own), so a reply in the thread
 * continues the session; the reply goes to Reply-To or From with the threading headers in
 * `replyTarget.extra` (compose.ts writes them). The Message-ID is the dedup key.
 */
import type { AttachmentKind, InboundAttachment, InboundMessage } from '../../core/types.js';
import { replySubject, type InboundMail, type MailAttachment } from './parse.js';

/** `extra` keys compose.ts reads on an e-mail reply. */
export const THREAD_KEYS = { inReplyTo: 'inReplyTo', references: 'references', subject: 'subject' } as const;

/** What the declared type says a part is (the core sniffs the bytes and decides). */
function kindOf(type: string): AttachmentKind {
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('video/')) return 'video';
  return 'file';
}

/**
 * A mail's file parts as attachments: the ref is the SHA-256 of the bytes the door keeps
 * (attachments.ts); a part over the byte limit has none and is refused by its declared size.
 */
export function attachmentsOf(parts: readonly MailAttachment[]): InboundAttachment[] {
  return parts.map((p) => ({ kind: kindOf(p.type), name: p.name, declaredMime: p.type, declaredSize: p.bytes, ref: p.sha256 ?? 'not-kept' }));
}

/**
 * `fallbackId` names a mail without a Message-ID (`<uidvalidity.uid@imap.mailbox>`), so it is still
 * journaled once.
 */
export function toInboundMessage(mail: InboundMail, fallbackId: string, receivedAt: Date): InboundMessage {
  const messageId = mail.messageId ?? fallbackId;
  const root = mail.references[0] ?? messageId;
  const isReply = mail.references.length > 0 || mail.inReplyTo !== undefined;
  // The subject is the person's own words too; on a reply it only repeats the thread's.
  // A new mail may say everything in its subject line.
  const text = !isReply && mail.subject ? `Subject: ${mail.subject}${mail.text ? `\n\n${mail.text}` : ''}` : mail.text;
  const references = [...mail.references.filter((r) => r !== messageId), ...(mail.messageId ? [mail.messageId] : [])];
  const extra: Record<string, string> = { [THREAD_KEYS.subject]: replySubject(mail.subject) };
  if (mail.messageId) extra[THREAD_KEYS.inReplyTo] = mail.messageId;
  if (references.length) extra[THREAD_KEYS.references] = references.join(' ');
  return {
    platform: 'email',
    chatId: root,
    userId: mail.from,
    displayName: mail.fromName,
    text,
    // A mail to the bot's address is a one-to-one conversation; nobody @-mentions in mail.
    isDirect: true,
    mentionsBot: false,
    isReplyToBot: false,
    messageId,
    updateId: messageId,
    receivedAt,
    replyTarget: { platform: 'email', chatId: mail.replyTo || mail.from, userId: mail.from, extra },
    // A forwarded message is kept in `text` (it is what the person wants read) and reported here.
    ...(mail.quoted ? { quoted: mail.quoted } : {}),
    ...(mail.attachments.length ? { attachments: attachmentsOf(mail.attachments) } : {}),
  };
}

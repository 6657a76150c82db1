/** Raw RFC 822 messages for inbound e-mail tests (put into Dovecot with APPEND, or parsed directly). */
export interface MailSpec {
  from: string;
  to?: string;
  subject?: string;
  messageId?: string | null;
  inReplyTo?: string;
  references?: string[];
  replyTo?: string;
  date?: Date;
  /** Extra header lines, e.g. `Auto-Submitted: auto-replied`. */
  headers?: string[];
  text?: string;
  html?: string;
  /** Files attached (multipart/mixed, base64). */
  attachments?: Array<{ name: string; type: string; data: Buffer }>;
}

/** A message with a text/plain body, an HTML-only body, or both (multipart/alternative). */
export function rawMail(spec: MailSpec): string {
  const lines = [
    `From: ${spec.from}`,
    `To: ${spec.to ?? 'Switchboard <bot@example.com>'}`,
    `Subject: ${spec.subject ?? 'Hello'}`,
    `Date: ${(spec.date ?? new Date()).toUTCString()}`,
    ...(spec.messageId === null ? [] : [`Message-ID: ${spec.messageId ?? `<${Math.random().toString(36).slice(2)}@example.com>`}`]),
    ...(spec.inReplyTo ? [`In-Reply-To: ${spec.inReplyTo}`] : []),
    ...(spec.references?.length ? [`References: ${spec.references.join(' ')}`] : []),
    ...(spec.replyTo ? [`Reply-To: ${spec.replyTo}`] : []),
    ...(spec.headers ?? []),
    'MIME-Version: 1.0',
  ];
  if (spec.attachments?.length) {
    const b = 'b-mixed-1';
    lines.push(`Content-Type: multipart/mixed; boundary="${b}"`, '', `--${b}`, 'Content-Type: text/plain; charset=utf-8', '', spec.text ?? '');
    for (const a of spec.attachments) {
      lines.push(`--${b}`, `Content-Type: ${a.type}; name="${a.name}"`, `Content-Disposition: attachment; filename="${a.name}"`, 'Content-Transfer-Encoding: base64', '', a.data.toString('base64').replace(/.{76}/g, '$&\n'));
    }
    lines.push(`--${b}--`);
    return lines.join('\r\n').replace(/(?<!\r)\n/g, '\r\n') + '\r\n';
  }
  const text = spec.text ?? (spec.html === undefined ? 'Hi' : undefined);
  if (text !== undefined && spec.html !== undefined) {
    const b = 'b-alt-1';
    lines.push(`Content-Type: multipart/alternative; boundary="${b}"`, '', `--${b}`, 'Content-Type: text/plain; charset=utf-8', '', text, `--${b}`, 'Content-Type: text/html; charset=utf-8', '', spec.html, `--${b}--`);
  } else if (spec.html !== undefined) {
    lines.push('Content-Type: text/html; charset=utf-8', '', spec.html);
  } else {
    lines.push('Content-Type: text/plain; charset=utf-8', '', text ?? '');
  }
  return lines.join('\r\n').replace(/(?<!\r)\n/g, '\r\n') + '\r\n';
}

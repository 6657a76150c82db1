/**
 * Mail no person wrote to the bot, which is never answered (ARCHITECTURE.md §11): auto-replies, bulk and
 * list mail, bounces, our own mail coming back (a loop), and mail whose From domain failed DMARC or
 * SPF (forged). Like the other doors ignoring bots, this is the door telling machine traffic from a
 * person; who may talk at all is the core's allow-list.
 */
import type { InboundMail } from './parse.js';

/** `Name <me@example.com>` or `me@example.com` → `me@example.com` (lower-cased). */
export function addressOf(from: string): string {
  const angled = /<([^<>\s]+@[^<>\s]+)>/.exec(from);
  return (angled ? angled[1] : from.trim()).toLowerCase();
}

const BOUNCE_SENDERS = /^(mailer-daemon|postmaster|mail-daemon)$/i;
const BULK_PRECEDENCE = /^(bulk|junk|list)$/i;

function domainPart(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/** `example.com` is `example.com` or a subdomain of it (DMARC's relaxed alignment). */
function aligned(domain: string, fromDomain: string): boolean {
  return domain === fromDomain || domain.endsWith(`.${fromDomain}`) || fromDomain.endsWith(`.${domain}`);
}

/** A `method=fail` in an Authentication-Results header that is about the From domain. */
function failedFor(header: string, method: 'dmarc' | 'spf', fromDomain: string): boolean {
  // Results are `;`-separated: `mx.example.net; spf=fail smtp.mailfrom=bob@example.com; dmarc=fail header.from=example.com`
  for (const part of header.split(';')) {
    const result = new RegExp(`(?:^|\\s)${method}\\s*=\\s*fail\\b`, 'i').exec(part);
    if (!result) continue;
    const props = [...part.matchAll(/\b(header\.from|smtp\.mailfrom|smtp\.helo|header\.d)\s*=\s*"?([^\s;"]+)"?/gi)].map((m) => m[2]);
    // A result that names no domain is taken to be about this mail's sender.
    if (!props.length || props.some((p) => aligned(domainPart(p), fromDomain))) return true;
  }
  return false;
}

/** Why this mail is not answered, or null when a person may have written it. */
export function screenMail(mail: InboundMail, ownFrom: string): string | null {
  if (!mail.from) return 'no sender address';
  const own = addressOf(ownFrom);
  if (mail.from === own || mail.replyTo === own) return `sent from our own address ${own} (no loops)`;
  const local = mail.from.slice(0, mail.from.lastIndexOf('@'));
  if (BOUNCE_SENDERS.test(local)) return `sent by ${local} (a bounce or server notice)`;
  const auto = mail.headers.autoSubmitted?.split(';')[0].trim().toLowerCase();
  if (auto && auto !== 'no') return `Auto-Submitted: ${auto} (an automatic message)`;
  if (mail.headers.autoReplyMarkers.length) return `${mail.headers.autoReplyMarkers[0]} header (an auto-reply)`;
  const precedence = mail.headers.precedence?.trim();
  if (precedence && BULK_PRECEDENCE.test(precedence)) return `Precedence: ${precedence.toLowerCase()} (bulk or list mail)`;
  if (mail.headers.listId) return `List-Id ${mail.headers.listId} (mailing-list mail)`;
  const fromDomain = domainPart(mail.from);
  for (const method of ['dmarc', 'spf'] as const) {
    if (mail.headers.authenticationResults.some((h) => failedFor(h, method, fromDomain))) return `${method}=fail for ${fromDomain} (forged sender)`;
  }
  return null;
}

/**
 * E-mail text/plain body: reads well in any client, with no Markdown punctuation left
 * (see plain-text.ts for the dialect). One part, no length limit.
 */
import type { Root } from 'mdast';
import { PLATFORM_FORMATS } from '../platform/formats.js';
import { PlainTextSerializer } from './plain-text.js';
import type { Token } from './tokens.js';

/** E-mail bodies are not split (the platform table's limit). */
export const EMAIL_MESSAGE_LIMIT = PLATFORM_FORMATS.email.messageLimit;
/** Plain-text mail is read in ~72–80 columns; wider tables become records. */
export const EMAIL_TABLE_MAX_WIDTH = 78;

export function emailTextTokens(root: Root): Token[] {
  return new PlainTextSerializer({ ansi: false, tableMaxWidth: EMAIL_TABLE_MAX_WIDTH }).serialize(root);
}

/**
 * Terminal text (the `cli` platform): the plain-text dialect (plain-text.ts), with ANSI bold,
 * italics and cyan code only when asked for (stdout is a TTY); no colours otherwise.
 */
import type { Root } from 'mdast';
import { PLATFORM_FORMATS } from '../platform/formats.js';
import { PlainTextSerializer } from './plain-text.js';
import type { Token } from './tokens.js';

/** The terminal takes any length (the platform table's limit). */
export const TERMINAL_MESSAGE_LIMIT = PLATFORM_FORMATS.cli.messageLimit;
export const TERMINAL_TABLE_MAX_WIDTH = 100;

export function terminalTokens(root: Root, color = false): Token[] {
  return new PlainTextSerializer({ ansi: color, tableMaxWidth: TERMINAL_TABLE_MAX_WIDTH }).serialize(root);
}

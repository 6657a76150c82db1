/**
 * The facts of the platform table (ARCHITECTURE.md §6): per platform, the format its answers are rendered
 * in, the message size limit and how the platform counts it, and what a door can carry. Like
 * ids.ts this is the bottom layer: the renderer reads formats and limits from here and the core's
 * PLATFORM_HINTS adds the hint texts to these entries, so neither has to import the other to agree.
 */
import type { PlatformId } from './ids.js';

/** Output formats the renderer knows. `target` (cron) means: the delivery target's format. */
export type RenderFormat = 'telegram-html' | 'slack-mrkdwn' | 'discord-markdown' | 'email-text' | 'terminal' | 'target';

/** How a platform counts message length: UTF-16 code units (what `.length` counts) or code points. */
export type LengthUnit = 'utf16' | 'codepoint';

/** One platform's entry. */
export interface PlatformFormat {
  readonly platform: PlatformId;
  /** Render format of answers on this platform. */
  readonly format: RenderFormat;
  /** Max characters per message (null = no limit), counted in `unit`. */
  readonly messageLimit: number | null;
  readonly unit: LengthUnit;
  /** A human is present who can answer a question. */
  readonly canAskQuestions: boolean;
  /** Media (images, files) can be sent. */
  readonly canSendMedia: boolean;
}

/**
 * One entry per platform. `as const` keeps the literal values, so a renderer's named limit is the
 * number itself (TELEGRAM_MESSAGE_LIMIT is 4096, not number | null); the mapped type checks that
 * every key's entry names its own platform.
 */
export const PLATFORM_FORMATS = {
  // Bot API: 1–4,096 characters of message text after entity parsing (tags count nothing).
  telegram: { platform: 'telegram', format: 'telegram-html', messageLimit: 4096, unit: 'utf16', canAskQuestions: true, canSendMedia: true },
  // chat.postMessage truncates `text` beyond 40,000 characters (a section block holds 3,000: the
  // renderer's SLACK_SECTION_LIMIT, as only the Slack door uses blocks).
  slack: { platform: 'slack', format: 'slack-mrkdwn', messageLimit: 40000, unit: 'utf16', canAskQuestions: true, canSendMedia: true },
  // Discord refuses content over 2,000 characters, and counts code points, not UTF-16 units.
  discord: { platform: 'discord', format: 'discord-markdown', messageLimit: 2000, unit: 'codepoint', canAskQuestions: true, canSendMedia: true },
  // An e-mail body is not split; the reader answers by replying.
  email: { platform: 'email', format: 'email-text', messageLimit: null, unit: 'codepoint', canAskQuestions: true, canSendMedia: false },
  // Nobody is present at a scheduled run; its report is rendered for the platform it is delivered to.
  cron: { platform: 'cron', format: 'target', messageLimit: null, unit: 'codepoint', canAskQuestions: false, canSendMedia: false },
  cli: { platform: 'cli', format: 'terminal', messageLimit: null, unit: 'codepoint', canAskQuestions: true, canSendMedia: false },
} as const satisfies { readonly [P in PlatformId]: PlatformFormat & { readonly platform: P } };

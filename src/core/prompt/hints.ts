import type { PlatformId } from '../../platform/ids.js';

/** Output formats the renderer knows. `target` (cron) means: the delivery target's format. */
export type RenderFormat = 'telegram-html' | 'slack-mrkdwn' | 'discord-markdown' | 'email-text' | 'terminal' | 'target';

/** How a platform counts message length. */
export type LengthUnit = 'utf16' | 'codepoint';

export interface PlatformHint {
  platform: PlatformId;
  /** Layer 6 of the system prompt. Names the platform. */
  hint: string;
  /** Render format of answers on this platform. */
  format: RenderFormat;
  /** Max characters per message (null = no limit), counted in `unit`. */
  messageLimit: number | null;
  unit: LengthUnit;
  /** A human is present who can answer a question. */
  canAskQuestions: boolean;
  /** Media (images, files) can be sent. */
  canSendMedia: boolean;
}

/**
 * PLATFORM_HINTS: one entry per platform (DESIGN §6). The core picks the entry from the message's
 * platform; the renderer reads `format` and `messageLimit` from the same entry.
 */
export const PLATFORM_HINTS: Readonly<Record<PlatformId, PlatformHint>> = {
  telegram: {
    platform: 'telegram',
    hint: [
      'You are talking on Telegram, a mobile chat app.',
      'Keep answers short and conversational: a few short paragraphs or a compact list.',
      'Use simple Markdown only (bold, italic, inline code, code blocks, links, bullet lists); avoid tables and nested lists, which do not display well on a phone.',
      'A long answer is split into several messages of at most 4,096 characters.',
    ].join(' '),
    format: 'telegram-html',
    messageLimit: 4096,
    unit: 'utf16',
    canAskQuestions: true,
    canSendMedia: true,
  },
  slack: {
    platform: 'slack',
    hint: [
      'You are talking on Slack, in a workplace channel, thread or direct message.',
      'Write concise, scannable answers: short paragraphs, bullet lists, bold for key words, inline code and code blocks for anything technical.',
      'Slack has no headings or tables: prefer bold lead-ins and lists; a table becomes a code block.',
      'Keep the whole answer under 40,000 characters.',
    ].join(' '),
    format: 'slack-mrkdwn',
    messageLimit: 40000,
    unit: 'utf16',
    canAskQuestions: true,
    canSendMedia: true,
  },
  discord: {
    platform: 'discord',
    hint: [
      'You are talking on Discord, in a direct message or a server channel.',
      'Use Discord Markdown: bold, italic, inline code, fenced code blocks, lists and short headings; Discord has no tables, so use lists or a code block instead.',
      'Each message holds at most 2,000 characters: keep answers compact; longer ones are split.',
      'Never ping anyone: do not write @everyone or @here.',
    ].join(' '),
    format: 'discord-markdown',
    messageLimit: 2000,
    unit: 'codepoint',
    canAskQuestions: true,
    canSendMedia: true,
  },
  email: {
    platform: 'email',
    hint: [
      'You are writing an e-mail (the email platform).',
      'Start with one line that would make a good subject, then plain, well-structured text: short paragraphs, simple lists, headings where they help.',
      'The reader can answer by replying to the e-mail, so questions are fine when something is really unclear.',
    ].join(' '),
    format: 'email-text',
    messageLimit: null,
    unit: 'codepoint',
    canAskQuestions: true,
    canSendMedia: false,
  },
  cron: {
    platform: 'cron',
    hint: [
      'This is a scheduled cron run: nobody is present to read questions or answer them.',
      'Never ask a question and never offer options or follow-ups; do the task with the tools you have and deliver the finished report.',
      'Start with a heading or one-line title that works as a subject, then the report in Markdown.',
      'If there is genuinely nothing to report, answer exactly [SILENT] and nothing else.',
    ].join(' '),
    format: 'target',
    messageLimit: null,
    unit: 'codepoint',
    canAskQuestions: false,
    canSendMedia: false,
  },
  cli: {
    platform: 'cli',
    hint: [
      'You are talking in a terminal (the cli platform), with the operator of this gateway.',
      'Answer in plain text with light Markdown (lists, code blocks); no tables wider than 80 columns, no images.',
    ].join(' '),
    format: 'terminal',
    messageLimit: null,
    unit: 'codepoint',
    canAskQuestions: true,
    canSendMedia: false,
  },
};

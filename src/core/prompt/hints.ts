/**
 * PLATFORM_HINTS (ARCHITECTURE.md §6): the platform table's facts (src/platform/formats.ts) plus, per
 * platform, the hint text that is layer 6 of the system prompt. The texts live here because they
 * are prompt policy; the facts live in the leaf so the renderer can read them without the core.
 */
import { PLATFORM_IDS, type PlatformId } from '../../platform/ids.js';
import { PLATFORM_FORMATS, type PlatformFormat } from '../../platform/formats.js';

export interface PlatformHint extends PlatformFormat {
  /** Layer 6 of the system prompt. Names the platform. */
  readonly hint: string;
}

/** Every hint names its platform, so the model knows where it is talking. */
const HINT_TEXTS: Readonly<Record<PlatformId, string>> = {
  telegram: [
    'You are talking on Telegram, a mobile chat app.',
    'Keep answers short and conversational: a few short paragraphs or a compact list.',
    'Use simple Markdown only (bold, italic, inline code, code blocks, links, bullet lists); avoid tables and nested lists, which do not display well on a phone.',
    'A long answer is split into several messages of at most 4,096 characters.',
  ].join(' '),
  slack: [
    'You are talking on Slack, in a workplace channel, thread or direct message.',
    'Write concise, scannable answers: short paragraphs, bullet lists, bold for key words, inline code and code blocks for anything technical.',
    'Slack has no headings or tables: prefer bold lead-ins and lists; a table becomes a code block.',
    'Keep the whole answer under 40,000 characters.',
  ].join(' '),
  discord: [
    'You are talking on Discord, in a direct message or a server channel.',
    'Use Discord Markdown: bold, italic, inline code, fenced code blocks, lists and short headings; Discord has no tables, so use lists or a code block instead.',
    'Each message holds at most 2,000 characters: keep answers compact; longer ones are split.',
    'Never ping anyone: do not write @everyone or @here.',
  ].join(' '),
  email: [
    'You are writing an e-mail (the email platform).',
    'Start with one line that would make a good subject, then plain, well-structured text: short paragraphs, simple lists, headings where they help.',
    'The reader can answer by replying to the e-mail, so questions are fine when something is really unclear.',
  ].join(' '),
  cron: [
    'This is a scheduled cron run: nobody is present to read questions or answer them.',
    'Never ask a question and never offer options or follow-ups; do the task with the tools you have and deliver the finished report.',
    'Start with a heading or one-line title that works as a subject, then the report in Markdown.',
    'If there is genuinely nothing to report, answer exactly [SILENT] and nothing else.',
  ].join(' '),
  cli: [
    'You are talking in a terminal (the cli platform), with the operator of this gateway.',
    'Answer in plain text with light Markdown (lists, code blocks); no tables wider than 80 columns, no images.',
  ].join(' '),
};

/**
 * One entry per platform. The core picks the entry from the message's platform; the renderer reads
 * the same `format` and `messageLimit` from PLATFORM_FORMATS.
 */
export const PLATFORM_HINTS: Readonly<Record<PlatformId, PlatformHint>> = Object.fromEntries(
  PLATFORM_IDS.map((platform) => [platform, { ...PLATFORM_FORMATS[platform], hint: HINT_TEXTS[platform] }]),
) as Record<PlatformId, PlatformHint>;

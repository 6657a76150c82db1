/**
 * The optional `/ask prompt:<text>` slash command (config `discord.slash_command`). The global command is
 * registered on READY with a bulk overwrite (PUT /applications/{id}/commands: idempotent, so every start may
 * do it). An interaction must be answered within 3 s: the adapter defers first (interaction callback type 5,
 * "thinking…"), then the answer completes the deferred response through the interaction webhook (see
 * send.ts); the ids it needs ride in replyTarget.extra.
 */
import type { REST } from './rest.js';
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ChannelType,
  InteractionResponseType,
  InteractionType,
  Routes,
} from 'discord-api-types/v10';
import type { InboundMessage } from '../../core/types.js';
import { isThreadType, type ChannelFacts } from './channels.js';
import type { RawInteraction } from './guard.js';
import { displayName } from './inbound.js';
import { SUPPRESS_EMBEDS } from './send.js';

export const ASK_COMMAND = 'ask';
/** Longest prompt Discord lets a string option carry. */
const PROMPT_MAX = 6000;
const NO_PINGS = { parse: [] as string[] };

export const ASK_COMMAND_BODY = {
  name: ASK_COMMAND,
  type: ApplicationCommandType.ChatInput,
  description: 'Ask the assistant',
  options: [{ name: 'prompt', description: 'What you want to ask', type: ApplicationCommandOptionType.String, required: true, max_length: PROMPT_MAX }],
  // 0 guild, 1 bot DM: usable in servers and in a DM with the bot.
  contexts: [0, 1],
};

export async function registerAskCommand(rest: REST, applicationId: string): Promise<void> {
  await rest.put(Routes.applicationCommands(applicationId), { body: [ASK_COMMAND_BODY] });
}

/** A slash command (chat input), the only interaction kind the adapter answers. */
export function isChatInputCommand(i: RawInteraction): boolean {
  return i.type === InteractionType.ApplicationCommand && (i.data?.type ?? ApplicationCommandType.ChatInput) === ApplicationCommandType.ChatInput;
}

/** Acknowledges the interaction ("thinking…"); the interaction token authenticates, not the bot token. */
export async function deferInteraction(rest: REST, i: RawInteraction): Promise<void> {
  await rest.post(Routes.interactionCallback(i.id, i.token), { body: { type: InteractionResponseType.DeferredChannelMessageWithSource }, auth: false });
}

/** Completes a deferred interaction with a short text of the adapter's own (not an answer of the agent). */
export async function completeInteraction(rest: REST, i: RawInteraction, content: string): Promise<void> {
  await rest.patch(Routes.webhookMessage(i.application_id, i.token, '@original'), { body: { content, allowed_mentions: NO_PINGS, flags: SUPPRESS_EMBEDS }, auth: false });
}

/** Translates `/ask`; null for any other command. The interaction must already be deferred. */
export function interactionToInbound(i: RawInteraction, channel: (id: string) => ChannelFacts | undefined, now: () => Date): InboundMessage | null {
  if (i.data?.name !== ASK_COMMAND) return null;
  const option = i.data.options?.find((o) => o.name === 'prompt');
  const prompt = typeof option?.value === 'string' ? option.value.trim() : '';
  if (!prompt) return null;
  const user = i.member?.user ?? i.user;
  const channelId = i.channel_id ?? i.channel?.id;
  if (!user || !channelId) return null;
  const isDirect = !i.guild_id;
  // The interaction carries its channel (kind, name, parent); the gateway's view fills what it leaves out.
  const known = channel(channelId);
  const type = i.channel?.type ?? known?.type;
  const parentId = isThreadType(type) ? (i.channel?.parent_id ?? known?.parentId) : undefined;
  const chatId = parentId ?? channelId;
  const threadId = parentId ? channelId : undefined;
  const name = i.channel?.name ?? known?.name;
  const chatTitle = !isDirect && type !== ChannelType.DM && name ? `#${name}` : undefined;
  return {
    platform: 'discord',
    chatId,
    threadId,
    userId: user.id,
    displayName: displayName(user),
    chatTitle,
    text: prompt,
    isDirect,
    mentionsBot: false,
    isReplyToBot: false,
    // An application command is the bot's own by definition.
    command: { name: i.data.name, forBot: true },
    messageId: i.id,
    updateId: i.id,
    receivedAt: now(),
    replyTarget: {
      platform: 'discord',
      chatId,
      threadId,
      userId: user.id,
      extra: { channelId, interactionToken: i.token, applicationId: i.application_id },
    },
  };
}

/**
 * The optional `/ask prompt:<text>` slash command (config `discord.slash_command`). The global command is
 * registered on READY with a bulk overwrite (PUT /applications/{id}/commands: idempotent, so every start may
 * do it). An interaction must be answered within 3 s: the adapter defers first, then the answer completes
 * the deferred response through the interaction webhook (see send.ts); the ids it needs ride in
 * replyTarget.extra.
 */
import { ApplicationCommandOptionType, ApplicationCommandType, ChannelType, Routes, type ChatInputCommandInteraction, type REST } from 'discord.js';
import type { InboundMessage } from '../../core/types.js';

export const ASK_COMMAND = 'ask';
/** Longest prompt Discord lets a string option carry. */
const PROMPT_MAX = 6000;

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

/** Translates `/ask`; null for any other command. The interaction must already be deferred. */
export function interactionToInbound(interaction: ChatInputCommandInteraction, now: () => Date): InboundMessage | null {
  if (interaction.commandName !== ASK_COMMAND) return null;
  const prompt = interaction.options.getString('prompt', false)?.trim();
  if (!prompt) return null;
  const user = interaction.user;
  const isDirect = !interaction.guildId;
  const channel = interaction.channel;
  const inThread = channel?.isThread() === true && typeof channel.parentId === 'string';
  const channelId = interaction.channelId;
  if (!channelId) return null;
  const chatId = inThread ? (channel.parentId as string) : channelId;
  const threadId = inThread ? channelId : undefined;
  const chatTitle = !isDirect && channel && channel.type !== ChannelType.DM && 'name' in channel && channel.name ? `#${channel.name}` : undefined;
  return {
    platform: 'discord',
    chatId,
    threadId,
    userId: user.id,
    displayName: user.globalName ?? user.username,
    chatTitle,
    text: prompt,
    isDirect,
    // A slash command is addressed to the bot by definition.
    mentionsBot: true,
    messageId: interaction.id,
    updateId: interaction.id,
    receivedAt: now(),
    replyTarget: {
      platform: 'discord',
      chatId,
      threadId,
      userId: user.id,
      extra: { channelId, interactionToken: interaction.token, applicationId: interaction.applicationId },
    },
  };
}

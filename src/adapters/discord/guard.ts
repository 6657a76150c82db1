/**
 * The edge of the gateway: raw dispatches are checked before discord.js builds structures from them.
 *
 * discord.js trusts gateway payloads; a malformed one makes its packet handler throw inside an async emit,
 * which surfaces as an unhandled rejection and can take the process down. So the @discordjs/ws manager's
 * `dispatch` events are (1) validated with zod for the events this adapter consumes and (2) run inside a
 * try/catch for everything else; a bad packet is logged and dropped, the connection stays up.
 */
import { ChannelType, type WebSocketOptions } from 'discord.js';
import { z } from 'zod';

/** The @discordjs/ws manager discord.js hands to `ws.buildStrategy`. */
type WSManager = Parameters<NonNullable<WebSocketOptions['buildStrategy']>>[0];

const snowflake = z.string().regex(/^\d{1,20}$/);
// username and timestamp are always sent by Discord, but discord.js does not need them (hand-written gateways may leave them out).
const user = z.object({ id: snowflake, username: z.string().optional() }).loose();

/** The parts of MESSAGE_CREATE that discord.js dereferences unconditionally. */
export const messageCreateSchema = z
  .object({
    id: snowflake,
    channel_id: snowflake,
    guild_id: snowflake.optional(),
    author: user,
    content: z.string(),
    timestamp: z.string().optional(),
    mentions: z.array(user).optional(),
    attachments: z.array(z.object({ id: snowflake, filename: z.string(), size: z.number() }).loose()).optional(),
  })
  .loose();

export const interactionCreateSchema = z
  .object({
    id: snowflake,
    application_id: snowflake,
    type: z.number().int(),
    token: z.string().min(1),
  })
  .loose();

const SCHEMAS: Record<string, z.ZodType> = {
  MESSAGE_CREATE: messageCreateSchema,
  INTERACTION_CREATE: interactionCreateSchema,
};

/** Why a dispatch was refused, or null when it may pass. */
export function checkDispatch(t: unknown, d: unknown): string | null {
  if (typeof t !== 'string') return null;
  const schema = SCHEMAS[t];
  if (!schema) return null;
  const result = schema.safeParse(d);
  if (result.success) return null;
  const issue = result.error.issues[0];
  return `${t}: ${issue?.path.join('.') || 'payload'} ${issue?.message ?? 'invalid'}`;
}

/**
 * discord.js builds the channel of an uncached DM from `channel_type` and silently drops the message
 * without it. A bot is never in a group DM, so a message without `guild_id` is a DM: say so when the
 * payload does not (older gateways and hand-written proxies leave the field out).
 */
export function markDirectMessage(d: Record<string, unknown>): void {
  if (d.guild_id === undefined && d.channel_type === undefined) d.channel_type = ChannelType.DM;
}

/**
 * Wraps the manager's emit so a bad dispatch is dropped instead of crashing discord.js's handler.
 * `onMessage` sees every valid MESSAGE_CREATE payload first (the adapter answers guild messages
 * discord.js would drop because it has not seen their guild yet).
 */
export function guardDispatches(manager: WSManager, onDrop: (reason: string) => void, onMessage?: (d: Record<string, unknown>) => void): void {
  const emit = manager.emit.bind(manager) as (event: string, ...args: unknown[]) => boolean;
  const guarded = (event: string, ...args: unknown[]): boolean => {
    if (event !== 'dispatch') return emit(event, ...args);
    const packet = (args[0] as { data?: { t?: unknown; d?: unknown } } | undefined)?.data;
    const refused = checkDispatch(packet?.t, packet?.d);
    if (refused) {
      onDrop(refused);
      return true;
    }
    if (packet?.t === 'MESSAGE_CREATE') {
      markDirectMessage(packet.d as Record<string, unknown>);
      try {
        onMessage?.(packet.d as Record<string, unknown>);
      } catch (error) {
        onDrop(`MESSAGE_CREATE: ${(error as Error)?.message ?? String(error)}`);
      }
    }
    try {
      return emit(event, ...args);
    } catch (error) {
      onDrop(`${String(packet?.t)}: ${(error as Error)?.message ?? String(error)}`);
      return true;
    }
  };
  (manager as unknown as { emit: typeof guarded }).emit = guarded;
}

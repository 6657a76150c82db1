/**
 * The edge of the gateway: the raw dispatches this adapter reads are checked with zod before anything
 * uses them. A malformed packet is logged and dropped, the connection stays up; events the adapter does
 * not read pass unchecked (and unused).
 */
import { z } from 'zod';

const snowflake = z.string().regex(/^\d{1,20}$/);

// username and timestamp are always sent by Discord, but the adapter does not need them (hand-written gateways may leave them out).
export const rawUserSchema = z
  .object({ id: snowflake, username: z.string().optional(), global_name: z.string().nullish(), bot: z.boolean().optional(), system: z.boolean().optional() })
  .loose();

/** A channel as GUILD_CREATE, CHANNEL_* and THREAD_* carry it (only what the adapter reads). */
export const rawChannelSchema = z.object({ id: snowflake, type: z.number().int(), name: z.string().nullish(), parent_id: snowflake.nullish() }).loose();

/** The parts of MESSAGE_CREATE the adapter reads. */
export const messageCreateSchema = z
  .object({
    id: snowflake,
    channel_id: snowflake,
    guild_id: snowflake.optional(),
    /** Sent for DMs by current gateways; a message without guild_id is a DM either way. */
    channel_type: z.number().int().optional(),
    type: z.number().int().optional(),
    author: rawUserSchema,
    content: z.string(),
    webhook_id: z.string().nullish(),
    timestamp: z.string().optional(),
    mentions: z.array(rawUserSchema).optional(),
    referenced_message: z.object({ author: rawUserSchema.optional() }).loose().nullish(),
    attachments: z.array(z.object({ id: snowflake.optional(), filename: z.string(), content_type: z.string().nullish(), size: z.number() }).loose()).optional(),
  })
  .loose();

const commandOption = z.object({ name: z.string(), type: z.number().int(), value: z.unknown().optional() }).loose();

export const interactionCreateSchema = z
  .object({
    id: snowflake,
    application_id: snowflake,
    type: z.number().int(),
    token: z.string().min(1),
    guild_id: snowflake.optional(),
    channel_id: snowflake.optional(),
    channel: rawChannelSchema.partial({ type: true }).optional(),
    user: rawUserSchema.optional(),
    member: z.object({ user: rawUserSchema.optional() }).loose().optional(),
    data: z.object({ name: z.string().optional(), type: z.number().int().optional(), options: z.array(commandOption).optional() }).loose().optional(),
  })
  .loose();

export const guildCreateSchema = z
  .object({ id: snowflake, unavailable: z.boolean().optional(), channels: z.array(z.unknown()).optional(), threads: z.array(z.unknown()).optional() })
  .loose();

const idOnly = z.object({ id: snowflake }).loose();
const threadListSync = z.object({ guild_id: snowflake, threads: z.array(z.unknown()) }).loose();

export type RawUser = z.infer<typeof rawUserSchema>;
export type RawChannel = z.infer<typeof rawChannelSchema>;
export type RawMessage = z.infer<typeof messageCreateSchema>;
export type RawInteraction = z.infer<typeof interactionCreateSchema>;
export type RawGuild = z.infer<typeof guildCreateSchema>;

const SCHEMAS = {
  MESSAGE_CREATE: messageCreateSchema,
  INTERACTION_CREATE: interactionCreateSchema,
  GUILD_CREATE: guildCreateSchema,
  GUILD_DELETE: idOnly,
  CHANNEL_CREATE: rawChannelSchema,
  CHANNEL_UPDATE: rawChannelSchema,
  CHANNEL_DELETE: idOnly,
  THREAD_CREATE: rawChannelSchema,
  THREAD_UPDATE: rawChannelSchema,
  THREAD_DELETE: idOnly,
  THREAD_LIST_SYNC: threadListSync,
} as const;

type Checked = { [T in keyof typeof SCHEMAS]: { t: T; d: z.infer<(typeof SCHEMAS)[T]> } }[keyof typeof SCHEMAS];

/** A dispatch the adapter reads, validated; `ignored` for the others; `refused` with the reason for a malformed one. */
export type DispatchCheck = { kind: 'ok'; event: Checked } | { kind: 'ignored' } | { kind: 'refused'; reason: string };

export function parseDispatch(t: unknown, d: unknown): DispatchCheck {
  if (typeof t !== 'string' || !Object.hasOwn(SCHEMAS, t)) return { kind: 'ignored' };
  const name = t as keyof typeof SCHEMAS;
  const result = SCHEMAS[name].safeParse(d);
  if (result.success) return { kind: 'ok', event: { t: name, d: result.data } as Checked };
  const issue = result.error.issues[0];
  return { kind: 'refused', reason: `${t}: ${issue?.path.join('.') || 'payload'} ${issue?.message ?? 'invalid'}` };
}

/** Why a dispatch was refused, or null when it may pass. */
export function checkDispatch(t: unknown, d: unknown): string | null {
  const checked = parseDispatch(t, d);
  return checked.kind === 'refused' ? checked.reason : null;
}

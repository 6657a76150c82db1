/**
 * The Telegram door's definition: Bot API token and endpoint, its `telegram:` config section with
 * the TELEGRAM_WEBHOOK_* overrides, streaming by drafts or edits, typing, `telegram:<chat>[:<topic>]`.
 */
import { z } from 'zod';
import { parseAllowList, type AllowList, type DoorDefinition, type EnvReader } from './types.js';

const yaml = z
  .strictObject({
    /** Public HTTPS URL for webhook mode; long polling when unset. */
    webhook_url: z.string().url().nullable().default(null),
    webhook_port: z.number().int().positive().default(8443),
    webhook_secret: z.string().min(1).nullable().default(null),
    handle_edited: z.boolean().default(false),
    pairing: z.boolean().default(false),
  })
  .prefault({});
export type TelegramYaml = z.output<typeof yaml>;

export interface TelegramSettings {
  token: string;
  apiRoot?: string;
  allowed: AllowList;
}

/**
 * TELEGRAM_WEBHOOK_URL / _PORT / _SECRET override `telegram.webhook_url`, `webhook_port`,
 * `webhook_secret`: one config file for several instances, each on its own port (ARCHITECTURE.md §4).
 */
function overrideYaml(read: EnvReader, config: TelegramYaml): TelegramYaml {
  const webhookUrl = read.string('TELEGRAM_WEBHOOK_URL');
  if (webhookUrl !== undefined) {
    // Kept as written (the path matters to Telegram and to the server); only checked to be a URL.
    let parsed: URL;
    try {
      parsed = new URL(webhookUrl);
    } catch {
      return read.fail(`TELEGRAM_WEBHOOK_URL: '${webhookUrl}' is not a URL`);
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') read.fail(`TELEGRAM_WEBHOOK_URL: '${webhookUrl}' is not an http(s) URL`);
  }
  const webhookPort = read.port('TELEGRAM_WEBHOOK_PORT');
  const webhookSecret = read.string('TELEGRAM_WEBHOOK_SECRET');
  if (webhookSecret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(webhookSecret)) {
    read.fail('TELEGRAM_WEBHOOK_SECRET: 1-256 characters of A-Z, a-z, 0-9, _ and - (what Telegram accepts as secret_token)');
  }
  if (webhookUrl === undefined && webhookPort === undefined && webhookSecret === undefined) return config;
  return {
    ...config,
    ...(webhookUrl !== undefined ? { webhook_url: webhookUrl } : {}),
    ...(webhookPort !== undefined ? { webhook_port: webhookPort } : {}),
    ...(webhookSecret !== undefined ? { webhook_secret: webhookSecret } : {}),
  };
}

export const telegramDoor: DoorDefinition<'telegram', TelegramYaml, TelegramSettings | undefined> = {
  id: 'telegram',
  variables: { allowList: 'TELEGRAM_ALLOWED_USERS', endpoint: 'TELEGRAM_API_ROOT', secrets: ['TELEGRAM_BOT_TOKEN'] },
  yaml,
  overrideYaml,
  settings(read) {
    const token = read.string('TELEGRAM_BOT_TOKEN');
    return token ? { token, apiRoot: read.url('TELEGRAM_API_ROOT'), allowed: parseAllowList(read.string('TELEGRAM_ALLOWED_USERS')) } : undefined;
  },
  secretValues: (_settings, config) => (config.webhook_secret ? [config.webhook_secret] : []),
  answersStrangers: true,
  pairing: (config) => config.pairing,
  receives: () => true,
  streaming: ['auto', 'draft', 'edit', 'off'],
  // `/start` is Telegram's opening convention (the client sends it when a chat begins).
  commands: ['start', 'help', 'new', 'status', 'usage', 'stop'],
  // Telegram shows "typing…" for 5 s after a sendChatAction.
  typing: { afterMs: 500, everyMs: 4000 },
  address: { example: 'telegram:<chat id>[:<topic id>]', chat: /^-?\d{1,20}$/, thread: /^\d{1,12}$/ },
  // Long polling has one consumer per bot (a second getUpdates ends the first: 409); webhooks run everywhere.
  exclusive: (_settings, config) => !config.webhook_url,
};

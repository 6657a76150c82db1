/**
 * The environment variables that point `switchboard start` at the loopback fakes (test/fakes), one
 * function a door, so a test says which door and who may talk to it, not every variable each time.
 * Spread them into cleanEnv: `cleanEnv({ ...doorEnv.model(model), ...doorEnv.slack(slack, { allowed: 'U1001' }) })`.
 */
import type { DiscordFake } from '../fakes/discord.js';
import type { ModelFake } from '../fakes/model.js';
import type { SlackFake } from '../fakes/slack.js';
import type { TelegramFake } from '../fakes/telegram.js';

export type EnvVars = Record<string, string>;

export interface SlackDoorOptions {
  /** SLACK_ALLOWED_USERS (unset: nobody is allowed). */
  allowed?: string;
  /** Socket Mode: SLACK_APP_TOKEN is the fake's app token. */
  socket?: boolean;
  /** HTTP mode: SLACK_SIGNING_SECRET and SLACK_PORT. */
  http?: { secret: string; port: number };
}

export const doorEnv = {
  /** The OpenAI-compatible model fake (`fake-model` unless `model` names another). */
  model(fake: Pick<ModelFake, 'openaiUrl'>, model = 'fake-model'): EnvVars {
    return { OPENAI_BASE_URL: fake.openaiUrl, OPENAI_API_KEY: 'sk-e2e', MODEL: model };
  },

  /** Telegram through the fake's Bot API root; `allowed` is TELEGRAM_ALLOWED_USERS. */
  telegram(fake: Pick<TelegramFake, 'token' | 'url'>, allowed?: string): EnvVars {
    return { TELEGRAM_BOT_TOKEN: fake.token, TELEGRAM_API_ROOT: fake.url, ...(allowed === undefined ? {} : { TELEGRAM_ALLOWED_USERS: allowed }) };
  },

  /** Slack through the fake's Web API, in Socket Mode or HTTP mode (signed requests on a port). */
  slack(fake: Pick<SlackFake, 'token' | 'apiUrl' | 'appToken'>, options: SlackDoorOptions = {}): EnvVars {
    return {
      SLACK_BOT_TOKEN: fake.token,
      SLACK_API_URL: fake.apiUrl,
      ...(options.allowed === undefined ? {} : { SLACK_ALLOWED_USERS: options.allowed }),
      ...(options.socket ? { SLACK_APP_TOKEN: fake.appToken } : {}),
      ...(options.http ? { SLACK_SIGNING_SECRET: options.http.secret, SLACK_PORT: String(options.http.port) } : {}),
    };
  },

  /** Discord through the fake's REST API (the gateway found through GET /gateway/bot). */
  discord(fake: Pick<DiscordFake, 'token' | 'apiUrl'>, allowed?: string): EnvVars {
    return { DISCORD_BOT_TOKEN: fake.token, DISCORD_API_URL: fake.apiUrl, ...(allowed === undefined ? {} : { DISCORD_ALLOWED_USERS: allowed }) };
  },
};

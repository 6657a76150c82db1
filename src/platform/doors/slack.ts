/**
 * The Slack door's definition: bot token, HTTP mode on SLACK_PORT or Socket Mode with an app token,
 * its `slack:` section (the slash command), native streaming, no typing, `slack:<channel>[:<ts>]`.
 */
import { z } from 'zod';
import { parseAllowList, type AllowList, type DoorDefinition } from './types.js';

const yaml = z
  .strictObject({
    command: z.string().regex(/^\/[a-z0-9_-]+$/).default('/ask'),
    /** Who sees a slash command's answer. */
    command_response: z.enum(['in_channel', 'ephemeral']).default('in_channel'),
    pairing: z.boolean().default(false),
  })
  .prefault({});
export type SlackYaml = z.output<typeof yaml>;

export interface SlackSettings {
  botToken: string;
  signingSecret?: string;
  appToken?: string;
  apiUrl?: string;
  port: number;
  allowed: AllowList;
}

export const slackDoor: DoorDefinition<'slack', SlackYaml, SlackSettings | undefined> = {
  id: 'slack',
  variables: { allowList: 'SLACK_ALLOWED_USERS', endpoint: 'SLACK_API_URL', secrets: ['SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET', 'SLACK_APP_TOKEN'] },
  yaml,
  settings(read) {
    const botToken = read.string('SLACK_BOT_TOKEN');
    if (!botToken) return undefined;
    return {
      botToken,
      signingSecret: read.string('SLACK_SIGNING_SECRET'),
      appToken: read.string('SLACK_APP_TOKEN'),
      apiUrl: read.url('SLACK_API_URL'),
      port: read.port('SLACK_PORT') ?? 3000,
      allowed: parseAllowList(read.string('SLACK_ALLOWED_USERS')),
    };
  },
  secretValues: () => [],
  answersStrangers: true,
  pairing: (config) => config.pairing,
  receives: () => true,
  streaming: ['auto', 'native', 'edit', 'off'],
  commands: ['help', 'new', 'status', 'usage', 'stop'],
  // Bots cannot show "typing…" in Slack.
  typing: null,
  address: { example: 'slack:<channel id>[:<thread ts>]', chat: /^[CDGUW][A-Z0-9]{2,}$/, thread: /^\d{6,12}\.\d{1,8}$/ },
  // Events come over HTTP or Socket Mode to every instance; the inbound journal answers each once.
  exclusive: () => false,
};

import type { AllowList, Settings } from '../settings.js';
import { isAllowed } from '../settings.js';
import type { PairingRepo } from '../store/types.js';
import type { InboundMessage } from '../types.js';
import type { PlatformId } from '../../platform/ids.js';

/** The allow-list of a platform without credentials (deny by default). */
const NOBODY: AllowList = { everyone: false, ids: new Set() };

/** The variable that lists who may talk on a platform. */
const ALLOW_VARIABLE: Partial<Record<PlatformId, string>> = {
  telegram: 'TELEGRAM_ALLOWED_USERS',
  slack: 'SLACK_ALLOWED_USERS',
  discord: 'DISCORD_ALLOWED_USERS',
  email: 'EMAIL_ALLOWED_SENDERS',
};

/**
 * Who may talk (DESIGN §4): allow-lists per platform, paired users, and what a refused sender is
 * told — a pairing code where pairing is on, else how the owner can let them in. The terminal and
 * cron are the operator's own and always allowed.
 */
export class Access {
  constructor(
    private readonly settings: Settings,
    private readonly pairing: PairingRepo,
    private readonly now: () => Date,
  ) {}

  private allowList(platform: PlatformId): AllowList | null {
    if (platform === 'cli' || platform === 'cron') return null;
    if (platform === 'email') return this.settings.email.allowed;
    return this.settings[platform]?.allowed ?? NOBODY;
  }

  async allows(message: InboundMessage): Promise<boolean> {
    const list = this.allowList(message.platform);
    if (!list || isAllowed(list, message.userId)) return true;
    return this.pairing.isPaired(message.platform, message.userId);
  }

  private pairingEnabled(platform: PlatformId): boolean {
    const c = this.settings.config;
    return (platform === 'telegram' && c.telegram.pairing) || (platform === 'slack' && c.slack.pairing) || (platform === 'discord' && c.discord.pairing);
  }

  /**
   * The reply a refused sender gets (issuing a pairing code where pairing is on); null for e-mail,
   * where the From address is trivially forged: answering it would mail strangers (backscatter).
   */
  async refusal(message: InboundMessage): Promise<string | null> {
    if (message.platform === 'email') return null;
    if (this.pairingEnabled(message.platform)) {
      const r = await this.pairing.request(message.platform, message.userId, message.chatId, this.now().getTime());
      if (r.status === 'full') return 'Sorry, this bot is private and cannot take more pairing requests right now. Please try again later.';
      return `This bot is private. Your pairing code is \`${r.code}\` (valid for 1 hour). Ask the owner to run \`switchboard pairing approve ${r.code}\`.`;
    }
    const variable = ALLOW_VARIABLE[message.platform] ?? `${message.platform.toUpperCase()}_ALLOWED_USERS`;
    return `Sorry, this bot is private. Ask its owner to add your ${message.platform} user id ${message.userId} to ${variable}.`;
  }
}

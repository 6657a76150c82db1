import type { Settings } from '../settings.js';
import type { PairingRepo } from '../store/types.js';
import type { InboundMessage } from '../types.js';
import type { PlatformId } from '../../platform/ids.js';
import { DOOR_TABLE, doorOf, isAllowed, type AllowList, type DoorId, type DoorSections } from '../../platform/doors/index.js';

/** The allow-list of a door without credentials (deny by default). */
const NOBODY: AllowList = { everyone: false, ids: new Set() };

function pairingOn<K extends DoorId>(id: K, config: DoorSections): boolean {
  return DOOR_TABLE[id].pairing(config[id]);
}

/**
 * Who may talk (ARCHITECTURE.md §4): allow-lists per door, paired users, and what a refused sender is
 * told — a pairing code where pairing is on, else how the owner can let them in. What differs by
 * door (the list, its variable, pairing, whether strangers are answered) comes from the door's
 * definition. The terminal and cron are no doors: the operator's own, always allowed.
 */
export class Access {
  constructor(
    private readonly settings: Settings,
    private readonly pairing: PairingRepo,
    private readonly now: () => Date,
  ) {}

  private allowList(platform: PlatformId): AllowList | null {
    const door = doorOf(platform);
    if (!door) return null;
    return this.settings[door.id]?.allowed ?? NOBODY;
  }

  async allows(message: InboundMessage): Promise<boolean> {
    const list = this.allowList(message.platform);
    if (!list || isAllowed(list, message.userId)) return true;
    return this.pairing.isPaired(message.platform, message.userId);
  }

  /**
   * The reply a refused sender gets (issuing a pairing code where pairing is on); null on a door
   * that does not answer strangers (e-mail: the From address is trivially forged).
   */
  async refusal(message: InboundMessage): Promise<string | null> {
    const door = doorOf(message.platform);
    if (door && !door.answersStrangers) return null;
    if (door && pairingOn(door.id, this.settings.config)) {
      const r = await this.pairing.request(message.platform, message.userId, message.chatId, this.now().getTime());
      if (r.status === 'full') return 'Sorry, this bot is private and cannot take more pairing requests right now. Please try again later.';
      return `This bot is private. Your pairing code is \`${r.code}\` (valid for 1 hour). Ask the owner to run \`switchboard pairing approve ${r.code}\`.`;
    }
    const variable = door?.variables.allowList ?? `${message.platform.toUpperCase()}_ALLOWED_USERS`;
    return `Sorry, this bot is private. Ask its owner to add your ${message.platform} user id ${message.userId} to ${variable}.`;
  }
}

/**
 * The door registry: each door's definition (src/platform/doors/, the data the core iterates)
 * gets its adapter factory here, the one place that knows every adapter. Platform SDKs are loaded
 * only for the doors in use (they dominate start-up time).
 */
import type { Settings } from '../core/settings.js';
import type { Adapter } from '../core/types.js';
import type { Logger } from '../core/logger.js';
import type { PlatformId } from '../platform/ids.js';
import { DOOR_IDS, DOOR_TABLE, type DoorId, type DoorSettings } from '../platform/doors/index.js';
import type { AdapterDeps } from './deps.js';

type Factory<K extends DoorId> = (settings: NonNullable<DoorSettings<K>>, deps: AdapterDeps) => Promise<Adapter>;

/** Each door's factory, by id (the mapped type makes a door without one a compile error). */
const FACTORIES: { [K in DoorId]: Factory<K> } = {
  telegram: async (settings, deps) => (await import('./telegram/index.js')).createTelegramAdapter(settings, deps),
  slack: async (settings, deps) => (await import('./slack/index.js')).createSlackAdapter(settings, deps),
  discord: async (settings, deps) => (await import('./discord/index.js')).createDiscordAdapter(settings, deps),
  email: async (settings, deps) => (await import('./email/index.js')).createEmailAdapter(settings, deps),
};

function settingsOf<K extends DoorId>(settings: Settings, id: K): NonNullable<DoorSettings<K>> | undefined {
  // Settings holds each door's settings under its id (DoorSettingsMap); absent: not configured.
  return (settings as unknown as { [P in DoorId]?: NonNullable<DoorSettings<P>> })[id];
}

function receives<K extends DoorId>(settings: Settings, id: K): boolean {
  const own = settingsOf(settings, id);
  return own !== undefined && DOOR_TABLE[id].receives(own);
}

function create<K extends DoorId>(settings: Settings, id: K, deps: AdapterDeps): Promise<Adapter> | null {
  const own = settingsOf(settings, id);
  return own === undefined ? null : FACTORIES[id](own, deps);
}

/** Doors that take messages in with these settings, in definition order (e-mail: when IMAP_URL names a mailbox). */
export function configuredPlatforms(settings: Settings): PlatformId[] {
  return DOOR_IDS.filter((id) => receives(settings, id));
}

/**
 * One adapter per door whose settings are there: the chat doors with credentials, and e-mail
 * always (outbound mail: SMTP_URL, else .eml files in the outbox folder). `loggerFor` gives each
 * door its own logger (`start` holds their lines while the doors open).
 */
export async function createAdapters(settings: Settings, deps: AdapterDeps, loggerFor?: (platform: PlatformId) => Logger): Promise<Adapter[]> {
  const out: Adapter[] = [];
  for (const id of DOOR_IDS) {
    const adapter = await create(settings, id, loggerFor ? { ...deps, logger: loggerFor(id) } : deps);
    if (adapter) out.push(adapter);
  }
  return out;
}

/**
 * Sender names for a turn (ARCHITECTURE.md §9): a door may hand a group or channel message over before it
 * knows the sender's display name (so that it is journaled at once, in order) and looks the name up
 * meanwhile; the turn asks the door for it when it builds the user message. Direct messages never
 * show the name, so they are left as they are.
 */
import type { Adapter, InboundMessage } from '../types.js';
import type { PlatformId } from '../../platform/ids.js';

export async function withSenderNames(batch: InboundMessage[], adapter: (platform: PlatformId) => Adapter | undefined): Promise<InboundMessage[]> {
  if (!batch.some((m) => !m.isDirect && m.displayName === undefined)) return batch;
  return Promise.all(
    batch.map(async (m) => {
      const door = !m.isDirect && m.displayName === undefined ? adapter(m.platform) : undefined;
      if (!door?.senderName) return m;
      const name = await door.senderName(m.userId).catch(() => undefined);
      return name === undefined ? m : { ...m, displayName: name };
    }),
  );
}

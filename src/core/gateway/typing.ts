import type { Adapter, DeliveryTarget } from '../types.js';
import { doorOf } from '../../platform/doors/index.js';

/**
 * Shows "typing…" while a turn runs, where the adapter can, at the cadence of its door's
 * definition (first after `afterMs`, so fast answers cost no platform call; then every `everyMs`,
 * before the platform lets it fade); `stop()` when the answer is stored.
 */
export function startTyping(adapter: Adapter | undefined, target: DeliveryTarget): { stop(): void } {
  const sendTyping = adapter?.sendTyping?.bind(adapter);
  const cadence = doorOf(target.platform)?.typing;
  if (!sendTyping || !cadence) return { stop() {} };
  const send = () => void sendTyping(target).catch(() => undefined);
  let repeat: NodeJS.Timeout | null = null;
  const first = setTimeout(() => {
    send();
    repeat = setInterval(send, cadence.everyMs);
    repeat.unref();
  }, cadence.afterMs);
  first.unref();
  return {
    stop() {
      clearTimeout(first);
      if (repeat) clearInterval(repeat);
    },
  };
}

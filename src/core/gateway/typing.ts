import type { Adapter, DeliveryTarget } from '../types.js';

const TYPING_EVERY_MS = 4000;
/** Answers faster than this need no "typing…" (saves a platform call per message). */
const TYPING_AFTER_MS = 500;

/** Shows "typing…" while a turn runs, where the adapter can; `stop()` when the answer is stored. */
export function startTyping(adapter: Adapter | undefined, target: DeliveryTarget): { stop(): void } {
  const sendTyping = adapter?.sendTyping?.bind(adapter);
  if (!sendTyping) return { stop() {} };
  const send = () => void sendTyping(target).catch(() => undefined);
  let repeat: NodeJS.Timeout | null = null;
  const first = setTimeout(() => {
    send();
    repeat = setInterval(send, TYPING_EVERY_MS);
    repeat.unref();
  }, TYPING_AFTER_MS);
  first.unref();
  return {
    stop() {
      clearTimeout(first);
      if (repeat) clearInterval(repeat);
    },
  };
}

/**
 * Per-door loggers for `start`: the doors open together, and what each logs meanwhile is held until
 * the door keeper tells it in door order (DoorLogs), so the log reads as a one-by-one start would.
 */
import type { Logger } from './core/logger.js';
import type { DoorLogs } from './core/doors.js';
import type { PlatformId } from './platform/ids.js';

type Level = keyof Logger;

interface Held {
  state: 'held' | 'open' | 'dropped';
  lines: Array<[Level, string, string]>;
}

export interface HeldDoorLogs extends DoorLogs {
  /** The logger to give the door of `platform`: held until released. */
  loggerFor(platform: PlatformId): Logger;
}

export function heldDoorLogs(base: Logger): HeldDoorLogs {
  const doors = new Map<PlatformId, Held>();
  const held = (platform: PlatformId): Held => {
    let h = doors.get(platform);
    if (!h) doors.set(platform, (h = { state: 'held', lines: [] }));
    return h;
  };
  return {
    loggerFor(platform) {
      const h = held(platform);
      const at = (level: Level) => (scope: string, message: string) => {
        if (h.state === 'open') base[level](scope, message);
        else if (h.state === 'held') h.lines.push([level, scope, message]);
      };
      return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
    },
    release(platform) {
      const h = held(platform);
      if (h.state !== 'held') return;
      h.state = 'open';
      for (const [level, scope, message] of h.lines.splice(0)) base[level](scope, message);
    },
    drop(platform) {
      const h = held(platform);
      h.state = 'dropped';
      h.lines = [];
    },
  };
}

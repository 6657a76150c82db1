/**
 * Whether the Slack door's Socket Mode connection works now, for `/readyz` (ARCHITECTURE.md §18).
 * The Socket Mode client reconnects by itself after a drop (after a pause of its ping timeout, 5 s,
 * growing while `apps.connections.open` fails); this only watches its events: `connected` (Slack's
 * `hello`) makes the door ready; a socket closed while connected (a drop), a try that closes before
 * `hello` (refused) or a failed `apps.connections.open` make it not ready until the next `connected`.
 */

/** What this needs of the Socket Mode client (an EventEmitter3 emitter). */
export interface SocketModeEvents {
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  off(event: string, listener: (...args: unknown[]) => void): unknown;
}

export interface SocketModeWatch {
  /** Null while connected; else what is wrong, in one line. */
  problem(): string | null;
  /**
   * Takes a log line of the Socket Mode client: a failed `apps.connections.open` while reconnecting is
   * only logged ("Failed to retrieve a new WSS URL (error: …)"), not emitted.
   */
  note(line: string): void;
  /** Stops watching (the door stops: a closed socket then is not a problem). */
  stop(): void;
}

/** The first line of an error's message, when it has one (the WebSocket's errors often have none). */
function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return text.split('\n')[0].trim().slice(0, 200);
}

/** Starts watching `client`, connected at this moment (start() waited for Slack's `hello`). */
export function watchSocketMode(client: SocketModeEvents): SocketModeWatch {
  let connected = true;
  let down: string | null = null;
  let failedTries = 0;
  let lastError = '';
  const tries = () => `${failedTries} ${failedTries === 1 ? 'try' : 'tries'}`;

  const listeners: Record<string, (...args: unknown[]) => void> = {
    connected: () => {
      connected = true;
      down = null;
      failedTries = 0;
      lastError = '';
    },
    error: (error) => {
      lastError = reason(error);
    },
    close: () => {
      const why = lastError ? `: ${lastError}` : '';
      lastError = '';
      if (connected) {
        connected = false;
        down = `Socket Mode connection dropped${why}; reconnecting`;
      } else {
        failedTries += 1;
        down = `Socket Mode connection refused (${tries()} since it dropped${why}); reconnecting`;
      }
    },
  };
  for (const [event, listener] of Object.entries(listeners)) client.on(event, listener);

  return {
    problem: () => down,
    note(line) {
      const failed = /^Failed to retrieve a new WSS URL \(error: (?:Error: )?(.*)\)$/.exec(line);
      if (!failed || connected) return;
      failedTries += 1;
      down = `Socket Mode connection refused (${tries()} since it dropped: apps.connections.open: ${failed[1].slice(0, 200)}); reconnecting`;
    },
    stop() {
      for (const [event, listener] of Object.entries(listeners)) client.off(event, listener);
    },
  };
}

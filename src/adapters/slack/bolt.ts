/**
 * Bolt's App and HTTPReceiver from their own files. `@slack/bolt`'s index also loads the Express
 * receiver (Express and its ~100 modules) and the AWS Lambda receiver, which Switchboard never uses
 * (issue #14). Bolt 5 has no package "exports" map, so these files are importable; the types still
 * come from the index, with `import type` (erased at build). What App.js itself needs stays: both
 * receivers it may build (HTTP, Socket Mode) and, through them, @slack/oauth. The Socket Mode receiver
 * is built here rather than by App so that its client's connection events can be watched (`/readyz`).
 */
import appModule from '@slack/bolt/dist/App.js';
import receiverModule from '@slack/bolt/dist/receivers/HTTPReceiver.js';
import socketReceiverModule from '@slack/bolt/dist/receivers/SocketModeReceiver.js';
import type { App as BoltApp, HTTPReceiver as BoltHTTPReceiver, SocketModeReceiver as BoltSocketModeReceiver } from '@slack/bolt';

/**
 * Both files are CommonJS with `exports.default = Class`. Node hands an ES module the whole
 * `module.exports` as the default import, so the class is its `.default`; a loader that unwraps
 * `__esModule` defaults itself (vitest) hands over the class. Either way, the class.
 */
function commonJsDefault<T>(mod: { default: T }): T {
  return (mod as { default?: T }).default ?? (mod as unknown as T);
}

export const App: typeof BoltApp = commonJsDefault(appModule);
export type App = BoltApp;
export const HTTPReceiver: typeof BoltHTTPReceiver = commonJsDefault(receiverModule);
export type HTTPReceiver = BoltHTTPReceiver;
export const SocketModeReceiver: typeof BoltSocketModeReceiver = commonJsDefault(socketReceiverModule);
export type SocketModeReceiver = BoltSocketModeReceiver;

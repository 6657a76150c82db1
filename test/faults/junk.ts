/**
 * Seeded generators of malformed platform payloads for the bad-input fault test. Every payload breaks
 * the shape its platform documents in a field the adapter reads (so none of them is a real message
 * that should reach the model), mixed with random JSON of every kind.
 */

/** mulberry32: small, fast, reproducible. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rand = () => number;

const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

const STRINGS = ['', ' ', 'hi', '\u0000\u0001', '<b>x</b>', '🙂'.repeat(50), 'a'.repeat(5000), '{"json":true}', '\ud800', 'NaN', '-1', '1e309', '__proto__'];

/** Any JSON value, nested up to `depth`. */
export function randomJson(r: Rand, depth = 3): unknown {
  const k = Math.floor(r() * (depth > 0 ? 8 : 6));
  switch (k) {
    case 0:
      return null;
    case 1:
      return r() < 0.5;
    case 2:
      return pick(r, [0, -1, 1.5, 2 ** 53, -(2 ** 63), 1e308, Math.floor(r() * 1e9)]);
    case 3:
    case 4:
      return pick(r, STRINGS);
    case 5:
      return [];
    case 6:
      return Array.from({ length: Math.floor(r() * 4) }, () => randomJson(r, depth - 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = 0; i < Math.floor(r() * 5); i++) o[pick(r, ['id', 'text', 'type', 'user', 'chat', 'from', 'event', 'data', 'd', 't', 'x'])] = randomJson(r, depth - 1);
      return o;
    }
  }
}

/** A value that is not of type `kind` (so a schema expecting it refuses). */
function wrong(r: Rand, kind: 'number' | 'string' | 'object' | 'boolean'): unknown {
  for (;;) {
    const v = randomJson(r, 1);
    const t = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
    if (t !== kind) return v;
  }
}

// ——— Telegram ————————————————————————————————————————————————————————————————

function validTelegramMessage(): Record<string, unknown> {
  return { message_id: 5, date: 1_700_000_000, chat: { id: 7001, type: 'private', first_name: 'Eve' }, from: { id: 7001, is_bot: false, first_name: 'Eve' }, text: 'hello' };
}

/** A Telegram update whose `message` (or `edited_message`) is broken; the fake assigns update_id. */
export function telegramUpdate(r: Rand): Record<string, unknown> {
  const key = r() < 0.8 ? 'message' : 'edited_message';
  if (r() < 0.25) return { [key]: wrong(r, 'object') };
  const m = validTelegramMessage();
  const breakers: Array<() => void> = [
    () => (m.message_id = wrong(r, 'number')),
    () => (m.date = wrong(r, 'number')),
    () => delete m.chat,
    () => (m.chat = wrong(r, 'object')),
    () => (m.chat = { id: wrong(r, 'number'), type: 'private' }),
    () => (m.chat = { id: 7001, type: pick(r, ['', 'secret', 'PRIVATE', 'bot']) }),
    () => (m.from = wrong(r, 'object')),
    () => (m.from = { id: wrong(r, 'number'), is_bot: false, first_name: 'Eve' }),
    () => (m.from = { id: 7001, is_bot: wrong(r, 'boolean'), first_name: 'Eve' }),
    () => (m.text = wrong(r, 'string')),
    () => (m.entities = pick(r, ['mention', 5, {}, [5], [{ type: 1 }], [null]])),
    () => (m.entities = [{ type: 'mention', offset: -5, length: 3 }]),
    () => (m.reply_to_message = { message_id: wrong(r, 'number') }),
  ];
  pick(r, breakers)();
  if (r() < 0.3) pick(r, breakers)();
  return { [key]: m };
}

// ——— Slack ———————————————————————————————————————————————————————————————————

/** A signed-able raw body for /slack/events: broken message events, broken commands, or junk. */
export function slackBody(r: Rand, n: number): { body: string; kind: 'event' | 'command' | 'junk' } {
  const x = r();
  if (x < 0.6) {
    const event: Record<string, unknown> = { type: pick(r, ['message', 'app_mention']), channel: 'D0BAD', channel_type: 'im', user: 'UBAD', text: 'hello', ts: `${n}.000100` };
    const breakers: Array<() => void> = [
      () => delete event.user,
      () => (event.user = wrong(r, 'string')),
      () => (event.text = wrong(r, 'string')),
      () => delete event.channel,
      () => (event.channel = wrong(r, 'string')),
      () => delete event.ts,
      () => (event.ts = wrong(r, 'string')),
    ];
    pick(r, breakers)();
    const envelope: Record<string, unknown> = { type: 'event_callback', team_id: 'T0001', api_app_id: 'A0001', event, event_id: `EvBad${n}`, event_time: 1_700_000_000 };
    if (r() < 0.15) envelope.event_id = wrong(r, 'string');
    return { body: JSON.stringify(envelope), kind: 'event' };
  }
  if (x < 0.8) {
    const fields: Record<string, string> = { command: '/ask', text: 'hello', user_id: 'UBAD', channel_id: 'C0BAD', response_url: 'http://127.0.0.1:9/respond', trigger_id: `tr${n}` };
    // user_id and channel_id are required; response_url, when there, must be a URL.
    if (r() < 0.7) delete fields[pick(r, ['user_id', 'channel_id'] as const)];
    else fields.response_url = pick(r, ['not a url', 'http//x', '::']);
    return { body: new URLSearchParams(fields).toString(), kind: 'command' };
  }
  const junk = r() < 0.5 ? JSON.stringify(randomJson(r, 3) ?? null) : pick(r, ['{', 'payload=%7B', '\u0000', 'a=b&c', '[]', 'null']);
  return { body: junk, kind: 'junk' };
}

// ——— Discord —————————————————————————————————————————————————————————————————

/** A gateway dispatch (type and data) that breaks the shape the Discord adapter reads. */
export function discordDispatch(r: Rand, channelId: string): { t: string; d: unknown } {
  const x = r();
  if (x < 0.6) {
    const d: Record<string, unknown> = {
      id: String(9_000_000_000_000 + Math.floor(r() * 1e6)),
      channel_id: channelId,
      author: { id: '7002', username: 'eve' },
      content: 'hello',
      timestamp: new Date(0).toISOString(),
      channel_type: 1,
    };
    const breakers: Array<() => void> = [
      () => (d.id = wrong(r, 'string')),
      () => (d.id = 'not-a-snowflake'),
      () => delete d.channel_id,
      () => (d.author = wrong(r, 'object')),
      () => (d.author = { id: wrong(r, 'string'), username: 'eve' }),
      () => delete d.content,
      () => (d.content = wrong(r, 'string')),
      () => (d.timestamp = wrong(r, 'string')),
      () => (d.mentions = pick(r, ['everyone', 5, {}, [5], [null], [{ id: 7 }]])),
      () => (d.attachments = [{ id: 'x', filename: 3 }]),
    ];
    pick(r, breakers)();
    return { t: 'MESSAGE_CREATE', d: r() < 0.1 ? wrong(r, 'object') : d };
  }
  if (x < 0.8) {
    const d: Record<string, unknown> = { id: '1', application_id: '2', type: 2, token: 'tok' };
    pick(r, [() => delete d.token, () => (d.type = wrong(r, 'number')), () => (d.id = wrong(r, 'string')), () => (d.token = '')])();
    return { t: 'INTERACTION_CREATE', d };
  }
  return { t: pick(r, ['MESSAGE_UPDATE', 'MESSAGE_DELETE', 'TYPING_START', 'CHANNEL_CREATE', 'NOT_A_REAL_EVENT', 'PRESENCE_UPDATE']), d: randomJson(r, 3) };
}

/**
 * Many instances on one PostgreSQL (ARCHITECTURE.md §9), through the real command: three `switchboard start`
 * processes with one config and DATABASE_URL. Slack (HTTP) runs on every instance, so a burst of
 * direct messages spread over the three is answered exactly once each, each session in order.
 * Telegram long polling is a single-consumer door: one instance polls, the others stand by (the
 * fake counts two polls at once as a 409 conflict); SIGKILL the door holder while it answers a
 * Telegram message, and another instance takes the door over and answers that message once.
 * Short leases (`gateway.lease_seconds: 1.5`) keep it to seconds; the default is measured by the bench.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, lastUserText, type ModelFake } from '../fakes/model.js';
import { eventBody, postSigned, startSlackFake, type SlackFake } from '../fakes/slack.js';
import { startTelegramFake, type TelegramFake } from '../fakes/telegram.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, runCli, sleep, startCli, until, type Running } from '../helpers/cli.js';
import { ENGINES, reportSkips, type EngineDb } from '../helpers/engines.js';
import { freePort } from '../helpers/ports.js';

const postgres = ENGINES.find((e) => e.name === 'postgres')!;
reportSkips();

const SECRET = 'instances-signing-secret';
const SESSIONS = 5;
const PER_SESSION = 6;

interface Instance {
  id: string;
  gw: Running;
  events: string;
}

let model: ModelFake;
let slack: SlackFake;
let tg: TelegramFake;
let db: EngineDb | undefined;
const homes: string[] = [];
const instances: Instance[] = [];

function env(id: string, home: string, port: number, config: string): NodeJS.ProcessEnv {
  return cleanEnv({
    SWITCHBOARD_HOME: home,
    SWITCHBOARD_CONFIG: config,
    SWITCHBOARD_INSTANCE_ID: id,
    DATABASE_URL: db!.location,
    OPENAI_BASE_URL: model.openaiUrl,
    OPENAI_API_KEY: 'sk-instances',
    MODEL: 'fake-model',
    SLACK_BOT_TOKEN: slack.token,
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    SLACK_PORT: String(port),
    SLACK_ALLOWED_USERS: '*',
    TELEGRAM_BOT_TOKEN: tg.token,
    TELEGRAM_API_ROOT: tg.url,
    TELEGRAM_ALLOWED_USERS: '*',
  });
}

beforeAll(async () => {
  if (postgres.skip) return;
  // Each turn takes a little while, so turns of one session overlap messages arriving elsewhere.
  model = await startModelFake({
    script: (req) => {
      const text = lastUserText(req);
      return { text: `Echo: ${text}`, delayMs: /slow/.test(text) ? 4000 : 60 };
    },
  });
  slack = await startSlackFake({});
  tg = await startTelegramFake({ maxPollHoldMs: 500 });
  db = await postgres.create();
  const config = join(db.home, 'config.yaml');
  writeFileSync(config, 'gateway:\n  lease_seconds: 1.5\n');
  for (const id of ['inst-a', 'inst-b', 'inst-c']) {
    const home = mkdtempSync(join(tmpdir(), `sb-${id}-`));
    homes.push(home);
    const port = await freePort();
    const gw = startCli(['start'], { env: env(id, home, port, config) });
    instances.push({ id, gw, events: `http://127.0.0.1:${port}/slack/events` });
    await gw.waitFor(/ready \(/, 20_000);
  }
}, 90_000);

afterAll(() =>
  cleanUp(
    ...instances.map((i) => () => killIfRunning(i.gw)),
    () => slack?.close(),
    () => tg?.close(),
    () => model?.close(),
    () => db?.cleanup(),
    ...homes.map((h) => () => removeDir(h)),
  ),
);

describe.skipIf(Boolean(postgres.skip))(`three instances on one PostgreSQL${postgres.skip ? ` (skipped: ${postgres.skip})` : ''}`, () => {
  it('keeps each session in order when its first messages reach instances that never saw the sender (no warm-up)', async () => {
    // Each event is posted once the previous one was answered 200, as Slack does for one conversation. The
    // door answers 200 only once the event is journaled (it does not wait for the sender's name, which is
    // looked up for the turn), so message j is in the journal before message j+1 reaches any instance; and a
    // turn takes its session's pending messages in Slack's order (the messages' ts).
    // users.info answers in 10 ms to 1 s, as it may at Slack on a bad day.
    slack.delay('users.info', 10, 1000);
    onTestFinished(() => slack.delay('users.info', 0));
    let ts = 500;
    const sessions = 4;
    const perSession = 6;
    for (let j = 0; j < perSession; j++) {
      for (let s = 0; s < sessions; s++) {
        const target = instances[(s + j) % instances.length];
        const body = eventBody({ type: 'message', channel_type: 'im', channel: `D1N${s}`, user: `U1N${s}`, text: `msg n${s}y${j}`, ts: `1710000${String(++ts).padStart(3, '0')}.000100` });
        expect((await postSigned(target.events, SECRET, body)).status).toBe(200);
      }
    }
    const tokensIn = (text: string | undefined) => [...(text ?? '').matchAll(/n\d+y\d+/g)].map((m) => m[0]);
    const answered = () => slack.messages.flatMap((m) => tokensIn(m.text));
    await until(() => new Set(answered()).size >= sessions * perSession, 20_000, 'every message answered');
    await sleep(500);
    for (let s = 0; s < sessions; s++) {
      const replies = slack.messages.filter((m) => m.channel === `D1N${s}`);
      expect(replies.flatMap((m) => tokensIn(m.text))).toEqual(Array.from({ length: perSession }, (_, j) => `n${s}y${j}`));
    }
  });

  it('answers a burst of messages spread over the instances exactly once each, every session in order', async () => {
    let ts = 0;
    const sent: string[] = [];
    // Each instance meets each sender once first (the test above covers senders no instance has seen), so
    // the burst measures turns, leases and the outbox with every name known.
    for (let s = 0; s < SESSIONS; s++) {
      for (const target of instances) {
        const body = eventBody({ type: 'message', channel_type: 'im', channel: `D0S${s}`, user: `U0S${s}`, text: 'hello', ts: `1710000${String(++ts).padStart(3, '0')}.000100` });
        expect((await postSigned(target.events, SECRET, body)).status).toBe(200);
      }
    }
    // Greetings that met on one session are answered together: wait for a reply in each, then for quiet.
    await until(() => Array.from({ length: SESSIONS }, (_, s) => `D0S${s}`).every((c) => slack.messages.some((m) => m.channel === c)), 20_000, 'the greetings answered');
    for (let seen = -1; seen !== slack.messages.length; ) {
      seen = slack.messages.length;
      await sleep(700);
    }
    // Round robin over sessions, and message j of session s goes to instance (s + j) % 3.
    for (let j = 0; j < PER_SESSION; j++) {
      for (let s = 0; s < SESSIONS; s++) {
        const token = `m${s}x${j}`;
        const target = instances[(s + j) % instances.length];
        const body = eventBody({ type: 'message', channel_type: 'im', channel: `D0S${s}`, user: `U0S${s}`, text: `msg ${token}`, ts: `1710000${String(++ts).padStart(3, '0')}.000100` });
        const res = await postSigned(target.events, SECRET, body);
        expect(res.status).toBe(200);
        sent.push(token);
      }
    }
    const tokensIn = (text: string | undefined) => [...(text ?? '').matchAll(/m\d+x\d+/g)].map((m) => m[0]);
    const answered = () => slack.messages.flatMap((m) => tokensIn(m.text));
    await until(() => new Set(answered()).size >= sent.length, 20_000, 'every message answered');
    await sleep(1000); // a second answer, if any, would arrive meanwhile
    const counts = new Map<string, number>();
    for (const t of answered()) counts.set(t, (counts.get(t) ?? 0) + 1);
    expect([...counts].filter(([, n]) => n !== 1)).toEqual([]);
    expect(counts.size).toBe(sent.length);
    // A session ran on one instance at a time: no message went to the model in two turns at once.
    const asked = new Map<string, number>();
    for (const r of model.requests) for (const t of tokensIn(lastUserText(r))) asked.set(t, (asked.get(t) ?? 0) + 1);
    expect([...asked].filter(([, n]) => n !== 1)).toEqual([]);
    for (let s = 0; s < SESSIONS; s++) {
      const replies = slack.messages.filter((m) => m.channel === `D0S${s}`);
      expect(replies.flatMap((m) => tokensIn(m.text))).toEqual(Array.from({ length: PER_SESSION }, (_, j) => `m${s}x${j}`));
    }
  });

  it('polls Telegram on one instance only; SIGKILL of the holder hands the door over and its message is answered once', async () => {
    const store = await db!.open();
    try {
      const holderOf = async () => {
        const lease = await store.leases.get('door:telegram');
        return lease && lease.expiresAt > Date.now() ? lease.holder : null;
      };
      const first = await holderOf();
      expect(instances.map((i) => i.id)).toContain(first);
      const standby = instances.filter((i) => i.id !== first);
      for (const i of standby) expect(i.gw.stderr()).toMatch(/ready \(telegram \(standby\)/);

      // A Telegram message while the door holder works on it (the model takes 4 s) …
      const calls = model.requests.length;
      tg.pushText({ text: 'a slow question', userId: 4242 });
      await until(() => model.requests.slice(calls).some((r) => /slow question/.test(lastUserText(r))), 10_000, 'the holder to ask the model');
      const holder = instances.find((i) => i.id === first)!;
      // … dies with it.
      await holder.gw.stop('SIGKILL');
      const killedAt = Date.now();
      let next: string | null = null;
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        next = await holderOf();
        if (next && next !== first) break;
        await sleep(100);
      }
      expect(next).not.toBe(first);
      expect(standby.map((i) => i.id)).toContain(next);
      expect(Date.now() - killedAt).toBeLessThan(30_000);
      const answers = () => tg.sent.filter((m) => m.chatId === '4242' && /slow question/.test(m.plain));
      await until(() => answers().length >= 1, 20_000, 'the killed instance’s message answered by another');
      await sleep(1500);
      expect(answers()).toHaveLength(1);
      // The door is polled by one instance at a time: no getUpdates was cut off by another.
      expect(tg.conflicts).toBe(0);
      // A new message goes through the new holder.
      tg.pushText({ text: 'after the failover', userId: 4343 });
      await until(() => tg.sent.some((m) => m.chatId === '4343'), 10_000, 'an answer after the failover');

      // doctor names the live instances and who holds the door.
      const doctor = await runCli(['doctor'], { env: { ...cleanEnv({ DATABASE_URL: db!.location, SWITCHBOARD_HOME: homes[0], SWITCHBOARD_CONFIG: join(db!.home, 'config.yaml') }) } });
      expect(doctor.stdout).toMatch(/instances: 2 live: /);
      expect(doctor.stdout).toContain(`door:telegram → ${next}`);
    } finally {
      await store.close();
    }
  });

  it('stops cleanly: each instance leaves the instances table and gives its leases up', async () => {
    const store = await db!.open();
    try {
      for (const i of instances) if (i.gw.child.exitCode === null && i.gw.child.signalCode === null) expect(await i.gw.stop('SIGTERM')).toBe(0);
      const alive = new Set(['inst-a', 'inst-b', 'inst-c']);
      const rows = (await store.instances.list()).filter((r) => r.expiresAt > Date.now());
      expect(rows).toEqual([]);
      expect((await store.leases.list()).filter((l) => l.expiresAt > Date.now() && alive.has(l.holder))).toEqual([]);
      expect(tg.conflicts).toBe(0);
    } finally {
      await store.close();
    }
  });
});

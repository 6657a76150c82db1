import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboundMessage } from '../../src/core/types.js';
import { startTelegramFake, type TelegramFake } from '../fakes/telegram.js';
import { makeAdapter, testConfig } from './telegram-helpers.js';
import { freePort } from '../helpers/ports.js';

let fake: TelegramFake;

beforeAll(async () => {
  fake = await startTelegramFake();
});
afterAll(async () => {
  await fake.close();
});

describe('telegram adapter: webhook mode', () => {
  it('registers the webhook with a secret, checks the header, and answers 200 only after the handler took the update', async () => {
    const port = await freePort();
    const adapter = makeAdapter(fake, {
      config: testConfig(`telegram: { webhook_url: "https://bot.example.com/tg/hook", webhook_port: ${port}, webhook_secret: "s3cret-token" }`),
      webhookHost: '127.0.0.1',
    });
    let release!: () => void;
    const got: InboundMessage[] = [];
    await adapter.start(async (m) => {
      got.push(m);
      await new Promise<void>((r) => (release = r));
    });
    try {
      expect(fake.webhook).toEqual({ url: 'https://bot.example.com/tg/hook', secretToken: 's3cret-token' });
      expect(fake.callsOf('setWebhook')[0].params.allowed_updates).toEqual(['message', 'edited_message', 'callback_query']); // callback_query: approval buttons
      expect(adapter.webhookPort).toBe(port);
      const url = `http://127.0.0.1:${port}/tg/hook`;
      const update = { update_id: 5001, message: fake.makeMessage({ userId: 1001, text: 'via webhook' }) };
      const body = JSON.stringify(update);

      const noSecret = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(noSecret.status).toBe(401);
      const wrongSecret = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'nope' }, body });
      expect(wrongSecret.status).toBe(401);
      expect(got).toHaveLength(0);
      expect((await fetch(`http://127.0.0.1:${port}/elsewhere`, { method: 'POST', body })).status).toBe(404);

      let answered = false;
      const pending = fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 's3cret-token' }, body }).then((r) => {
        answered = true;
        return r.status;
      });
      await expect.poll(() => got.length).toBe(1);
      await new Promise((r) => setTimeout(r, 100));
      expect(answered).toBe(false);
      release();
      expect(await pending).toBe(200);
      expect(got[0]).toMatchObject({ text: 'via webhook', updateId: '5001', userId: '1001', isDirect: true });
      expect(fake.callsOf('getUpdates')).toHaveLength(0);
    } finally {
      await adapter.close();
    }
  });

  it('answers 500 when the handler fails, so Telegram delivers the update again', async () => {
    const port = await freePort();
    const adapter = makeAdapter(fake, {
      config: testConfig(`telegram: { webhook_url: "https://bot.example.com/hook", webhook_port: ${port} }`),
      webhookHost: '127.0.0.1',
    });
    await adapter.start(async () => {
      throw new Error('database is locked');
    });
    try {
      // Without a configured secret a random one is generated and registered.
      const secret = fake.webhook?.secretToken ?? '';
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      const res = await fetch(`http://127.0.0.1:${port}/hook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret },
        body: JSON.stringify({ update_id: 5002, message: fake.makeMessage({ userId: 1001, text: 'x' }) }),
      });
      expect(res.status).toBe(500);
    } finally {
      await adapter.close();
    }
  });
});

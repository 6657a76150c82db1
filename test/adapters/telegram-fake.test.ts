/**
 * The fake Bot API must refuse what Telegram refuses, or adapter tests prove nothing.
 * These talk to it over HTTP the way any client would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTelegramHtml } from '../fakes/telegram-html.js';
import { startTelegramFake, type TelegramFake } from '../fakes/telegram.js';

let fake: TelegramFake;
beforeAll(async () => {
  fake = await startTelegramFake({ maxPollHoldMs: 400 });
});
afterAll(async () => {
  await fake.close();
});

async function call(method: string, params: Record<string, unknown> = {}, token = fake.token) {
  const res = await fetch(`${fake.url}/bot${token}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(params),
  });
  return { status: res.status, body: (await res.json()) as { ok: boolean; result?: unknown; description?: string; error_code?: number; parameters?: { retry_after?: number } } };
}

describe('telegram fake: HTML like Telegram', () => {
  it.each([
    ['<b>bold <i>both</i></b> <a href="https://e.test/?a=1&amp;b=2">link</a> <code>x</code> <pre><code class="language-ts">y</code></pre>', 'bold both link x y'],
    ['<strong>s</strong><em>e</em><ins>i</ins><del>d</del><strike>s</strike><s>s</s><u>u</u><tg-spoiler>t</tg-spoiler><span class="tg-spoiler">p</span>', 'seidssutp'],
    ['<blockquote expandable>q</blockquote>', 'q'],
    ['1 &lt; 2 &amp;&amp; 3 &gt; 2 &quot;ok&quot; &#65;&#x42;', '1 < 2 && 3 > 2 "ok" AB'],
    ['&nbsp;&copy; stay literal', '&nbsp;&copy; stay literal'],
    ['AT&T & co', 'AT&T & co'],
  ])('accepts %s', (html, text) => {
    expect(parseTelegramHtml(html)).toMatchObject({ ok: true, text });
  });

  it.each([
    ['line<br>break', 'Unsupported start tag "br" at byte offset 4'],
    ['<h1>Title</h1>', 'Unsupported start tag "h1" at byte offset 0'],
    ['1 < 2', 'Unsupported start tag "" at byte offset 2'],
    ['é<p>', 'Unsupported start tag "p" at byte offset 2'],
    ['<b>x</i>', 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"'],
    ['<b><i>x</b></i>', 'Unmatched end tag at byte offset 7, expected "</i>", found "</b>"'],
    ['<b>never closed', 'Can\'t find end tag corresponding to start tag "b"'],
    ['x</b>', 'Unexpected end tag at byte offset 1'],
    ['<span>s</span>', 'Tag "span" must have class "tg-spoiler" at byte offset 0'],
    ['<b', 'Unclosed start tag at byte offset 0'],
  ])('refuses %s', (html, error) => {
    expect(parseTelegramHtml(html)).toEqual({ ok: false, error });
  });

  it('sendMessage answers with Telegram error texts and limits counted after entity parsing', async () => {
    const bad = await call('sendMessage', { chat_id: 1, text: 'a <br> b', parse_mode: 'HTML' });
    expect(bad).toEqual({ status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: can\'t parse entities: Unsupported start tag "br" at byte offset 2' } });
    expect((await call('sendMessage', { chat_id: 1, text: `<b>${'a'.repeat(4096)}</b>`, parse_mode: 'HTML' })).status).toBe(200);
    expect((await call('sendMessage', { chat_id: 1, text: '&amp;'.repeat(4096), parse_mode: 'HTML' })).status).toBe(200);
    expect((await call('sendMessage', { chat_id: 1, text: '😀'.repeat(2049) })).body.description).toBe('Bad Request: message is too long');
    expect((await call('sendMessage', { chat_id: 1, text: 'a'.repeat(4097) })).body.description).toBe('Bad Request: message is too long');
    expect((await call('sendMessage', { chat_id: 1, text: '<b> </b>', parse_mode: 'HTML' })).body.description).toBe('Bad Request: message text is empty');
    expect((await call('sendMessage', { chat_id: 1, text: '' })).body.description).toBe('Bad Request: message text is empty');
    const reply = await call('sendMessage', { chat_id: 1, text: 'x', reply_parameters: { message_id: 999999 } });
    expect(reply.body.description).toBe('Bad Request: message to be replied not found');
  });

  it('accepts form-encoded and multipart bodies too', async () => {
    const before = fake.sent.length;
    await fetch(`${fake.url}/bot${fake.token}/sendMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ chat_id: '7', text: '<i>form</i>', parse_mode: 'HTML' }).toString(),
    });
    const form = new FormData();
    form.set('chat_id', '8');
    form.set('text', 'multi\r\npart');
    form.set('reply_parameters', JSON.stringify({ message_id: 1, allow_sending_without_reply: true }));
    const res = await fetch(`${fake.url}/bot${fake.token}/sendMessage`, { method: 'POST', body: form });
    expect(res.status).toBe(200);
    expect(fake.sent.slice(before).map((m) => [m.chatId, m.plain, m.replyToMessageId])).toEqual([
      ['7', 'form', undefined],
      ['8', 'multi\r\npart', 1],
    ]);
  });

  it('401 for an unknown token, 429 with retry_after on demand', async () => {
    expect(await call('getMe', {}, fake.badToken)).toEqual({ status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } });
    fake.failNext('getMe', { kind: 'rate_limit', retryAfter: 3 });
    const limited = await call('getMe');
    expect(limited.body).toEqual({ ok: false, error_code: 429, description: 'Too Many Requests: retry after 3', parameters: { retry_after: 3 } });
    expect((await call('getMe')).body.result).toMatchObject({ id: fake.bot.id, is_bot: true, username: fake.bot.username });
  });
});

describe('telegram fake: getUpdates', () => {
  it('confirms below offset and long-polls until an update arrives or the timeout', async () => {
    const a = fake.pushText({ text: 'a' });
    const b = fake.pushText({ text: 'b' });
    const first = await call('getUpdates', { timeout: 0 });
    expect((first.body.result as { update_id: number }[]).map((u) => u.update_id)).toEqual([a, b]);
    const again = await call('getUpdates', { offset: b, timeout: 0 });
    expect((again.body.result as { update_id: number }[]).map((u) => u.update_id)).toEqual([b]);
    expect(fake.confirmedOffset).toBe(b);

    const t0 = Date.now();
    const empty = await call('getUpdates', { offset: b + 1, timeout: 30 });
    expect(empty.body.result).toEqual([]);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(350); // held (bounded by maxPollHoldMs)

    const held = call('getUpdates', { offset: b + 1, timeout: 30 });
    await new Promise((r) => setTimeout(r, 50));
    const c = fake.pushText({ text: 'c' });
    expect(((await held).body.result as { update_id: number }[]).map((u) => u.update_id)).toEqual([c]);
    await call('getUpdates', { offset: c + 1, timeout: 0 });
    expect(fake.pendingUpdates).toHaveLength(0);
  });

  it('refuses getUpdates while a webhook is set', async () => {
    await call('setWebhook', { url: 'https://x.test/hook' });
    expect((await call('getUpdates')).status).toBe(409);
    await call('deleteWebhook');
    expect((await call('getUpdates')).status).toBe(200);
  });
});

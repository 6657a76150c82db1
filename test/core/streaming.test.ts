/**
 * Streaming policy (ARCHITECTURE.md §10): partial Markdown rendered with its open constructs closed (valid
 * for every platform, through the real renderer), the modes each door offers, and config errors for
 * a mode a platform does not have.
 */
import { describe, expect, it } from 'vitest';
import { closeOpenMarkdown } from '../../src/core/streaming/partial.js';
import { configuredMode } from '../../src/core/streaming/mode.js';
import { chatConfigFor } from '../../src/core/chats.js';
import type { PlatformId } from '../../src/platform/ids.js';
import { parseConfig } from '../../src/core/config.js';
import { renderFor } from '../../src/render/index.js';
import { parseTelegramHtml } from '../fakes/telegram-html.js';

describe('closeOpenMarkdown', () => {
  it.each([
    ['Some **bold', 'Some **bold**'],
    ['Some **bold ', 'Some **bold**'],
    ['an *emphasis', 'an *emphasis*'],
    ['run `npm', 'run `npm`'],
    ['```ts\nconst a = 1;', '```ts\nconst a = 1;\n```'],
    ['done **here** and *there*.', 'done **here** and *there*.'],
    ['2 * 3 = 6', '2 * 3 = 6'],
    ['**a** then\n\n**b', '**a** then\n\n**b**'],
  ])('%j → %j', (input, output) => {
    expect(closeOpenMarkdown(input)).toBe(output);
  });

  it('every prefix of a realistic answer renders to Telegram HTML that Telegram accepts', () => {
    const answer =
      '## Plan\n\nHere is **the plan** with `code`, a [link](https://example.com/a_b) and *emphasis*:\n\n- one\n- two **bold item**\n\n```ts\nconst x = a < b && c > d;\n```\n\n> quoted _text_ here\n\n| a | b |\n|---|---|\n| 1 | 2 |\n';
    for (let i = 1; i <= answer.length; i++) {
      for (const chunk of renderFor('telegram', closeOpenMarkdown(answer.slice(0, i))).chunks) {
        const parsed = parseTelegramHtml(chunk);
        expect(parsed.ok, `prefix ${i}: ${chunk}`).toBe(true);
      }
    }
  });
});

describe('streaming modes', () => {
  const config = (yaml: string) => parseConfig(yaml, 'config.yaml');

  it('defaults: telegram auto, slack auto, discord edit; e-mail and cron never stream; a chat overrides its platform', () => {
    const c = config('chats:\n  "telegram:-100":\n    streaming: off\n');
    expect(c.streaming).toEqual({ telegram: 'auto', slack: 'auto', discord: 'edit' });
    const mode = (address: { platform: PlatformId; chatId: string }) => configuredMode(c, address.platform, chatConfigFor(c, address));
    expect(mode({ platform: 'telegram', chatId: '5' })).toBe('auto');
    expect(mode({ platform: 'telegram', chatId: '-100' })).toBe('off');
    expect(mode({ platform: 'email', chatId: 'a@example.com' })).toBe('off');
    expect(mode({ platform: 'cron', chatId: 'job' })).toBe('off');
    expect(config('streaming:\n  telegram: off\n').streaming.telegram).toBe('off');
  });

  it('a mode the platform does not offer is one config error naming the setting', () => {
    expect(() => config('streaming:\n  discord: draft\n')).toThrow(/^config.yaml: 'streaming.discord'/);
    expect(() => config('streaming:\n  telegram: native\n')).toThrow(/'streaming.telegram'/);
    expect(() => config('chats:\n  "discord:123":\n    streaming: auto\n')).toThrow(/^config.yaml: 'chats.discord:123.streaming' discord offers 'edit', 'off', not 'auto'$/);
    expect(() => config('chats:\n  "email:a@example.com":\n    streaming: edit\n')).toThrow(/email offers 'off'/);
    expect(() => config('streaming:\n  email: edit\n')).toThrow(/unknown setting 'streaming.email'/);
  });
});

/**
 * TELEGRAM_WEBHOOK_URL / _PORT / _SECRET override the config file's `telegram.webhook_*` (ARCHITECTURE.md §4):
 * one config for several instances, each on its own port; a bad value is one line naming the variable.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings } from '../../src/core/settings.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'sb-webhook-env-'));
  writeFileSync(join(home, 'config.yaml'), 'telegram:\n  webhook_url: https://bot.example.com/tg\n  webhook_port: 8443\n  webhook_secret: from-the-file\n');
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const load = (extra: Record<string, string>) => loadSettings({ SWITCHBOARD_HOME: home, TELEGRAM_BOT_TOKEN: '1:abc', ...extra });

describe('Telegram webhook settings from the environment', () => {
  it('keeps the file’s values when the variables are unset', () => {
    expect(load({}).config.telegram).toMatchObject({ webhook_url: 'https://bot.example.com/tg', webhook_port: 8443, webhook_secret: 'from-the-file' });
  });

  it('lets each variable override its key, and hides the secret from the log', () => {
    const s = load({ TELEGRAM_WEBHOOK_URL: 'https://b2.example.com/hook/', TELEGRAM_WEBHOOK_PORT: '9001', TELEGRAM_WEBHOOK_SECRET: 'env_Secret-123' });
    expect(s.config.telegram).toMatchObject({ webhook_url: 'https://b2.example.com/hook/', webhook_port: 9001, webhook_secret: 'env_Secret-123' });
    expect(s.secrets).toContain('env_Secret-123');
    // Only the port: the rest stays as in the file.
    expect(load({ TELEGRAM_WEBHOOK_PORT: '9002' }).config.telegram).toMatchObject({ webhook_url: 'https://bot.example.com/tg', webhook_port: 9002, webhook_secret: 'from-the-file' });
  });

  it('refuses bad values with one line naming the variable', () => {
    expect(() => load({ TELEGRAM_WEBHOOK_URL: 'not a url' })).toThrow(/^TELEGRAM_WEBHOOK_URL: 'not a url' is not a URL$/);
    expect(() => load({ TELEGRAM_WEBHOOK_PORT: '70000' })).toThrow(/^TELEGRAM_WEBHOOK_PORT: '70000' is not a port number/);
    expect(() => load({ TELEGRAM_WEBHOOK_SECRET: 'has spaces in it' })).toThrow(/^TELEGRAM_WEBHOOK_SECRET: 1-256 characters/);
  });
});

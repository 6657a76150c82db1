/** The memory tool refuses credentials (src/core/memory/secrets.ts, ARCHITECTURE.md §7b least privilege). */
import { describe, expect, it } from 'vitest';
import { secretKind } from '../../../src/core/memory/secrets.js';

describe('secretKind', () => {
  it('names entries that hold a key, token, private key or password', () => {
    const secrets = [
      'User’s OpenAI key: sk-proj-AbCdEfGhIjKlMnOpQrStUvWx1234',
      'Deploy token ghp_abcdefghijklmnopqrstuvwxyz0123456789',
      'AWS: AKIAIOSFODNN7EXAMPLE',
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA',
      'Slack bot xoxb-1234567890-abcdefghij',
      'The wifi password is Hunter2-Lisbon!',
      'password: S3cr3t!pass',
      'DB url postgres://app:pa55word@db.internal:5432/app',
      'Sein Passwort ist Sommer2024!',
      'пароль: Qwerty_2024',
      '密码是 abc12345XYZ',
      'Telegram bot 123456789:AAFakeFakeFakeFakeFakeFakeFakeFake12',
    ];
    for (const s of secrets) expect(secretKind(s), s).not.toBeNull();
  });

  it('lets entries about secrets through', () => {
    const fine = [
      'User keeps all passwords in 1Password and does not want me to store any of them.',
      'User rotates their API keys every 90 days.',
      'password: stored in the team vault',
      'User’s favourite token in the game is the red dragon.',
      'Prefers answers in German; works on the billing service.',
      'The env var is OPENAI_API_KEY (value not shared).',
      'User asked for a reminder to renew the TLS certificate.',
    ];
    for (const s of fine) expect(secretKind(s), s).toBeNull();
  });
});

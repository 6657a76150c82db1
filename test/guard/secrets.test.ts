/** The redactor (ARCHITECTURE.md §17): every credential shape goes, ordinary identifiers and code stay. */
import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED, SHAPES_REDACTOR } from '../../src/core/secrets/redact.js';
import { redactRequest } from '../../src/core/secrets/provider.js';

const SECRETS: Record<string, string> = {
  'OpenAI project key': 'OPENAI_API_KEY=sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z',
  'OpenAI key in prose': 'the key sk-Zq8rT5uV2wX9yA6bC3dE0fG7hJ4kL1mN is old',
  'Anthropic key': 'sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe-abc',
  'AWS key id': 'AKIAQ3EXAMPLE7TESTAB',
  'AWS STS key id': 'ASIAZ7Y6X5W4V3U2T1S0',
  'AWS secret assignment': 'aws_secret_access_key = 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',
  'GitHub classic token': 'ghp_1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvWxYz',
  'GitHub OAuth token': 'gho_1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvWxYz',
  'GitHub fine-grained token': 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123',
  'Slack bot token': 'xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx',
  'Slack user token': 'xoxp-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx',
  'Slack app token': 'xapp-1-A0123456789-0123456789012-abcdef0123456789',
  'Telegram bot token': '1234567890:AAHk3mPq9ZxYw2VuTs8RqPo7NmLk6JiHg5F',
  JWT: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  'PEM private key': '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB\naFDrBz9vFqU4yCBzA==\n-----END RSA PRIVATE KEY-----',
  'password=': 'password=Tr0ub4dor-and-3',
  'secret:': 'client_secret: s3cr3tValue99',
  'token=': 'token=Abc123xyz789QQ',
  'quoted JSON': '"apiKey": "Zt7-Hw2kQp9LmX4v"',
  'URL password': 'postgres://app:Hunter2Secret@db.internal:5432/app',
  'bearer header': 'Authorization: Bearer AbCdEf0123456789GhIjKlMn',
};

/** Real-file text that holds no secret. */
const NOT_SECRETS = [
  'commit 3f786850e387550fdab836ed7e6dc881de23001b',
  'id 123e4567-e89b-12d3-a456-426614174000',
  'sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  'const token = getToken(request);',
  'apiKey: process.env.OPENAI_API_KEY,',
  'password: string;',
  'DB_PASSWORD=${DB_PASSWORD}',
  'token: config.auth.token',
  'Set OPENAI_API_KEY=your-api-key-here in .env',
  'password: ********',
  'Rotate the secret key monthly; passwords live in 1Password.',
  'the sk-learn style guide and task-runner options',
  'Use `secret: true` on sensitive inputs.',
  'version: 1.2.3-beta.4, port: 8080',
  'https://github.com/org/repo/blob/main/README.md',
];

describe('redactor', () => {
  for (const [name, text] of Object.entries(SECRETS)) {
    it(`redacts ${name}`, () => {
      const r = SHAPES_REDACTOR.redact(`before ${text} after`);
      expect(r.count).toBeGreaterThanOrEqual(1);
      expect(r.text).toContain(REDACTED);
      expect(r.text.startsWith('before ')).toBe(true);
      expect(r.text.endsWith(' after')).toBe(true);
    });
  }

  it('keeps the name of an assignment and replaces only its value', () => {
    expect(SHAPES_REDACTOR.redact('DB_PASSWORD=Tr0ub4dor-and-3').text).toBe(`DB_PASSWORD=${REDACTED}`);
    expect(SHAPES_REDACTOR.redact('postgres://app:Hunter2Secret@db:5432/app').text).toBe(`postgres://app:${REDACTED}@db:5432/app`);
  });

  it('leaves hashes, UUIDs, git SHAs, code and prose about secrets alone', () => {
    for (const text of NOT_SECRETS) expect(SHAPES_REDACTOR.redact(text), text).toEqual({ text, count: 0, kinds: [] });
  });

  it("replaces the settings' own secrets verbatim, however they look, but not values too short to be safe", () => {
    const r = createRedactor(['plainmodelkeyvalue4417', 'abc']).redact('key plainmodelkeyvalue4417; abc is fine');
    expect(r.text).toBe(`key ${REDACTED}; abc is fine`);
    expect(r.kinds).toEqual(['a configured secret']);
  });

  it('is deterministic and idempotent, so a redacted history replays byte for byte', () => {
    const text = Object.values(SECRETS).join('\n');
    const once = SHAPES_REDACTOR.redact(text).text;
    expect(SHAPES_REDACTOR.redact(text).text).toBe(once);
    expect(SHAPES_REDACTOR.redact(once)).toEqual({ text: once, count: 0, kinds: [] });
  });

  it('redacts every text of a model request and leaves clean parts as the same objects', () => {
    const clean = { name: 'identity', text: 'You are Quill.' };
    const { request, count } = redactRequest(SHAPES_REDACTOR, {
      model: 'm',
      system: [clean, { name: 'context_files', text: 'OPENAI_API_KEY=sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z' }],
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'tool', toolCallId: 't1', name: 'web_fetch', content: 'ghp_1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvWxYz' },
      ],
      tail: 'token=Abc123xyz789QQ',
      tools: [],
      maxOutputTokens: 10,
    });
    expect(count).toBe(3);
    expect(request.system[0]).toBe(clean);
    expect(JSON.stringify(request)).not.toMatch(/sk-proj|ghp_|Abc123/);
  });

  it('redacts 1 MB in well under a second', () => {
    const unit = `${NOT_SECRETS.join('\n')}\n${Object.values(SECRETS).join('\n')}\n`;
    const text = unit.repeat(Math.ceil(1_000_000 / unit.length));
    const t0 = performance.now();
    SHAPES_REDACTOR.redact(text);
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});

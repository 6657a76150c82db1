/**
 * A cron job's `deliver` is parsed once, when the config file is loaded (ARCHITECTURE.md §4b): a target that
 * is no deliverable address is one config error line at load, so `cron run` (and `start`) stop
 * before anything is opened, and no model call is spent on a report that could never be delivered.
 */
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { parseConfig } from '../../../src/core/config.js';
import { ConfigError } from '../../../src/core/errors.js';
import { DELIVERABLE_FORMS } from '../../../src/platform/address.js';
import type { CommandIO } from '../../../src/commands/io.js';
import { startModelFake, type ModelFake } from '../../fakes/model.js';

const job = (deliver: string) => `cron:
  - id: daily-report
    schedule: "0 9 * * 1-5"
    prompt: "Summarise yesterday's open issues."
    deliver: ${deliver}
`;

describe('cron deliver in the config file', () => {
  it.each([
    ['email:not-an-address', "'email:not-an-address' is not a valid email address; expected email:<address>"],
    ['cli:local', `'cli:local' is not an address a reply can be sent to; expected ${DELIVERABLE_FORMS}`],
    ['cron:daily-report', `'cron:daily-report' is not an address a reply can be sent to; expected ${DELIVERABLE_FORMS}`],
    ['telegram:@channel', "'telegram:@channel' is not a valid telegram address; expected telegram:<chat id>[:<topic id>]"],
  ])('%s is a config error at load, naming the setting and the accepted form', (deliver, reason) => {
    expect(() => parseConfig(job(deliver), 'config.yaml')).toThrow(ConfigError);
    expect(() => parseConfig(job(deliver), 'config.yaml')).toThrow(`config.yaml: 'cron.0.deliver' ${reason}`);
  });

  it.each([
    ['email:Alice@Example.com', { platform: 'email', chatId: 'alice@example.com' }],
    ['telegram:-100123:42', { platform: 'telegram', chatId: '-100123', threadId: '42' }],
    ['slack:C0123', { platform: 'slack', chatId: 'C0123' }],
    ['discord:123456789012345678', { platform: 'discord', chatId: '123456789012345678' }],
  ])('%s is parsed into an address once, at load', (deliver, address) => {
    expect(parseConfig(job(deliver), 'config.yaml').cron[0].deliver).toEqual(address);
  });
});

describe('switchboard cron run with a bad deliver', () => {
  let model: ModelFake;
  let home: string;

  beforeAll(async () => {
    model = await startModelFake();
  });
  afterAll(async () => {
    await model.close();
  });
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'sb-cronconfig-'));
  });
  afterEach(() => {
    rmSync(home, { recursive: true, force: true });
  });

  function io(): { io: CommandIO; out: () => string; err: () => string } {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (c: Buffer) => (out += c.toString()));
    stderr.on('data', (c: Buffer) => (err += c.toString()));
    const env: NodeJS.ProcessEnv = {
      SWITCHBOARD_HOME: home,
      SWITCHBOARD_CONFIG: join(home, 'config.yaml'),
      OPENAI_API_KEY: 'test-key',
      OPENAI_BASE_URL: model.openaiUrl,
      MODEL: 'fake-model',
    };
    return { io: { stdin: new PassThrough(), stdout, stderr, env, cwd: home }, out: () => out, err: () => err };
  }

  it.each(['email:not-an-address', 'cli:local'])('deliver: %s stops with a ConfigError before any model call or store', async (deliver) => {
    writeFileSync(join(home, 'config.yaml'), job(deliver));
    const { run } = await import('../../../src/commands/cron-cli.js');
    const before = model.completions().length;
    await expect(run(['run', 'daily-report'], io().io)).rejects.toThrow(ConfigError);
    expect(model.completions().length).toBe(before);
    expect(existsSync(join(home, 'state.db'))).toBe(false);
  });

  it('the same job with a valid address does spend its model call and delivers (the control)', async () => {
    writeFileSync(join(home, 'config.yaml'), job('email:alice@example.com'));
    model.queue({ text: '# Open issues\n\nNothing new.' });
    const { run } = await import('../../../src/commands/cron-cli.js');
    const before = model.completions().length;
    const streams = io();
    expect(await run(['run', 'daily-report'], streams.io)).toBe(0);
    expect(model.completions().length).toBe(before + 1);
    expect(streams.out()).toContain('delivered to email:alice@example.com');
    // Without SMTP_URL the mail is written to $SWITCHBOARD_HOME/outbox/.
    expect(readdirSync(join(home, 'outbox')).filter((f) => f.endsWith('.eml'))).toHaveLength(1);
  });
});

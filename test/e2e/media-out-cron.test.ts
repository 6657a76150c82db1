/**
 * A cron report with a file (ARCHITECTURE.md §15, §4b): `switchboard cron run ID`, the job's run calls
 * send_file, and the report mail arrives over SMTP with the file as a MIME attachment (bytes
 * identical) and the report as its text — never a path or a placeholder in the text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, type ModelFake } from '../fakes/model.js';
import { startSmtpFake, type SmtpFake } from '../fakes/smtp.js';
import { cleanEnv, cleanUp, removeDir, runCli } from '../helpers/cli.js';
import { cronEntry } from './cron-helpers.js';
import { pngFile } from '../helpers/media-files.js';

let model: ModelFake;
let smtp: SmtpFake;
let root: string;
const chart = pngFile(160, 90);

beforeAll(async () => {
  model = await startModelFake({ script: () => ({ text: 'unexpected' }) });
  smtp = await startSmtpFake();
  root = mkdtempSync(join(tmpdir(), 'sb-media-out-cron-'));
});
afterAll(() => cleanUp(() => model?.close(), () => smtp?.close(), () => removeDir(root)));

describe('cron report with a file', () => {
  it('cron run delivers the report mail with the chart attached', async () => {
    const workspace = join(root, 'work');
    mkdirSync(workspace);
    writeFileSync(join(workspace, 'chart.png'), chart);
    const cfg = join(root, 'config.yaml');
    writeFileSync(cfg, ['cron:', cronEntry('weekly-chart', 'email:alice@example.com', 'Send the weekly chart.')].join('\n'));
    model.queue({ toolCalls: [{ name: 'send_file', arguments: { path: 'chart.png', caption: 'Weekly chart' } }] }, { text: '# Weekly chart\n\nSales went up.' });
    const res = await runCli(['cron', 'run', 'weekly-chart'], {
      cwd: workspace,
      timeoutMs: 45_000,
      env: cleanEnv({
        SWITCHBOARD_HOME: join(root, 'home'),
        SWITCHBOARD_CONFIG: cfg,
        OPENAI_BASE_URL: model.openaiUrl,
        OPENAI_API_KEY: 'sk-cron',
        MODEL: 'fake-model',
        EMAIL_FROM: 'Switchboard <bot@example.com>',
        SMTP_URL: smtp.url,
      }),
    });
    expect(res.code, res.stderr).toBe(0);
    const [mail] = await smtp.waitForMessages(1);
    expect(mail.envelope.to).toEqual(['alice@example.com']);
    expect(mail.parsed.subject).toBe('Weekly chart');
    expect(mail.parsed.text).toContain('Sales went up.');
    expect(mail.parsed.text).not.toMatch(/chart\.png|MEDIA:/);
    expect(mail.parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([['chart.png', 'image/png']]);
    expect(mail.parsed.attachments[0].content.equals(chart)).toBe(true);
  }, 60_000);
});

/**
 * A PDF someone sends, through the real `switchboard start` (the bundle in dist/) and grammY against the
 * Telegram fake (ARCHITECTURE.md §15): its text reaches the model as untrusted data. pdf.js runs its worker
 * in the gateway's thread with the worker code loaded up front — the bundle has no `pdf.worker.mjs`
 * beside pdf.js for it to import, and every PDF was "damaged or not a PDF" before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, type ModelFake } from '../fakes/model.js';
import { startTelegramFake, type TelegramFake } from '../fakes/telegram.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, startCli, until, type Running } from '../helpers/cli.js';
import { pdf } from '../media/files.js';
import { doorEnv } from '../helpers/door-env.js';

let model: ModelFake;
let tg: TelegramFake;
let home: string;
const running: Running[] = [];

beforeAll(async () => {
  model = await startModelFake({ script: () => ({ text: 'Read it.' }) });
  tg = await startTelegramFake({ maxPollHoldMs: 300 });
  home = mkdtempSync(join(tmpdir(), 'sb-media-in-pdf-'));
});
afterAll(() => cleanUp(...running.map((r) => () => killIfRunning(r)), () => tg?.close(), () => model?.close(), () => removeDir(home)));

describe('a PDF through switchboard start on Telegram', () => {
  it('reaches the model as its text, marked as data', async () => {
    const gw = startCli(['start'], {
      env: cleanEnv({ SWITCHBOARD_HOME: home, ...doorEnv.model(model), ...doorEnv.telegram(tg, '*') }),
    });
    running.push(gw);
    await gw.waitFor(/ready \(telegram/);
    const file = tg.addFile(pdf([['Quarterly report'], ['Revenue grew by 12 percent']]), { path: 'documents/file_1.pdf' });
    const message: Record<string, unknown> = { ...tg.makeMessage({ userId: 5101 }), document: { ...file, file_name: 'report.pdf', mime_type: 'application/pdf' }, caption: 'summarise' };
    delete message.text;
    tg.pushUpdate({ message });
    await until(() => tg.sent.some((m) => m.chatId === '5101'), 20_000, 'the answer', gw);
    const request = model.completions().find((r) => r.raw.includes('report.pdf'));
    expect(request?.raw).toContain('<document name=\\"report.pdf\\" type=\\"application/pdf\\" untrusted=\\"true\\">\\nQuarterly report\\n\\nRevenue grew by 12 percent\\n</document>');
    expect(tg.sent.find((m) => m.chatId === '5101')?.text).toBe('Read it.');
  }, 40_000);
});

/**
 * Files the agent sends, through the real `switchboard start` and grammY against the Telegram fake
 * (ARCHITECTURE.md §15): send_file from the workspace and from base64 become sendPhoto / sendVoice /
 * sendDocument uploads whose bytes arrive byte-identical, after the answer's text; never a path as
 * text. A process killed while an upload is under way resumes after the last recorded part: the
 * text and the file already accepted are not sent again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startModelFake, type ModelFake } from '../fakes/model.js';
import { startTelegramFake, type TelegramFake } from '../fakes/telegram.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, sleep, startCli, until, type Running } from '../helpers/cli.js';
import { opusFile, pdfFile, pngFile } from '../helpers/media-files.js';
import { doorEnv } from '../helpers/door-env.js';

let model: ModelFake;
let tg: TelegramFake;
let home: string;
let workspace: string;
const running: Running[] = [];
const chart = pngFile(200, 150);
const voice = opusFile(4000);
const report = pdfFile('Outbound media');

beforeAll(async () => {
  model = await startModelFake({ script: () => ({ text: 'ok' }) });
  tg = await startTelegramFake({ maxPollHoldMs: 300 });
  home = mkdtempSync(join(tmpdir(), 'sb-media-out-tg-'));
  workspace = join(home, 'work');
  mkdirSync(join(workspace, 'out'), { recursive: true });
  writeFileSync(join(workspace, 'out', 'chart.png'), chart);
  writeFileSync(join(workspace, 'notes.txt'), 'secret notes');
  writeFileSync(join(home, 'config.yaml'), 'streaming:\n  telegram: off\n');
});
afterAll(() => cleanUp(...running.map((r) => () => killIfRunning(r)), () => tg?.close(), () => model?.close(), () => removeDir(home)));

function start(): Running {
  const gw = startCli(['start'], {
    cwd: workspace,
    env: cleanEnv({ SWITCHBOARD_HOME: home, ...doorEnv.model(model), ...doorEnv.telegram(tg, '*') }),
  });
  running.push(gw);
  return gw;
}

const toolResults = () =>
  model
    .completions()
    .flatMap((r) => (r.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'tool').map((m) => m.content));

describe('send_file through switchboard start on Telegram', () => {
  it('sends a workspace image as a photo, base64 audio as a voice note and a PDF as a document, bytes identical, after the text', async () => {
    const gw = start();
    await gw.waitFor(/ready \(telegram/);
    model.queue(
      {
        toolCalls: [
          { name: 'send_file', arguments: { path: 'out/chart.png', caption: 'Sales by month' } },
          { name: 'send_file', arguments: { data: voice.toString('base64'), name: 'note.ogg' } },
          { name: 'send_file', arguments: { data: report.toString('base64'), name: 'report.pdf', caption: 'The report' } },
          { name: 'send_file', arguments: { path: '../config.yaml' } },
        ],
      },
      { text: 'Here are your **files**.' },
    );
    tg.pushText({ text: 'send me the chart', userId: 5001 });
    await until(() => tg.files.filter((f) => f.chatId === '5001').length >= 3, 15_000, 'three files', gw);
    await sleep(500); // a part sent twice would show up now
    const files = tg.files.filter((f) => f.chatId === '5001');
    expect(files.map((f) => [f.method, f.filename, f.caption])).toEqual([
      ['sendPhoto', 'chart.png', 'Sales by month'],
      ['sendVoice', 'note.ogg', undefined],
      ['sendDocument', 'report.pdf', 'The report'],
    ]);
    expect(files[0].data.equals(chart)).toBe(true);
    expect(files[1].data.equals(voice)).toBe(true);
    expect(files[2].data.equals(report)).toBe(true);
    // the text first, once; no path, no placeholder as text
    const texts = tg.sent.filter((m) => m.chatId === '5001').map((m) => m.plain);
    expect(texts).toEqual(['Here are your files.']);
    expect(texts.join(' ')).not.toMatch(/chart\.png|out\/|MEDIA:/);
    const visible = tg.visible.filter((v) => v.chatId === '5001').map((v) => v.plain);
    expect(visible[0]).toBe('Here are your files.');
    // a path outside the workspace is refused to the model in one line, nothing sent for it
    expect(toolResults().find((c) => c.includes('config.yaml'))).toMatch(/^Error: \.\.\/config\.yaml is outside the workspace/);
    expect(await gw.stop('SIGTERM')).toBe(0);
  }, 45_000);

  it('after a SIGKILL during an upload, resumes after the last recorded part: the text and the first file are not sent again', async () => {
    let gw = start();
    await gw.waitFor(/ready \(telegram/);
    model.queue(
      {
        toolCalls: [
          { name: 'send_file', arguments: { path: 'out/chart.png' } },
          { name: 'send_file', arguments: { data: report.toString('base64'), name: 'second.pdf' } },
        ],
      },
      { text: 'Two files for you.' },
    );
    // The second upload is never answered: the process dies while it is under way.
    tg.failNext('sendDocument', 'hang');
    const documentsBefore = tg.callsOf('sendDocument').length;
    tg.pushText({ text: 'two files please', userId: 5002 });
    await until(() => tg.callsOf('sendDocument').length > documentsBefore, 15_000, 'the second upload under way', gw);
    // The photo's confirmation is recorded before the next part goes (the outbox records in order).
    const outbox = () => {
      const db = new Database(join(home, 'state.db'), { readonly: true });
      try {
        return db.prepare("SELECT next_chunk, status, message FROM outbox WHERE chat_id = '5002'").get() as { next_chunk: number; status: string; message: string };
      } finally {
        db.close();
      }
    };
    await until(() => outbox().next_chunk >= 2, 5000, 'the photo recorded', gw);
    expect(await gw.stop('SIGKILL')).toBeNull();
    const row = outbox();
    expect(row.status).toBe('pending');
    // only references in the outbox: no bytes, no path
    expect(row.message).not.toContain(report.toString('base64').slice(0, 40));
    expect(row.message).not.toContain(workspace);
    expect(JSON.parse(row.message).files).toHaveLength(2);

    gw = start();
    await gw.waitFor(/ready \(telegram/);
    await until(() => tg.files.filter((f) => f.chatId === '5002').length >= 2, 20_000, 'the second file after restart', gw);
    await sleep(1000);
    expect(tg.sent.filter((m) => m.chatId === '5002').map((m) => m.plain)).toEqual(['Two files for you.']);
    const files = tg.files.filter((f) => f.chatId === '5002');
    expect(files.map((f) => f.filename)).toEqual(['chart.png', 'second.pdf']);
    expect(files[1].data.equals(report)).toBe(true);
    expect(outbox().status).toBe('sent');
    expect(await gw.stop('SIGTERM')).toBe(0);
  }, 60_000);
});

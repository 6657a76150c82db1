/**
 * Files the agent sends on Slack, through the real `switchboard start` (Bolt's HTTP receiver, the Web
 * API at the Slack fake): send_file becomes Slack's external upload — files.getUploadURLExternal, the
 * bytes POSTed to the upload URL the fake returned, files.completeUploadExternal into the thread with
 * the caption as comment — after the answer's text, the bytes identical.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, type ModelFake } from '../fakes/model.js';
import { eventBody, postSigned, startSlackFake, type SlackFake } from '../fakes/slack.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, sleep, startCli, until, type Running } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { pdfFile, pngFile } from '../helpers/media-files.js';
import { doorEnv } from '../helpers/door-env.js';

const SECRET = 'e2e-signing-secret';
let model: ModelFake;
let slack: SlackFake;
let home: string;
let gw: Running;
let events: string;
const chart = pngFile(120, 80);
const report = pdfFile('Slack report');

beforeAll(async () => {
  model = await startModelFake({ script: () => ({ text: 'ok' }) });
  slack = await startSlackFake({ users: { U1001: { name: 'alice' } } });
  home = mkdtempSync(join(tmpdir(), 'sb-media-out-slack-'));
  const workspace = join(home, 'work');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'chart.png'), chart);
  writeFileSync(join(home, 'config.yaml'), 'streaming:\n  slack: off\n');
  const port = await freePort();
  events = `http://127.0.0.1:${port}/slack/events`;
  gw = startCli(['start'], {
    cwd: workspace,
    env: cleanEnv({
      SWITCHBOARD_HOME: home,
      ...doorEnv.model(model),
      ...doorEnv.slack(slack, { allowed: 'U1001', http: { secret: SECRET, port } }),
    }),
  });
  await gw.waitFor(/ready \(slack/);
});
afterAll(() => cleanUp(() => killIfRunning(gw), () => slack?.close(), () => model?.close(), () => removeDir(home)));

describe('send_file through switchboard start on Slack', () => {
  it('uploads each file by the external upload sequence into the thread, bytes identical, after the text', async () => {
    model.queue(
      {
        toolCalls: [
          { name: 'send_file', arguments: { path: 'chart.png', caption: 'The chart' } },
          { name: 'send_file', arguments: { data: report.toString('base64'), name: 'report.pdf' } },
        ],
      },
      { text: 'Both files are below.' },
    );
    const ts = '1710000001.000100';
    const res = await postSigned(events, SECRET, eventBody({ type: 'message', channel: 'D0MEDIA', channel_type: 'im', user: 'U1001', text: 'files please', ts }));
    expect(res.status).toBe(200);
    await until(() => slack.uploads.filter((u) => u.completed).length >= 2, 15_000, 'two completed uploads', gw);
    await sleep(300);
    const uploads = slack.uploads;
    expect(uploads.map((u) => [u.filename, u.channel, u.initial_comment, u.completed])).toEqual([
      ['chart.png', 'D0MEDIA', 'The chart', true],
      ['report.pdf', 'D0MEDIA', undefined, true],
    ]);
    expect(uploads[0].thread_ts).toBe(slack.messages[0].thread_ts);
    expect(uploads[0].data?.equals(chart)).toBe(true);
    expect(uploads[1].data?.equals(report)).toBe(true);
    // the sequence, in order per file, with the declared length
    const seq = slack.calls.filter((c) => c.method.startsWith('files.') || c.method === 'chat.postMessage').map((c) => c.method);
    expect(seq).toEqual(['chat.postMessage', 'files.getUploadURLExternal', 'files.completeUploadExternal', 'files.getUploadURLExternal', 'files.completeUploadExternal']);
    expect(Number(slack.callsTo('files.getUploadURLExternal')[0].params.length)).toBe(chart.length);
    expect(slack.messages.map((m) => m.text)).toEqual(['Both files are below.']);
  });
});

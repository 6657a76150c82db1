import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { slackAttachments, slackFetcher } from '../../src/adapters/slack/attachments.js';
import { discordAttachments, discordFetcher } from '../../src/adapters/discord/attachments.js';
import { AttachmentError } from '../../src/core/media/errors.js';

const BYTES = Buffer.from('%PDF-1.4 not really');
let server: Server;
let base: string;
const limits = { maxBytes: 1000, timeoutMs: 2000 };

beforeAll(async () => {
  // Slack's url_private answers only with the bot token; Discord's CDN serves attachments/<channel>/<id>/<name>.
  server = createServer((req, res) => {
    if (req.url?.startsWith('/files-pri/')) {
      if (req.headers.authorization !== 'Bearer xoxb-right') return res.writeHead(302, { location: 'https://slack.com/login' }).end();
      return res.writeHead(200, { 'content-length': String(BYTES.length) }).end(BYTES);
    }
    if (req.url?.startsWith('/attachments/')) return res.writeHead(200).end(BYTES);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => server.close());

describe('Slack files', () => {
  it('reports url_private files (a voice clip as a voice note) and fetches them with the bot token only', async () => {
    const files = slackAttachments([
      { id: 'F1', name: 'report.pdf', mimetype: 'application/pdf', size: 19, url_private: `${base}/files-pri/T1-F1/report.pdf` },
      { id: 'F2', name: 'audio_message.webm', mimetype: 'audio/webm', subtype: 'slack_audio', size: 5, duration_ms: 4200, url_private: `${base}/files-pri/T1-F2/a.webm` },
      { id: 'F3', name: 'no url' },
    ]);
    expect(files.map((f) => [f.kind, f.name, f.durationSeconds])).toEqual([['document', 'report.pdf', undefined], ['voice', 'audio_message.webm', 4.2]]);
    const right = slackFetcher('xoxb-right', `${base}/api/`);
    expect(Buffer.from(await right.fetch(files[0], limits)).equals(BYTES)).toBe(true);
    await expect(slackFetcher('xoxb-wrong', `${base}/api/`).fetch(files[0], limits)).rejects.toThrow(/answered 302/);
    await expect(right.fetch({ ...files[0], ref: 'https://evil.example/x.pdf' }, limits)).rejects.toThrow(AttachmentError);
  });
});

describe('Discord attachments', () => {
  it('reports CDN attachments (a voice message as a voice note) and fetches only from the CDN', async () => {
    const files = discordAttachments(
      [{ filename: 'voice-message.ogg', content_type: 'audio/ogg', size: 19, duration_secs: 3.5, url: `${base}/attachments/1/2/voice-message.ogg` }],
      1 << 13,
    );
    expect(files).toEqual([{ kind: 'voice', name: 'voice-message.ogg', declaredMime: 'audio/ogg', declaredSize: 19, durationSeconds: 3.5, ref: `${base}/attachments/1/2/voice-message.ogg` }]);
    const fetcher = discordFetcher(`${base}/api/v10`);
    expect(Buffer.from(await fetcher.fetch(files[0], limits)).equals(BYTES)).toBe(true);
    await expect(fetcher.fetch({ ...files[0], ref: 'http://169.254.169.254/latest' }, limits)).rejects.toThrow(/not on Discord's CDN/);
    await expect(fetcher.fetch({ ...files[0], ref: `${base}/attachments/too-big` }, { ...limits, maxBytes: 5 })).rejects.toThrow(/media.max_bytes/);
  });
});

/**
 * Media (issue 39, ARCHITECTURE.md §15): what people send, through the real gateway. Switchboard runs in this
 * process (bench/pipeline.ts: createApp and the Telegram adapter); the Telegram fake (serving the files as
 * getFile + /file/bot…), the model fake (answering at once) and a loopback `/audio/transcriptions` fake
 * (answering at once) run in a child process — this same file, forked — which also makes the files, so
 * the process measured holds only the gateway:
 * - photo (4 MP JPEG made with sharp): update pushed → the model request carrying the image part arrives;
 *   that is fetch from the platform host, sniff, sharp re-encode, store and the request, p50/p95;
 * - voice note of 10 s (espeak-ng + ffmpeg, OGG/Opus): the same span minus the transcription fake's own
 *   time (request in → answer out), p50/p95; skipped with a note without espeak-ng or ffmpeg;
 * - resident memory growth of the gateway over 200 more photos (distinct, each its own session), after gc;
 * - a 50-page PDF to text through src/media/pdf.ts (loading pdf.js timed apart, then the first PDF and a warm median);
 * - an earlier image on later turns: its part in the 1st and 3rd request of a session, byte for byte.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startPipeline } from './pipeline.js';
import { percentile, round } from './util.js';

const PHOTOS = 25;
const VOICES = 20;
const MEMORY_PHOTOS = 200;
const PDF_PAGES = 50;

export interface MediaBench {
  photos: number;
  /** Update pushed → model request with the image part arrived, ms. */
  photoP50Ms: number;
  photoP95Ms: number;
  /** Bytes of the 4 MP JPEG sent, and of its image part in the request (base64 data URL). */
  photoBytes: number;
  imagePartBytes: number;
  voice: { notes: number; seconds: number; p50Ms: number; p95Ms: number; backendP50Ms: number } | { skipped: string };
  memory: { photos: number; beforeMiB: number; afterMiB: number; growthMiB: number };
  /** loadMs: importing pdf.js (once per process); firstMs: the first PDF after that; warmMs: median of 5 more. */
  pdf: { pages: number; chars: number; loadMs: number; firstMs: number; warmMs: number };
  /**
   * The first PDF in a fresh process (plain Node on dist/), median of 3 processes each: `coldMs` loading
   * pdf.js with it (as the gateway does: it loads pdf.js when a turn holds a document), `warmedMs` after
   * a warm-up beforehand (`warmUpMs`), which the gateway does not do (it would hold pdf.js in every gateway).
   */
  pdfFirst: { coldMs: number; warmedMs: number; warmUpMs: number } | { skipped: string };
  /** The image part of the 1st and of the 3rd request of one session, byte for byte. */
  laterTurns: { identical: boolean; partBytes: number };
  loadAverage: number;
}

// ---------------------------------------------------------------- child: fakes and files

type HostCommand =
  | { cmd: 'photo'; userId: number }
  | { cmd: 'voice'; userId: number }
  | { cmd: 'laterTurns'; userId: number }
  | { cmd: 'close' };

interface HostReady {
  ready: true;
  telegram: { url: string; token: string };
  modelUrl: string;
  transcriptionUrl: string;
  voice: { seconds: number } | { skipped: string };
}

/** The image_url data URLs of a recorded OpenAI request body, in order. */
function imageParts(raw: string): string[] {
  return [...raw.matchAll(/\{"type":"image_url","image_url":\{"url":"data:[^"]*"\}\}/g)].map((m) => m[0]);
}

async function host(): Promise<void> {
  const { execFileSync } = await import('node:child_process');
  const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { startTelegramFake } = await import('../test/fakes/telegram.js');
  const { startModelFake } = await import('../test/fakes/model.js');
  const { jpeg, has } = await import('../test/media/files.js');

  let arrived: ((at: number, raw: string) => void) | undefined;
  const tg = await startTelegramFake({ maxPollHoldMs: 1000 });
  const model = await startModelFake({
    script: (req) => {
      arrived?.(performance.now(), req.raw);
      arrived = undefined;
      return { text: 'Seen.' };
    },
  });
  // The transcription backend: answers at once; its own time is request in → answer written.
  let backendMs = 0;
  const asr = createServer((req, res) => {
    const t0 = performance.now();
    req.resume();
    req.on('end', () => {
      res.on('finish', () => (backendMs = performance.now() - t0));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: 'please call me tomorrow at noon about the quarterly report and bring the figures' }));
    });
  });
  await new Promise<void>((r) => asr.listen(0, '127.0.0.1', r));

  let voice: Uint8Array | undefined;
  let voiceInfo: HostReady['voice'] = { skipped: 'needs espeak-ng and ffmpeg on PATH' };
  if (has('espeak-ng') && has('ffmpeg')) {
    const dir = mkdtempSync(join(tmpdir(), 'sb-bench-voice-'));
    try {
      execFileSync('espeak-ng', ['-s', '140', '-w', join(dir, 'in.wav'), 'Please call me tomorrow at noon about the quarterly report, and bring the figures for the last three months.']);
      execFileSync('ffmpeg', ['-loglevel', 'error', '-i', join(dir, 'in.wav'), '-af', 'apad', '-t', '10', '-ac', '1', '-c:a', 'libopus', '-b:a', '24k', join(dir, 'out.ogg')]);
      voice = new Uint8Array(readFileSync(join(dir, 'out.ogg')));
      voiceInfo = { seconds: 10 };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** Pushes `message`, resolves when the model request arrives (time since the push and its body), then waits for the answer. */
  const turn = async (message: Record<string, unknown>): Promise<{ ms: number; raw: string }> => {
    tg.sent.splice(0);
    const seen = new Promise<{ at: number; raw: string }>((resolve) => (arrived = (at, raw) => resolve({ at, raw })));
    const t0 = performance.now();
    tg.pushUpdate({ message });
    const { at, raw } = await seen;
    await tg.waitForMessages(1, 30_000);
    tg.sent.splice(0);
    tg.requests.splice(0);
    tg.downloads.splice(0);
    model.requests.splice(0);
    return { ms: at - t0, raw };
  };
  const photo = async (userId: number, caption?: string) => {
    const bytes = await jpeg(2400, 1700); // 4.08 MP, a fresh one each time (distinct bytes, distinct re-encode)
    const file = tg.addFile(bytes, { path: `photos/file_${userId}_${Math.random().toString(36).slice(2)}.jpg` });
    const message: Record<string, unknown> = { ...tg.makeMessage({ userId }), photo: [{ ...file, width: 2400, height: 1700 }], ...(caption ? { caption } : {}) };
    delete message.text;
    const r = await turn(message);
    return { ...r, bytes: bytes.byteLength };
  };

  const run = async (c: HostCommand): Promise<unknown> => {
    switch (c.cmd) {
      case 'photo': {
        const r = await photo(c.userId, 'what is this?');
        const parts = imageParts(r.raw);
        return { ms: r.ms, bytes: r.bytes, partBytes: parts[0]?.length ?? 0 };
      }
      case 'voice': {
        if (!voice) throw new Error('no voice note');
        const file = tg.addFile(voice, { path: `voice/file_${c.userId}.oga` });
        const message: Record<string, unknown> = { ...tg.makeMessage({ userId: c.userId }), voice: { ...file, duration: 10, mime_type: 'audio/ogg' } };
        delete message.text;
        backendMs = NaN;
        const r = await turn(message);
        if (!r.raw.includes('transcribed')) throw new Error('the voice note did not reach the model as a transcript');
        return { ms: r.ms, backendMs };
      }
      case 'laterTurns': {
        const first = await photo(c.userId, 'what is this?');
        await turn(tg.makeMessage({ userId: c.userId, text: 'and its colour?' }));
        const third = await turn(tg.makeMessage({ userId: c.userId, text: 'thanks' }));
        const a = imageParts(first.raw);
        const b = imageParts(third.raw);
        return { identical: a.length === 1 && b.length === 1 && a[0] === b[0], partBytes: a[0]?.length ?? 0 };
      }
      case 'close':
        await tg.close();
        await model.close();
        await new Promise((r) => asr.close(r));
        setImmediate(() => process.exit(0));
        return true;
    }
  };
  process.on('message', (m: { id: number } & HostCommand) => {
    run(m).then(
      (result) => process.send?.({ id: m.id, result }),
      (error: unknown) => process.send?.({ id: m.id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
  process.on('disconnect', () => process.exit(0));
  const ready: HostReady = { ready: true, telegram: { url: tg.url, token: tg.token }, modelUrl: model.openaiUrl, transcriptionUrl: `http://127.0.0.1:${(asr.address() as AddressInfo).port}/v1`, voice: voiceInfo };
  process.send?.(ready);
}

if (process.env.SB_BENCH_MEDIA_HOST === '1') await host();

// ---------------------------------------------------------------- parent: the gateway measured

async function startHost(): Promise<{ ready: HostReady; run<T>(c: HostCommand): Promise<T> }> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, SB_BENCH_MEDIA_HOST: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let next = 1;
  const ready = await new Promise<HostReady>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bench media host exited (${code})`)));
    child.on('message', (m: HostReady | { id: number; result?: unknown; error?: string }) => {
      if ('ready' in m) return resolve(m);
      const p = pending.get(m.id);
      pending.delete(m.id);
      if (m.error !== undefined) p?.reject(new Error(m.error));
      else p?.resolve(m.result);
    });
  });
  return {
    ready,
    run<T>(command: HostCommand): Promise<T> {
      const id = next++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ id, ...command });
      });
    },
  };
}

/** A callable gc without --expose-gc on the command line. */
function gcFunction(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

async function settledRssMiB(gc: () => void): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 100));
  }
  return process.memoryUsage.rss() / 1024 / 1024;
}

const pdfLine = (p: number, l: number) => `Page ${p} line ${l}: revenue grew in the northern region while costs held steady over the quarter.`;

async function benchPdfBytes(): Promise<Uint8Array> {
  const { pdf } = await import('../test/media/files.js');
  return pdf(Array.from({ length: PDF_PAGES }, (_, p) => Array.from({ length: 45 }, (_, l) => pdfLine(p + 1, l + 1))));
}

/** The first PDF in fresh processes (bench/pdf-first.mjs on the bundle in dist/), cold and after the warm-up. */
async function benchPdfFirst(): Promise<MediaBench['pdfFirst']> {
  const { execFileSync } = await import('node:child_process');
  const { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const chunks = fileURLToPath(new URL('../dist/chunks/', import.meta.url));
  let chunk: string | undefined;
  try {
    chunk = readdirSync(chunks)
      .filter((f) => /^pdf-.*\.js$/.test(f))
      .map((f) => join(chunks, f))
      .find((f) => /export\{[^}]*\bwarmPdf\b/.test(readFileSync(f, 'utf8')));
  } catch {
    chunk = undefined;
  }
  if (!chunk) return { skipped: 'no current build in dist/ (npm run build)' };
  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-pdf-'));
  try {
    const file = join(dir, 'fifty.pdf');
    writeFileSync(file, await benchPdfBytes());
    const run = (mode: 'cold' | 'warmed') =>
      JSON.parse(execFileSync(process.execPath, [fileURLToPath(new URL('./pdf-first.mjs', import.meta.url)), chunk, file, mode], { encoding: 'utf8' })) as { warmUpMs: number | null; firstMs: number; chars: number };
    const cold: number[] = [];
    const warmed: number[] = [];
    const warmUp: number[] = [];
    for (let i = 0; i < 3; i++) {
      cold.push(run('cold').firstMs);
      const w = run('warmed');
      warmed.push(w.firstMs);
      warmUp.push(w.warmUpMs ?? NaN);
    }
    return { coldMs: round(percentile(cold, 50)), warmedMs: round(percentile(warmed, 50)), warmUpMs: round(percentile(warmUp, 50)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchPdf(): Promise<MediaBench['pdf']> {
  const { pdfText } = await import('../src/media/pdf.js');
  const line = pdfLine;
  const bytes = await benchPdfBytes();
  const time = async () => {
    const t0 = performance.now();
    const text = await pdfText(bytes, Number.MAX_SAFE_INTEGER);
    return { ms: performance.now() - t0, text };
  };
  const l0 = performance.now();
  await import('pdfjs-dist/legacy/build/pdf.mjs'); // what pdf.ts loads on its first call
  const loadMs = performance.now() - l0;
  const cold = await time();
  if (!cold.text.includes(line(PDF_PAGES, 45))) throw new Error('the PDF text misses its last page');
  const warm: number[] = [];
  for (let i = 0; i < 5; i++) warm.push((await time()).ms);
  return { pages: PDF_PAGES, chars: cold.text.length, loadMs: round(loadMs), firstMs: round(cold.ms), warmMs: round(percentile(warm, 50)) };
}

export async function benchMedia(log: (line: string) => void = () => undefined): Promise<MediaBench> {
  const gc = gcFunction();
  const host = await startHost();
  const { ready } = host;
  const yaml = `transcription:\n  backend: openai\n  base_url: ${ready.transcriptionUrl}\n`;
  const pipeline = await startPipeline({ telegram: ready.telegram, modelUrl: ready.modelUrl }, { yaml });
  const loads: number[] = [];
  try {
    let user = 5000;
    // Warm-up: sharp, file-type and the store loaded as on a gateway's first photo; not counted.
    for (let i = 0; i < 3; i++) await host.run({ cmd: 'photo', userId: user++ });

    const photos: Array<{ ms: number; bytes: number; partBytes: number }> = [];
    for (let i = 0; i < PHOTOS; i++) photos.push(await host.run({ cmd: 'photo', userId: user++ }));
    loads.push(loadavg()[0]);
    if (photos.some((p) => p.partBytes === 0)) throw new Error('a photo did not reach the model as an image part');
    const ms = photos.map((p) => p.ms);
    log(`media: photo → model request p50 ${round(percentile(ms, 50))} ms, p95 ${round(percentile(ms, 95))} ms over ${PHOTOS}`);

    let voice: MediaBench['voice'];
    if ('skipped' in ready.voice) voice = { skipped: ready.voice.skipped };
    else {
      await host.run({ cmd: 'voice', userId: user++ });
      const runs: Array<{ ms: number; backendMs: number }> = [];
      for (let i = 0; i < VOICES; i++) runs.push(await host.run({ cmd: 'voice', userId: user++ }));
      loads.push(loadavg()[0]);
      const gateway = runs.map((r) => r.ms - r.backendMs);
      voice = { notes: VOICES, seconds: ready.voice.seconds, p50Ms: round(percentile(gateway, 50)), p95Ms: round(percentile(gateway, 95)), backendP50Ms: round(percentile(runs.map((r) => r.backendMs), 50)) };
      log(`media: voice note gateway time p50 ${voice.p50Ms} ms, p95 ${voice.p95Ms} ms over ${VOICES}`);
    }

    const laterTurns = await host.run<MediaBench['laterTurns']>({ cmd: 'laterTurns', userId: user++ });

    const beforeMiB = await settledRssMiB(gc);
    for (let i = 0; i < MEMORY_PHOTOS; i++) await host.run({ cmd: 'photo', userId: user++ });
    loads.push(loadavg()[0]);
    const afterMiB = await settledRssMiB(gc);
    log(`media: RSS ${round(beforeMiB, 1)} → ${round(afterMiB, 1)} MiB over ${MEMORY_PHOTOS} photos`);

    const pdfResult = await benchPdf();
    log(`media: ${PDF_PAGES}-page PDF to text ${pdfResult.firstMs} ms (first, after ${pdfResult.loadMs} ms loading pdf.js), ${pdfResult.warmMs} ms (warm)`);
    const pdfFirst = await benchPdfFirst();
    log('skipped' in pdfFirst ? `media: first PDF in a fresh process skipped: ${pdfFirst.skipped}` : `media: first PDF in a fresh process ${pdfFirst.warmedMs} ms after the warm-up (${pdfFirst.warmUpMs} ms in the background), ${pdfFirst.coldMs} ms without it`);
    return {
      photos: PHOTOS,
      photoP50Ms: round(percentile(ms, 50)),
      photoP95Ms: round(percentile(ms, 95)),
      photoBytes: Math.round(percentile(photos.map((p) => p.bytes), 50)),
      imagePartBytes: Math.round(percentile(photos.map((p) => p.partBytes), 50)),
      voice,
      memory: { photos: MEMORY_PHOTOS, beforeMiB: round(beforeMiB, 1), afterMiB: round(afterMiB, 1), growthMiB: round(afterMiB - beforeMiB, 1) },
      pdf: pdfResult,
      pdfFirst,
      laterTurns,
      loadAverage: round(Math.max(...loads), 1),
    };
  } finally {
    await pipeline.stop();
    await host.run({ cmd: 'close' }).catch(() => undefined);
  }
}

/**
 * The `command` transcription backend (ARCHITECTURE.md §15): a local program such as whisper.cpp's CLI. The
 * audio is written to a private temp folder (`{input}`) and converted with ffmpeg to a 16 kHz mono WAV
 * (`{wav}`); the program's stdout is the text.
 */
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AttachmentError } from '../core/media/errors.js';
import type { AudioInput, Transcriber, Transcript } from '../core/media/readers.js';
import { run, toWav16k, which } from './ffmpeg.js';

export interface CommandTranscriberOptions {
  command: readonly string[];
  timeoutMs: number;
}

export class CommandTranscriber implements Transcriber {
  readonly name = 'command';

  constructor(private readonly options: CommandTranscriberOptions) {}

  async transcribe(audio: AudioInput, signal?: AbortSignal): Promise<Transcript> {
    const dir = await mkdtemp(join(tmpdir(), 'sb-voice-'));
    try {
      const input = join(dir, 'input');
      const wav = join(dir, 'audio.wav');
      await writeFile(input, audio.bytes, { mode: 0o600 });
      const needsWav = this.options.command.some((a) => a.includes('{wav}'));
      let seconds: number | undefined;
      if (needsWav) {
        try {
          await toWav16k(input, wav, { timeoutMs: this.options.timeoutMs, signal });
        } catch (error) {
          if (signal?.aborted) throw error;
          throw new AttachmentError('unreadable', error instanceof Error ? error.message : String(error));
        }
        seconds = Math.max(0, (await stat(wav)).size - 44) / 32_000;
      }
      const argv = this.options.command.map((a) => a.replaceAll('{wav}', wav).replaceAll('{input}', input));
      let r;
      try {
        r = await run(argv, { timeoutMs: this.options.timeoutMs, signal });
      } catch (error) {
        if (signal?.aborted) throw error;
        throw new AttachmentError('transcription', `${argv[0]} could not be run (${error instanceof Error ? error.message : String(error)})`);
      }
      if (r.code !== 0) throw new AttachmentError('transcription', `${argv[0]} exited with code ${r.code}`);
      return { text: r.stdout.replace(/\s+/g, ' ').trim(), ...(seconds !== undefined ? { seconds } : {}) };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async check(): Promise<string | null> {
    const program = this.options.command[0];
    if (!(await which(program))) return `transcription.command: '${program}' is not installed or not executable`;
    if (this.options.command.some((a) => a.includes('{wav}')) && !(await which('ffmpeg'))) {
      return 'transcription.command uses {wav}, which needs ffmpeg; install it (Debian: apt-get install ffmpeg)';
    }
    return null;
  }
}

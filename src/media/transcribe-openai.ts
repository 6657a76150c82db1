/**
 * The `openai` transcription backend (ARCHITECTURE.md §15): POST multipart {base_url}/audio/transcriptions,
 * as OpenAI, Groq, whisper.cpp's server, speaches and LocalAI take it. The audio goes as it came (the
 * endpoint takes OGG/Opus, MP3, M4A, WAV, WebM, FLAC, MP4), named by its sniffed type.
 */
import { AttachmentError } from '../core/media/errors.js';
import type { AudioInput, Transcriber, Transcript } from '../core/media/readers.js';

export interface OpenAITranscriberOptions {
  baseURL: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

const EXTENSIONS: Record<string, string> = {
  'audio/ogg': 'ogg',
  'audio/opus': 'ogg',
  'application/ogg': 'ogg',
  'video/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/x-m4a': 'm4a',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/vnd.wave': 'wav',
  'audio/webm': 'webm',
  'video/webm': 'webm',
  'audio/flac': 'flac',
  'audio/x-flac': 'flac',
  'video/mp4': 'mp4',
};

export class OpenAITranscriber implements Transcriber {
  readonly name = 'openai';

  constructor(private readonly options: OpenAITranscriberOptions) {}

  private url(path: string): string {
    return `${this.options.baseURL.replace(/\/+$/, '')}/${path}`;
  }

  async transcribe(audio: AudioInput, signal?: AbortSignal): Promise<Transcript> {
    const ext = EXTENSIONS[audio.mime] ?? 'ogg';
    const form = new FormData();
    form.set('file', new Blob([audio.bytes], { type: audio.mime }), `audio.${ext}`);
    form.set('model', this.options.model);
    form.set('response_format', 'json');
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    let response: Response;
    try {
      response = await (this.options.fetch ?? fetch)(this.url('audio/transcriptions'), {
        method: 'POST',
        body: form,
        headers: this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {},
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      if (timeout.aborted) throw new AttachmentError('timeout', `the transcription service did not answer within ${Math.round(this.options.timeoutMs / 1000)} s`);
      throw new AttachmentError('transcription', 'the transcription service could not be reached');
    }
    const body = await response.text();
    if (!response.ok) throw new AttachmentError('transcription', `the transcription service answered ${response.status}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return { text: body.trim() };
    }
    const text = parsed && typeof parsed === 'object' && 'text' in parsed && typeof parsed.text === 'string' ? parsed.text : null;
    if (text === null) throw new AttachmentError('transcription', 'the transcription service answered without text');
    const duration = parsed && typeof parsed === 'object' && 'duration' in parsed && typeof parsed.duration === 'number' ? parsed.duration : undefined;
    return { text, ...(duration !== undefined ? { seconds: duration } : {}) };
  }

  async check(): Promise<string | null> {
    try {
      const r = await (this.options.fetch ?? fetch)(this.url('models'), {
        headers: this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {},
        signal: AbortSignal.timeout(5000),
      });
      await r.body?.cancel().catch(() => undefined);
      if (r.status === 401 || r.status === 403) return `transcription: ${this.options.baseURL} refused the key (${r.status}); set TRANSCRIPTION_API_KEY`;
      return null;
    } catch {
      return `transcription: ${this.options.baseURL} cannot be reached (transcription.base_url / TRANSCRIPTION_BASE_URL)`;
    }
  }
}

/**
 * The libraries behind the core's media interfaces (ARCHITECTURE.md §15), put together from the settings by
 * the composition root. Each library is loaded on first use (sharp's libvips, pdf.js and mammoth are
 * large): a gateway that is never sent a file never loads them.
 */
import type { Settings } from '../core/settings.js';
import type { MediaReaders, Transcriber } from '../core/media/readers.js';
import { CommandTranscriber } from './transcribe-command.js';
import { OpenAITranscriber } from './transcribe-openai.js';

export const mediaReaders: MediaReaders = {
  sniff: async (bytes) => (await import('./sniff.js')).sniffMime(bytes),
  image: async (bytes, maxSide, mime) => (await import('./image.js')).reencodeImage(bytes, maxSide, mime),
  pdf: async (bytes, maxChars) => (await import('./pdf.js')).pdfText(bytes, maxChars),
  docx: async (bytes) => (await import('./docx.js')).docxText(bytes),
  // pdf.js takes 1–2 s to load: begun as soon as a turn holds a document, so it loads while the file
  // downloads, and a gateway that is never sent one never holds pdf.js's 35–50 MiB (ARCHITECTURE.md §15).
  preloadDocuments: () => void import('./pdf.js').then((m) => m.preloadPdf()).catch(() => undefined),
};

/** The configured transcription backend, or null when it is off (or `openai` has no endpoint to use). */
export function transcriberFor(settings: Pick<Settings, 'config' | 'transcription'>): Transcriber | null {
  const t = settings.config.transcription;
  const timeoutMs = t.timeout_seconds * 1000;
  if (t.backend === 'off') return null;
  if (t.backend === 'command') return new CommandTranscriber({ command: t.command ?? [], timeoutMs });
  const baseURL = settings.transcription?.baseURL ?? t.base_url;
  if (!baseURL) return null;
  return new OpenAITranscriber({ baseURL, apiKey: settings.transcription?.apiKey, model: t.model, timeoutMs });
}

/**
 * Why voice notes are not transcribed, as the one line a user can act on (ARCHITECTURE.md §15), or null when a
 * backend is set. The `openai` backend has no endpoint of its own when the model is not OpenAI-compatible
 * (Anthropic) and neither TRANSCRIPTION_BASE_URL nor transcription.base_url is set.
 */
export function transcriptionMissing(settings: Pick<Settings, 'config' | 'transcription'>): string | null {
  const t = settings.config.transcription;
  if (t.backend === 'off') return 'transcription is off (transcription.backend: off)';
  if (t.backend === 'command' || settings.transcription?.baseURL || t.base_url) return null;
  return 'no transcription service is set — set TRANSCRIPTION_BASE_URL to an OpenAI-compatible /audio/transcriptions server (OpenAI, Groq, whisper.cpp), or transcription.backend: command';
}


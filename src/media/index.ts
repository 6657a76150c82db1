/**
 * The libraries behind the core's media interfaces (ARCHITECTURE.md §15), put together from the settings by
 * the composition root.
 */
import type { Settings } from '../core/settings.js';
import type { MediaReaders, Transcriber } from '../core/media/readers.js';
import { sniffMime } from './sniff.js';
import { reencodeImage } from './image.js';
import { pdfText } from './pdf.js';
import { docxText } from './docx.js';
import { CommandTranscriber } from './transcribe-command.js';
import { OpenAITranscriber } from './transcribe-openai.js';

export const mediaReaders: MediaReaders = { sniff: sniffMime, image: reencodeImage, pdf: pdfText, docx: docxText };

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
